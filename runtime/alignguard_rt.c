/*===- alignguard_rt.c - AlignGuard runtime: reports broken alignment -----===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Code instrumented by the `align-guard` pass calls these hooks when a pointer
 * breaks an alignment promise (llvm.assume "align" bundles, assume(icmp) masks,
 * `align` parameter attributes):
 *
 *   __alignguard_report(&site, p, A, off)        count, report once per site
 *   __alignguard_report_abort(&site, p, A, off)  count, report, abort()
 *   __alignguard_report_first, __alignguard_report_first_abort,
 *   __alignguard_fallback_first
 *     (p0, p1, p2, p3, &sites[0], n): one call for a place of 2-4 pointers
 *     (a table of its descriptors); finds the first misaligned one and
 *     calls the hook above (or below) with it
 *   __alignguard_fallback(&site, p, A, off)      count fallbacks (not
 *                                                violations); report the
 *                                                first per site only with
 *                                                report_fallback=1
 *
 * and the default output is one line per report, for example
 *
 *   alignguard: dot: argument #1 'b' = 0x1004 is 4-byte aligned, not 16-byte
 *       aligned (4 bytes past a boundary) at dot.c:9:3, promised at
 *       dot.h:4:10                                       (one line in reality)
 *
 * (", promised at" only when the descriptor knows where the promise was
 * written and that is not where it is checked: an inlined helper's assume,
 * a callee's declaration; a fallback line ends in "; running the unaligned
 * fallback"). The names in
 * it come from the IR: their control bytes are written as \xNN (as in the
 * audit table), so a report is always one line. Every hook also keeps the
 * plain line, per thread, for alignguard_last_error(): a host such as TVM
 * returns -1 and builds its own error message from it.
 *
 * Modelled on compiler-rt's ubsan_minimal: the runtime links into any program
 * and may run in any context (signal handlers, half-initialised processes,
 * programs without libstdc++), so it uses nothing but libc: no malloc, no
 * stdio, no locks. Lines are built in a bounded stack buffer with the
 * hand-written appenders of format.h and leave with one write(2). The state
 * (counts, handler, options, sites seen, each thread's last error) is static
 * storage in alignguard_state.c, which this file reaches through the dynamic
 * linker's binding, so that the copies of the runtime in several shared
 * libraries agree on one state per lookup scope (state.h). Only the first
 * touch of the thread-local last error on a thread, when the runtime sits in
 * a dlopen'ed shared library, may make the C library allocate
 * (__tls_get_addr).
 *
 * ALIGNGUARD_OPTIONS=key=value:key=value, read on the first report/fallback:
 *   log_path=PATH|stderr   append reports to PATH (default: stderr); a PATH
 *                          that cannot be opened or written (/dev/full) is
 *                          given up for stderr, with one line saying why
 *   quiet=0|1              1: no default output; counts and handlers still run
 *   report_fallback=0|1    1: report the first fallback at each site
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "alignguard/alignguard.h"

#include "format.h"
#include "state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AG_API __attribute__((visibility("default")))

/* The state, defined in alignguard_state.c and reached through the dynamic
   linker's binding (state.h): the first copy of the runtime in this
   library's lookup scope. */
#define g_state __alignguard_state_v1
#define t_state __alignguard_thread_state_v1

static const char too_many_violation_sites[] =
    "alignguard: too many distinct failing sites; further new sites are "
    "counted, not reported";
static const char too_many_fallback_sites[] =
    "alignguard: too many distinct sites running the unaligned fallback; "
    "further new sites are counted, not reported";

/*===-- Output ------------------------------------------------------------===*/

/// Writes all of buf, retrying on EINTR and partial writes. Returns 0, or
/// the errno of the write that failed (-1 when one wrote nothing).
static int write_all(int fd, const char *buf, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, buf, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return errno;
    if (w == 0)
      return -1;
    buf += w;
    n -= (size_t)w;
  }
  return 0;
}

/// Sends o's text plus '\n' in one write; returns what write_all does.
/// o->buf must hold o->size bytes; the text is at most size - 1 bytes, so
/// the newline always fits.
static int write_line(int fd, ag_out *o) {
  size_t n = o->len < o->size - 1 ? o->len : o->size - 1;
  o->buf[n] = '\n';
  return write_all(fd, o->buf, n + 1);
}

