/*===- state.h - AlignGuard runtime: the process's state (internal) -------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Everything the runtime remembers (counts, the handler, the options, the
 * sites already reported, each thread's last error) lives in two exported
 * objects that alignguard_state.c defines and alignguard_rt.c only declares:
 *
 *   __alignguard_state_v1          the process-wide state
 *   __alignguard_thread_state_v1   each thread's last error (_Thread_local)
 *
 * Each shared library that links the runtime has its own copy of both. As
 * they are defined in another file, the hooks and the API reach them
 * through the GOT (or, for the thread-local, __tls_get_addr), so the
 * dynamic linker binds every copy's code to the first definition in that
 * library's lookup scope: exactly where its kernels' calls of the hooks
 * (default visibility, through the PLT) land. Libraries that share the
 * global scope (linked as DT_NEEDED, or dlopen'ed RTLD_GLOBAL) therefore
 * share one state, the first copy's, and one loaded RTLD_LOCAL uses its own;
 * and a host that calls the runtime through a library's own handle
 * (dlsym(handle, ...), Python's ctypes.CDLL(...).alignguard_last_error)
 * always sees the state that library's kernels report to, whichever copy
 * that is (docs/shared-libraries.md). The suffix is the layout's version: a
 * change to these structs changes the names, so copies of different
 * layouts never share.
 *
 * Not installed: the public headers are in include/alignguard/.
 *===----------------------------------------------------------------------===*/
#ifndef ALIGNGUARD_RUNTIME_STATE_H
#define ALIGNGUARD_RUNTIME_STATE_H

#include "alignguard/alignguard.h"

#include "format.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/// Distinct sites remembered for deduplication (as in ubsan_minimal), per
/// table.
#define AG_SITE_SLOTS 256

/// Sites already reported. Slots only ever go from NULL to a site, never
/// back. Violations and fallbacks have one table each, so a site's first
/// fallback is reported even after its violation was (and the other way).
typedef struct {
  _Atomic(const alignguard_site *) slots[AG_SITE_SLOTS];
  atomic_flag null_seen; /* the NULL site, which has no slot */
  atomic_flag full_said; /* the "too many distinct sites" line went out */
} ag_site_table;

typedef struct {
  _Atomic uint64_t violations;
  _Atomic uint64_t fallbacks;
  _Atomic(alignguard_handler) handler;
  _Atomic(void *) handler_user;

  /* Options. options_ready is set (release) after the values below. */
  _Atomic int options_ready;
  _Atomic int log_fd; /* -1 until the options are parsed */
  _Atomic int quiet;
  _Atomic int report_fallback;
  /// Concurrent first reports may all parse; only the one that takes this
  /// flag prints diagnostics, so a bad option is complained about once.
  atomic_flag options_diag_taken;
  /// The log_path that log_fd was opened from, for the line that says why
  /// the runtime gives the log up. Every parse that opens a log writes it,
  /// byte by byte (the same bytes: they all read one environment), then
  /// stores (release) the length, and only then offers its descriptor for
  /// log_fd; so whoever sees a log descriptor sees its name.
  _Atomic char log_path[PATH_MAX];
  _Atomic size_t log_path_len;

  ag_site_table violation_sites;
  ag_site_table fallback_sites;
} ag_state;

/// This thread's last violation or fallback, and its report line, formatted
/// on first demand (a kernel that falls back on every call should not pay
/// for a message nobody reads); "" before the first. No allocation.
typedef struct {
  const alignguard_site *site;
  uint64_t pointer, alignment;
  int64_t offset;
  int pending; /* recorded, not formatted yet */
  char line[AG_LINE_MAX];
} ag_thread_state;

extern ag_state __alignguard_state_v1;
extern _Thread_local ag_thread_state __alignguard_thread_state_v1;

#endif /* ALIGNGUARD_RUNTIME_STATE_H */
