/*===- alignguard/alignguard.h - AlignGuard runtime C ABI -----------------===*
 *
 * The runtime that code instrumented by the `align-guard` pass calls when an
 * alignment promise is broken. It depends on nothing but libc: no malloc, no
 * stdio, no locks. Every entry point is thread-safe, and async-signal-safe
 * once the first report has read ALIGNGUARD_OPTIONS (that one call uses
 * getenv, which POSIX does not list as async-signal-safe).
 *
 *   cc kernel.c -fpass-plugin=AlignGuard.so -Ipath/to/runtime/include \
 *      path/to/libalignguard_rt.a
 *
 * The pass emits one constant `alignguard_site` descriptor per check and calls
 *   __alignguard_report_abort(&site, pointer, alignment, offset)  (abort)
 *   __alignguard_report(&site, pointer, alignment, offset)        (recover)
 * The descriptor layout below is part of the ABI: the pass builds the same
 * struct in IR (plugin/RuntimeABI.h), and ALIGNGUARD_SITE_VERSION changes
 * whenever it does.
 *===----------------------------------------------------------------------===*/
#ifndef ALIGNGUARD_ALIGNGUARD_H
#define ALIGNGUARD_ALIGNGUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ALIGNGUARD_SITE_VERSION 1u

/* What made the alignment promise. */
enum alignguard_kind {
  ALIGNGUARD_KIND_ASSUME_BUNDLE = 0, /* llvm.assume [ "align"(p, A[, off]) ] */
  ALIGNGUARD_KIND_ASSUME_ICMP = 1,   /* llvm.assume((ptrtoint p & M) == 0)  */
  ALIGNGUARD_KIND_PARAM_ATTR = 2,    /* `align A` on an entry's parameter   */
  ALIGNGUARD_KIND_RETURN_ATTR = 3,   /* `align A` on a returned pointer     */
  ALIGNGUARD_KIND_ACCESS = 4         /* an over-aligned load/store/memcpy   */
};

/* One per check, emitted by the pass as a private constant. */
typedef struct alignguard_site {
  uint32_t version;   /* ALIGNGUARD_SITE_VERSION */
  uint32_t kind;      /* enum alignguard_kind */
  const char *function; /* the function that holds the check */
  const char *subject;  /* e.g. "argument #1 'b'" */
  const char *file;     /* NULL without debug info */
  uint32_t line;        /* 0 without debug info */
  uint32_t column;      /* 0 when unknown */
  uint64_t alignment;   /* the promised alignment; 0 when only known at run
                           time (the hook receives the actual value) */
  uint64_t offset;      /* the promise is about `pointer - offset` */
} alignguard_site;

/* What a report says, handed to a user handler. `message` is the formatted
 * line (no trailing newline) and lives only for the duration of the call. */
typedef struct alignguard_report_info {
  const alignguard_site *site;
  uintptr_t pointer;  /* the value that broke the promise */
  uint64_t alignment; /* the alignment in force at run time */
  int64_t offset;     /* `pointer - offset` had to be aligned */
  uint64_t misalignment; /* (pointer - offset) % alignment; 0 when the
                            alignment is not a power of two (then the
                            promise was that the pointer is null) */
  const char *message;
  int fatal; /* 1 when the process aborts after the handler returns */
} alignguard_report_info;

typedef void (*alignguard_handler)(const alignguard_report_info *info,
                                   void *user);

/* Hooks called by instrumented code. */
void __alignguard_report(const alignguard_site *site, uint64_t pointer,
                         uint64_t alignment, int64_t offset);
void __alignguard_report_abort(const alignguard_site *site, uint64_t pointer,
                               uint64_t alignment, int64_t offset)
    __attribute__((noreturn));

/* Installs `fn` (NULL restores the default: write the line to the log).
 * The handler runs instead of the default output, once per reported
 * violation; for a fatal report the process aborts when it returns. It may
 * longjmp or throw instead of returning when the kernel allows unwinding.
 * Returns the previous handler. */
alignguard_handler alignguard_set_handler(alignguard_handler fn, void *user);

/* Violations seen since start (all of them, reported or deduplicated). */
uint64_t alignguard_violation_count(void);

/* Formats the report line for these hook arguments into buf (always
 * NUL-terminated when size > 0); returns the length the full line needs,
 * like snprintf. Uses no locale, no malloc. */
size_t alignguard_format_report(char *buf, size_t size,
                                const alignguard_site *site, uint64_t pointer,
                                uint64_t alignment, int64_t offset);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ALIGNGUARD_ALIGNGUARD_H */
