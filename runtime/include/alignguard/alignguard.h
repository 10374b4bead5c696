/*===- alignguard/alignguard.h - AlignGuard runtime C ABI -----------------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * The runtime that code instrumented by the `align-guard` pass calls when an
 * alignment promise is broken. It depends on nothing but libc: no malloc, no
 * stdio, no locks. Every entry point is thread-safe, and async-signal-safe
 * once the first report has read ALIGNGUARD_OPTIONS (that one call uses
 * getenv, which POSIX does not list as async-signal-safe), with one more
 * exception: the per-thread last error (alignguard_last_error) is a
 * _Thread_local buffer, and when the runtime is linked into a shared library
 * that is dlopen'ed, the first use of a thread-local on each thread may make
 * the C library allocate (__tls_get_addr), so a thread's first report from a
 * signal handler is not async-signal-safe there. Linked into an executable,
 * or a library loaded at startup, it allocates nothing.
 *
 *   cc kernel.c -fpass-plugin=AlignGuard.so -Ipath/to/runtime/include \
 *      path/to/libalignguard_rt.a
 *
 * (the archive after the objects, or -Lpath/to -lalignguard_rt anywhere:
 * libalignguard_rt.so beside the archive is a linker script that pulls it
 * in). A shared library with instrumented code links its own copy and
 * exports it; the copies in one process share one state per lookup scope,
 * and a library's own functions always reach the state its kernels report
 * to (docs/shared-libraries.md).
 *
 * The pass emits one constant descriptor per check and calls
 *   __alignguard_report_abort(&site, pointer, alignment, offset)  (abort)
 *   __alignguard_report(&site, pointer, alignment, offset)        (recover,
 *                                                                  return=N)
 *   __alignguard_fallback(&site, pointer, alignment, offset)      (fallback)
 * and, for a place that tests 2 to 4 pointers under abort, return=N or
 * fallback, one table of their descriptors and one call that finds the
 * failing pointer itself (__alignguard_report_first and its kin, below).
 * A descriptor holds no pointer (alignguard_site): it is one block of bytes
 * that needs no relocation. Its layout is part of the ABI: the pass builds
 * the same bytes in IR (plugin/transform/RuntimeABI.h), and
 * ALIGNGUARD_SITE_VERSION changes whenever it does. DLPack helpers for host
 * runtimes are in <alignguard/dlpack.h>.
 *===----------------------------------------------------------------------===*/
#ifndef ALIGNGUARD_ALIGNGUARD_H
#define ALIGNGUARD_ALIGNGUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of alignguard_site, its first field. A hook given a descriptor
 * of another version reads nothing else of it and reports the mismatch.
 * (3, not 1: the development builds before this layout wrote versions 1
 * and 2, whose descriptors are then reported as a mismatch, not misread.) */
#define ALIGNGUARD_SITE_VERSION 3u

/* What made the alignment promise. */
enum alignguard_kind {
  ALIGNGUARD_KIND_ASSUME_BUNDLE = 0, /* llvm.assume [ "align"(p, A[, off]) ] */
  ALIGNGUARD_KIND_ASSUME_ICMP = 1,   /* llvm.assume((ptrtoint p & M) == 0)  */
  ALIGNGUARD_KIND_PARAM_ATTR = 2,    /* `align A` on an entry's parameter   */
  ALIGNGUARD_KIND_RETURN_ATTR = 3,   /* `align A` on a returned pointer     */
  ALIGNGUARD_KIND_ACCESS = 4,        /* an over-aligned load/store/memcpy   */
  ALIGNGUARD_KIND_LOAD_METADATA = 5  /* `!align` on a loaded pointer       */
};

/* A site descriptor: one per check, a private constant of the instrumented
 * program. A descriptor is 56 bytes, its 64-bit fields 8-byte aligned, and
 * its NUL-terminated strings follow it in the same constant block, each
 * named by its byte offset from the descriptor (0: none); so the block
 * holds no pointer and needs no relocation. A place that calls a table hook
 * has one block: its `count` descriptors, one after the other, then their
 * strings (each once). Read one through alignguard_report_info's view. */