/// Why an open or a write failed: errno's name for the usual suspects, else
/// its number (strerror may allocate and reads the locale); -1 is a write
/// that wrote nothing.
static void put_errno(ag_out *o, int err) {
#define AG_ERRNO(e)                                                            \
  { e, #e }
  static const struct {
    int err;
    const char *name;
  } names[] = {
      AG_ERRNO(EACCES), AG_ERRNO(EBADF),  AG_ERRNO(EFBIG),
      AG_ERRNO(EIO),    AG_ERRNO(EISDIR), AG_ERRNO(ENAMETOOLONG),
      AG_ERRNO(ENOENT), AG_ERRNO(ENOSPC), AG_ERRNO(ENOTDIR),
      AG_ERRNO(EPERM),  AG_ERRNO(EPIPE),  AG_ERRNO(EROFS),
#ifdef EDQUOT
      AG_ERRNO(EDQUOT),
#endif
  };
#undef AG_ERRNO
  if (err == -1) {
    put_str(o, "nothing written");
    return;
  }
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (names[i].err == err) {
      put_str(o, names[i].name);
      return;
    }
  put_str(o, "errno ");
  put_sdec(o, err);
}

/// Writes "alignguard: " a, the blen bytes at b (escaped: they come from
/// ALIGNGUARD_OPTIONS), then c, and when err is not 0 " (" its name ")" and
/// d, as one line to stderr: for problems with ALIGNGUARD_OPTIONS and the
/// log, which may name no log yet or be the log that failed.
static void say_on_stderr(const char *a, const char *b, size_t blen,
                          const char *c, int err, const char *d) {
  char line[AG_LINE_MAX];
  ag_out o = {line, sizeof line, 0};
  put_str(&o, "alignguard: ");
  put_str(&o, a);
  put_escaped_mem(&o, b, blen);
  put_str(&o, c);
  if (err) {
    put_str(&o, " (");
    put_errno(&o, err);
    put_char(&o, ')');
    put_str(&o, d);
  }
  write_line(2, &o);
}

/// Copies the name the log was opened from into path (PATH_MAX bytes) and
/// returns its length.
static size_t log_path_copy(char *path) {
  size_t n = atomic_load_explicit(&g_state.log_path_len, memory_order_acquire);
  for (size_t i = 0; i < n; ++i)
    path[i] = atomic_load_explicit(&g_state.log_path[i], memory_order_relaxed);
  return n;
}

/// Records the name a log is opened from (see ag_state::log_path).
static void log_path_publish(const char *path, size_t n) {
  for (size_t i = 0; i < n; ++i)
    atomic_store_explicit(&g_state.log_path[i], path[i], memory_order_relaxed);
  atomic_store_explicit(&g_state.log_path_len, n, memory_order_release);
}

/// Writes a line of the default output to the log. A log that does not take
/// it (log_path=/dev/full, a full disk, a descriptor the program closed) is
/// given up for stderr: one line says why, then this line and every later
/// one go to stderr. The old descriptor stays open, as another thread may be
/// writing to it and a closed number could be reused for a file of the
/// program's.
static void write_report_line(ag_out *o) {
  int fd = atomic_load(&g_state.log_fd);
  int err = write_line(fd, o);
  if (err == 0 || fd == 2)
    return; /* stderr itself failed: there is nowhere better to say so */
  if (atomic_compare_exchange_strong(&g_state.log_fd, &fd, 2)) {
    char path[PATH_MAX];
    size_t path_len = log_path_copy(path);
    say_on_stderr("cannot write to log_path '", path, path_len, "'", err,
                  "; reporting to stderr");
  }
  write_line(2, o);
}

/*===-- ALIGNGUARD_OPTIONS ------------------------------------------------===*/

static int equals(const char *s, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/// Opens the log, or falls back to stderr with one line saying why. The path
/// is copied to the stack, not to a static buffer: two first reports may be
/// parsing at once, and a shared buffer would be a data race.
__attribute__((noinline)) static int open_log(const char *path, size_t n,
                                              int diag) {
  char copy[PATH_MAX];
  int fd = -1;
  int err = ENAMETOOLONG;
  if (n < sizeof copy) {
    memcpy(copy, path, n);
    copy[n] = '\0';
    do
      fd = open(copy, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    while (fd < 0 && errno == EINTR);
    err = errno;
  }
  if (fd >= 0)
    return fd;
  if (diag)
    say_on_stderr("cannot open log_path '", path, n, "'", err,
                  "; reporting to stderr");
  return 2;
}

/// Reads the value of the field [field, end) (val points past its '=') into
/// *flag when it is 0 or 1; otherwise leaves *flag and says why.
static void parse_flag(const char *field, const char *end, const char *val,
                       int *flag, int diag) {
  size_t val_len = (size_t)(end - val);
  if (equals(val, val_len, "0") || equals(val, val_len, "1"))
    *flag = *val == '1';
  else if (diag)
    say_on_stderr("invalid ALIGNGUARD_OPTIONS value '", field,
                  (size_t)(end - field), "' (expected 0 or 1)", 0, NULL);
}

/// Parses ALIGNGUARD_OPTIONS and publishes the result. Idempotent, so racing
/// first reports may each run it; the log fd is published by compare-exchange
/// and a loser closes the file it opened.
static void parse_options(void) {
  int diag = !atomic_flag_test_and_set(&g_state.options_diag_taken);
  const char *p = getenv("ALIGNGUARD_OPTIONS");
  const char *path = NULL;
  size_t path_len = 0;
  int quiet = 0;
  int report_fallback = 0;
  while (p && *p) {
    const char *end = strchr(p, ':');
    if (!end)
      end = p + strlen(p);
    const char *eq = (const char *)memchr(p, '=', (size_t)(end - p));
    const char *val = eq ? eq + 1 : end;
    size_t key_len = (size_t)((eq ? eq : end) - p);
    size_t val_len = (size_t)(end - val);
    if (end == p) {
      /* Empty field ("a=1::b=2" or a trailing ':'): nothing to do. */
    } else if (equals(p, key_len, "log_path")) {
      path = val; /* the last one wins, as in the sanitizers */
      path_len = val_len;
    } else if (equals(p, key_len, "quiet")) {
      parse_flag(p, end, val, &quiet, diag);
    } else if (equals(p, key_len, "report_fallback")) {
      parse_flag(p, end, val, &report_fallback, diag);
    } else if (diag) {
      say_on_stderr("unknown ALIGNGUARD_OPTIONS key '", p, key_len, "'", 0,
                    NULL);
    }
    p = *end ? end + 1 : end;
  }

  int fd = 2;
  if (path && !equals(path, path_len, "stderr"))
    fd = open_log(path, path_len, diag);
  atomic_store(&g_state.quiet, quiet);
  atomic_store(&g_state.report_fallback, report_fallback);
  if (fd != 2) /* open_log opens only paths shorter than PATH_MAX */
    log_path_publish(path, path_len);
  int unset = -1;
  if (!atomic_compare_exchange_strong(&g_state.log_fd, &unset, fd) && fd != 2)
    close(fd);
  atomic_store_explicit(&g_state.options_ready, 1, memory_order_release);
}

static void ensure_options(void) {
  if (!atomic_load_explicit(&g_state.options_ready, memory_order_acquire))
    parse_options();
}

/*===-- Reporting ---------------------------------------------------------===*/

/// The largest power of two dividing `pointer - offset`, at most alignment
/// (alignment itself when nothing is misaligned); for an alignment that is
/// not a power of two, the largest dividing `pointer` (0 for null).
static uint64_t actual_alignment(uint64_t pointer, uint64_t alignment,
                                 int64_t offset) {
  if (!is_pow2(alignment))
    return pointer & (0 - pointer);
  uint64_t address = pointer - (uint64_t)offset;
  uint64_t low = address & (0 - address);
  return low == 0 || low > alignment ? alignment : low;
}

/*===-- Descriptors -------------------------------------------------------===*/

/* The layout is fixed: 56 bytes, the 64-bit fields 8-aligned, on every
   target (the pass writes it byte by byte, plugin/transform/RuntimeABI.cpp). */
_Static_assert(sizeof(alignguard_site) == 56, "56-byte descriptors");
_Static_assert(offsetof(alignguard_site, alignment) == 32 &&
                   offsetof(alignguard_site, offset) == 40 &&
                   offsetof(alignguard_site, promise_line) == 48,
               "the descriptor's fields' offsets");

/// The string a descriptor names by its offset from itself; NULL for 0
/// (none).
static const char *site_string(const alignguard_site *site, uint32_t offset) {
  return offset ? (const char *)site + offset : NULL;
}

/// `site`'s fields into `view`, its strings as pointers; only the version
/// of a descriptor of another version, nothing of a NULL one.
static void view_site(const alignguard_site *site, alignguard_site_view *view) {
  memset(view, 0, sizeof *view);
  view->descriptor = site;
  if (!site)
    return;
  view->version = site->version;
  if (site->version != ALIGNGUARD_SITE_VERSION)
    return;
  view->kind = site->kind;
  view->function = site_string(site, site->function);
  view->subject = site_string(site, site->subject);
  view->file = site_string(site, site->file);
  view->line = site->line;
  view->column = site->column;
  view->alignment = site->alignment;
  view->offset = site->offset;
  view->promise_file = site_string(site, site->promise_file);
  view->promise_line = site->promise_line;
  view->promise_column = site->promise_column;
}

/// `file[:line[:col]]`.
static void put_location(ag_out *o, const char *file, uint32_t line,
                         uint32_t column) {
  put_escaped(o, file);
  if (line) {
    put_char(o, ':');
    put_dec(o, line);
    if (column) {
      put_char(o, ':');
      put_dec(o, column);
    }
  }
}

static int same_location(const char *file_a, uint32_t line_a, uint32_t col_a,
                         const char *file_b, uint32_t line_b, uint32_t col_b) {
  return file_a && file_b && strcmp(file_a, file_b) == 0 && line_a == line_b &&
         col_a == col_b;
}

AG_API size_t alignguard_format_report(char *buf, size_t size,
                                       const alignguard_site *site,
                                       uint64_t pointer, uint64_t alignment,
                                       int64_t offset) {
  ag_out o = {buf, size, 0};
  put_str(&o, "alignguard: ");
  /* A descriptor of another version may have any layout: read nothing
     but the version, which every version keeps first. */
  if (site && site->version != ALIGNGUARD_SITE_VERSION) {
    put_str(&o, "report from a site descriptor of version ");
    put_dec(&o, site->version);
    put_str(&o, ", not ");
    put_dec(&o, ALIGNGUARD_SITE_VERSION);
    put_str(&o, " (pointer ");
    put_hex(&o, pointer);
    put_char(&o, ')');
    return finish(&o);
  }
  alignguard_site_view v;
  view_site(site, &v);
  /* Names come from the IR: escaped, so that the report stays one line. */
  put_escaped(&o, v.function);
  put_str(&o, ": ");
  put_escaped(&o, v.subject);
  put_str(&o, " = ");
  put_hex(&o, pointer);
  if (is_pow2(alignment)) {
    if (offset > 0) {
      put_str(&o, " - ");
      put_dec(&o, (uint64_t)offset);
    } else if (offset < 0) {
      put_str(&o, " + "); /* negated in unsigned arithmetic: INT64_MIN too */
      put_dec(&o, 0 - (uint64_t)offset);
    }
    uint64_t past = (pointer - (uint64_t)offset) & (alignment - 1);
    put_str(&o, " is ");
    put_dec(&o, actual_alignment(pointer, alignment, offset));
    if (past) { /* always, unless called directly for an aligned address */
      put_str(&o, "-byte aligned, not ");
      put_dec(&o, alignment);
    }
    put_str(&o, "-byte aligned (");
    put_dec(&o, past);
    put_str(&o, " bytes past a boundary)");
  } else {
    /* LangRef: an alignment that is not a power of two promises a null
       pointer; the offset plays no part, so it is not shown. */
    put_str(&o, " is not null, as the alignment ");
    put_dec(&o, alignment);
    put_str(&o, " (not a power of two) requires");
  }
  const char *file = v.file && v.file[0] ? v.file : NULL;
  if (file) {
    put_str(&o, " at ");
    put_location(&o, file, v.line, v.column);
  }
  const char *promise_file =
      v.promise_file && v.promise_file[0] ? v.promise_file : NULL;
  if (promise_file &&
      !(file && same_location(file, v.line, v.column, promise_file,
                              v.promise_line, v.promise_column))) {
    put_str(&o, ", promised at ");
    put_location(&o, promise_file, v.promise_line, v.promise_column);
  }
  return finish(&o);
}

/// Hands one report to the user's handler, or writes it to the log unless
/// quiet. A fallback report is the usual line plus a suffix saying so.
/// The hooks parse the options and put the program's errno back before
/// calling this, since the handler may longjmp or throw past them; nothing
/// here touches errno before the handler runs.
static void deliver(const alignguard_site *site, uint64_t pointer,
                    uint64_t alignment, int64_t offset, int fatal,
                    int fallback) {
  /* alignguard_set_handler stores the user, then (release) the handler; so
     loading the handler first (acquire) never pairs it with an older user. */
  alignguard_handler handler =
      atomic_load_explicit(&g_state.handler, memory_order_acquire);
  void *user =
      atomic_load_explicit(&g_state.handler_user, memory_order_relaxed);
  if (!handler && atomic_load(&g_state.quiet))
    return;

  char line[AG_LINE_MAX];
  ag_out o = {line, sizeof line, 0};
  o.len = alignguard_format_report(line, sizeof line, site, pointer, alignment,
                                   offset);
  if (fallback) {
    put_str(&o, "; running the unaligned fallback");
    finish(&o);
  }
  if (handler) {
    alignguard_site_view view;
    view_site(site, &view);
    alignguard_report_info info = {
        &view,
        (uintptr_t)pointer,
        alignment,
        offset,
        is_pow2(alignment) ? (pointer - (uint64_t)offset) & (alignment - 1) : 0,
        line,
        fatal,
        fallback,
        actual_alignment(pointer, alignment, offset)};
    handler(&info, user);
    return;
  }
  write_report_line(&o);
}

/// 1 if this is the first report at `site` in `table`, 0 if it was seen
/// before, -1 if it is new but the table is full. Open addressing from a hash
/// of the address; a site, once in, sits before the first empty slot of its
/// probe sequence.
static int first_at_site(ag_site_table *table, const alignguard_site *site) {
  if (!site)
    return !atomic_flag_test_and_set(&table->null_seen);
  unsigned start =
      (unsigned)(((uint64_t)(uintptr_t)site * 0x9E3779B97F4A7C15ull) >> 56);
  for (unsigned i = 0; i < AG_SITE_SLOTS; ++i) {
    _Atomic(const alignguard_site *) *slot =
        &table->slots[(start + i) % AG_SITE_SLOTS];
    const alignguard_site *cur =
        atomic_load_explicit(slot, memory_order_relaxed);
    if (!cur && atomic_compare_exchange_strong_explicit(slot, &cur, site,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed))
      return 1;
    if (cur == site) /* seen before, or another thread just claimed it */
      return 0;
  }
  return -1;
}

/// Reports `site` if it is new to `table`; says once when the table is full.
static void deliver_once(ag_site_table *table, const char *full_line,
                         const alignguard_site *site, uint64_t pointer,
                         uint64_t alignment, int64_t offset, int fallback) {
  int first = first_at_site(table, site);
  if (first > 0) {
    deliver(site, pointer, alignment, offset, 0, fallback);
  } else if (first < 0 && !atomic_flag_test_and_set(&table->full_said)) {
    if (!atomic_load(&g_state.quiet)) {
      char line[AG_LINE_MAX];
      ag_out o = {line, sizeof line, 0};
      put_str(&o, full_line);
      write_report_line(&o);
    }
  }
}

/// Every violation and fallback lands here, deduplicated or not, before
/// anything is printed: a handler (or a host after a `return=N` kernel)
/// already sees this report in alignguard_last_error().
static void record_last_error(const alignguard_site *site, uint64_t pointer,
                              uint64_t alignment, int64_t offset) {
  t_state.site = site;
  t_state.pointer = pointer;
  t_state.alignment = alignment;
  t_state.offset = offset;
  t_state.pending = 1;
}

AG_API void __alignguard_report(const alignguard_site *site, uint64_t pointer,
                                uint64_t alignment, int64_t offset) {
  int saved_errno = errno;
  atomic_fetch_add_explicit(&g_state.violations, 1, memory_order_relaxed);
  record_last_error(site, pointer, alignment, offset);
  ensure_options();
  errno = saved_errno; /* first: the handler may longjmp or throw past us */
  deliver_once(&g_state.violation_sites, too_many_violation_sites, site,
               pointer, alignment, offset, 0);
  errno = saved_errno;
}

AG_API void __alignguard_report_abort(const alignguard_site *site,
                                      uint64_t pointer, uint64_t alignment,
                                      int64_t offset) {
  int saved_errno = errno;
  atomic_fetch_add_explicit(&g_state.violations, 1, memory_order_relaxed);
  record_last_error(site, pointer, alignment, offset);
  ensure_options();
  errno = saved_errno;
  deliver(site, pointer, alignment, offset, 1, 0);
  abort();
}

AG_API void __alignguard_fallback(const alignguard_site *site, uint64_t pointer,
                                  uint64_t alignment, int64_t offset) {
  int saved_errno = errno;
  atomic_fetch_add_explicit(&g_state.fallbacks, 1, memory_order_relaxed);
  record_last_error(site, pointer, alignment, offset);
  ensure_options();
  errno = saved_errno;
  if (atomic_load(&g_state.report_fallback))
    deliver_once(&g_state.fallback_sites, too_many_fallback_sites, site,
                 pointer, alignment, offset, 1);
  errno = saved_errno;
}

/// The first of a place's addresses whose `address - offset` is not a
/// multiple of its descriptor's alignment, or the last one (the place's
/// branch said one is). A descriptor the pass put in a table has a constant
/// power-of-two alignment (0 or another value reads as "any": not the one).
/// A table of another version is read no further than its first version:
/// its first address and descriptor, which the hook reports as such.
static size_t first_failing(const alignguard_site *sites, uint64_t count,
                            const uint64_t *addresses) {
  if (!sites || sites->version != ALIGNGUARD_SITE_VERSION)
    return 0;
  if (count > 4)
    count = 4;
  for (size_t i = 0; i + 1 < count; ++i) {
    uint64_t alignment = sites[i].alignment;
    uint64_t offset = sites[i].offset;
    if (alignment != 0 && (alignment & (alignment - 1)) == 0 &&
        ((addresses[i] - offset) & (alignment - 1)) != 0)
      return i;
  }
  return count ? (size_t)count - 1 : 0;
}

typedef void (*one_check_hook)(const alignguard_site *, uint64_t, uint64_t,
                               int64_t);

/// A table hook: the one-check hook, for the first that fails.
static void report_first(one_check_hook hook, uint64_t address0,
                         uint64_t address1, uint64_t address2,
                         uint64_t address3, const alignguard_site *sites,
                         uint64_t count) {
  const uint64_t addresses[4] = {address0, address1, address2, address3};
  size_t i = first_failing(sites, count, addresses);
  if (!sites || sites->version != ALIGNGUARD_SITE_VERSION) {
    hook(sites, addresses[0], 0, 0); /* reported as a version mismatch */
    return;
  }
  hook(&sites[i], addresses[i], sites[i].alignment, (int64_t)sites[i].offset);
}

AG_API void __alignguard_report_first(uint64_t address0, uint64_t address1,
                                      uint64_t address2, uint64_t address3,
                                      const alignguard_site *sites,
                                      uint64_t count) {
  report_first(__alignguard_report, address0, address1, address2, address3,
               sites, count);
}

AG_API void
__alignguard_report_first_abort(uint64_t address0, uint64_t address1,
                                uint64_t address2, uint64_t address3,
                                const alignguard_site *sites, uint64_t count) {
  report_first(__alignguard_report_abort, address0, address1, address2,
               address3, sites, count);
  abort(); /* not reached: the hook aborts */
}

AG_API void __alignguard_fallback_first(uint64_t address0, uint64_t address1,
                                        uint64_t address2, uint64_t address3,
                                        const alignguard_site *sites,
                                        uint64_t count) {
  report_first(__alignguard_fallback, address0, address1, address2, address3,
               sites, count);
}

/// The pair is stored as two atomics: a report racing with a change may call
/// the old handler with the new user pointer, never the new handler with the
/// old one. Install handlers before starting threads to avoid even that.
AG_API alignguard_handler alignguard_set_handler(alignguard_handler fn,
                                                 void *user) {
  atomic_store_explicit(&g_state.handler_user, user, memory_order_relaxed);
  return atomic_exchange_explicit(&g_state.handler, fn, memory_order_release);
}

AG_API uint64_t alignguard_violation_count(void) {
  return atomic_load_explicit(&g_state.violations, memory_order_relaxed);
}

AG_API uint64_t alignguard_fallback_count(void) {
  return atomic_load_explicit(&g_state.fallbacks, memory_order_relaxed);
}

AG_API const char *alignguard_last_error(void) {
  if (t_state.pending) {
    alignguard_format_report(t_state.line, sizeof t_state.line, t_state.site,
                             t_state.pointer, t_state.alignment,
                             t_state.offset);
    t_state.pending = 0;
  }
  return t_state.line;
}

AG_API void alignguard_clear_last_error(void) {
  t_state.pending = 0;
  t_state.line[0] = '\0';
}