typedef struct alignguard_site {
  uint32_t version;  /* ALIGNGUARD_SITE_VERSION */
  uint32_t kind;     /* enum alignguard_kind */
  uint32_t function; /* the function that holds the check */
  uint32_t subject;  /* e.g. "argument #1 'b'" */
  uint32_t file;     /* 0 without debug info */
  uint32_t line;     /* 0 without debug info */
  uint32_t column;   /* 0 when unknown */
  /* Where the promise was written, when debug info says (-g or
     -gline-tables-only): the function of an `align` parameter, the callee
     of a returned pointer's promise, an assume's own place (for an inlined
     helper, the line in the helper; `file`/`line` are then the call in
     `function` that holds the check). 0 when unknown. */
  uint32_t promise_file;
  uint64_t alignment;      /* the promised alignment; 0 when only known at run
                              time (the hook receives the actual value) */
  uint64_t offset;         /* the promise is about `pointer - offset` */
  uint32_t promise_line;   /* 0 when unknown */
  uint32_t promise_column; /* 0 when unknown */
} alignguard_site;

/* A descriptor as a handler reads it: its fields, its strings as pointers
 * (NULL for none). It lives only for the duration of the handler's call. */
typedef struct alignguard_site_view {
  /* The descriptor the hook was called with: the same address at every
     report of the site, so a handler keys a site on it. NULL when the hook
     was called without one (then every field below is NULL or 0). */
  const alignguard_site *descriptor;
  /* The descriptor's version; when it is not ALIGNGUARD_SITE_VERSION,
     nothing else of it was read (every field below is NULL or 0). */
  uint32_t version;
  uint32_t kind; /* enum alignguard_kind */
  const char *function;
  const char *subject;
  const char *file; /* NULL without debug info */
  uint32_t line;
  uint32_t column;
  uint64_t alignment; /* the promised alignment (0: known at run time) */
  uint64_t offset;
  const char *promise_file; /* NULL when unknown */
  uint32_t promise_line;
  uint32_t promise_column;
} alignguard_site_view;

/* What a report says, handed to a user handler. `site` and `message` (the
 * line the default output would write, no trailing newline) live only for
 * the duration of the call. */
typedef struct alignguard_report_info {
  const alignguard_site_view *site; /* never NULL */
  uintptr_t pointer;                /* the value that broke the promise */
  uint64_t alignment;               /* the alignment in force at run time */
  int64_t offset;                   /* `pointer - offset` had to be aligned */
  uint64_t misalignment; /* (pointer - offset) % alignment; 0 when the
                            alignment is not a power of two (then the
                            promise was that the pointer is null) */
  const char *message;
  int fatal;    /* 1 when the process aborts after the handler returns */
  int fallback; /* 1 for __alignguard_fallback (never fatal): `message` ends
                   in "; running the unaligned fallback"; 0 for violations */
  uint64_t actual_alignment; /* the largest power of two dividing
                                `pointer - offset`, at most `alignment`
                                (less than it for every violation); when
                                the alignment is not a power of two, the
                                largest dividing `pointer` */
} alignguard_report_info;

typedef void (*alignguard_handler)(const alignguard_report_info *info,
                                   void *user);

/* Hooks called by instrumented code. */

/* A violation: counted, recorded as this thread's last error, reported the
 * first time at each site (later ones are only counted and recorded). */
void __alignguard_report(const alignguard_site *site, uint64_t pointer,
                         uint64_t alignment, int64_t offset);
/* A violation: counted, recorded, always reported, then abort(). */
void __alignguard_report_abort(const alignguard_site *site, uint64_t pointer,
                               uint64_t alignment, int64_t offset)
    __attribute__((noreturn));
/* In `align-guard<fallback>` mode, a misaligned input is about to make the
 * kernel run its assumption-free copy. Not a violation (the answer will be
 * right, only slower): alignguard_violation_count() is unchanged. Counted in
 * alignguard_fallback_count() and recorded as this thread's last error (the
 * plain report line). Silent unless ALIGNGUARD_OPTIONS has report_fallback=1;
 * then the first fallback at each site (a table of its own, separate from
 * the violations') is reported through log_path/quiet/the handler as
 *   <report line>; running the unaligned fallback
 * with info->fatal = 0 and info->fallback = 1. */
void __alignguard_fallback(const alignguard_site *site, uint64_t pointer,
                           uint64_t alignment, int64_t offset);

/* One call for a place that tests 2 to 4 pointers under abort, return=N or
 * fallback (the pass emits these where every pointer's alignment is a
 * constant power of two with a constant offset): address0..address3 are the
 * pointers, in the order the place tests them (0 past `count`), and `sites`
 * is the first of `count` consecutive descriptors, one per pointer.
 * Each reports the first pointer whose `address - offset` is not a multiple
 * of its descriptor's `alignment` (the last one when none is) exactly as the
 * single-pointer hook would, with its descriptor, alignment and offset:
 * instrumented code then needs no code to find the failing pointer. The
 * pointers come first so that a kernel's own pointer arguments are passed on
 * in the registers they arrived in. A table whose first descriptor has
 * another version is reported with that descriptor and address0. */
void __alignguard_report_first(uint64_t address0, uint64_t address1,
                               uint64_t address2, uint64_t address3,
                               const alignguard_site *sites, uint64_t count);
void __alignguard_report_first_abort(uint64_t address0, uint64_t address1,
                                     uint64_t address2, uint64_t address3,
                                     const alignguard_site *sites,
                                     uint64_t count) __attribute__((noreturn));
void __alignguard_fallback_first(uint64_t address0, uint64_t address1,
                                 uint64_t address2, uint64_t address3,
                                 const alignguard_site *sites, uint64_t count);

/* Installs `fn` (NULL restores the default: write the line to the log).
 * The handler runs instead of the default output, once per reported
 * violation or fallback (quiet=1 does not silence it); for a fatal report
 * the process aborts when it returns. It may longjmp or throw instead of
 * returning when the kernel allows unwinding. Returns the previous handler. */
alignguard_handler alignguard_set_handler(alignguard_handler fn, void *user);

/* Violations seen since start (all of them, reported or deduplicated). */
uint64_t alignguard_violation_count(void);

/* Times __alignguard_fallback ran since start, all threads and sites. */
uint64_t alignguard_fallback_count(void);

/* The line alignguard_format_report gives for the last violation or fallback
 * on the calling thread (no newline, at most 1023 characters, cut like a
 * printed line), whether or not it was printed, deduplicated or handled;
 * "" when this thread has had none since it started or last cleared it. A
 * fallback's last error is the plain line, without the suffix. The pointer
 * is to this thread's own buffer: the text changes with the thread's next
 * report and dies with the thread. A handler already sees the report that
 * called it here. For hosts that return an error code and build their own
 * message (TVM's TVMGetLastError style). */
const char *alignguard_last_error(void);

/* Makes alignguard_last_error() return "" on this thread. */
void alignguard_clear_last_error(void);

/* Formats the report line for these hook arguments into buf (always
 * NUL-terminated when size > 0); returns the length the full line needs,
 * like snprintf. The site's function, subject and files come from the IR:
 * their control bytes (below 0x20, and 0x7f) are written as \xNN, as the
 * audit table writes them, so the line never holds a newline or an escape
 * sequence. Uses no locale, no malloc. The line (docs/runtime.md):
 *   alignguard: <function>: <subject> = 0x<address>[ - <offset>] is
 *   <actual>-byte aligned, not <A>-byte aligned (<k> bytes past a boundary)
 *   [ at <file>:<line>[:<col>]][, promised at <file>:<line>[:<col>]]
 * (one line; the promise's place only when the site has one that differs
 * from where the check is), or for an alignment that is not a power of two
 *   ... = 0x<address> is not null, as the alignment <A> (not a power of
 *   two) requires[ at ...][, promised at ...]
 * or, for a descriptor of another version (nothing else of it is read),
 *   alignguard: report from a site descriptor of version <V>, not 3
 *   (pointer 0x<address>)
 */
size_t alignguard_format_report(char *buf, size_t size,
                                const alignguard_site *site, uint64_t pointer,
                                uint64_t alignment, int64_t offset);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ALIGNGUARD_ALIGNGUARD_H */
