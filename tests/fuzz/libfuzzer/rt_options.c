/*===- tests/fuzz/libfuzzer/rt_options.c - Fuzz ALIGNGUARD_OPTIONS ---------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * libFuzzer target for the runtime's ALIGNGUARD_OPTIONS parser
 * (parse_options in runtime/alignguard_rt.c, static there, so this file
 * compiles the runtime's sources into itself). The input is the variable's
 * value, up to its first NUL byte. Each run starts from the state a process
 * starts with, parses, and checks the result against a model written here
 * from the documented syntax (`key=value:key=value`, the last log_path
 * wins, quiet and report_fallback take 0 or 1, anything else is ignored).
 * The log is never opened: open() is this file's stand-in, which checks the
 * path it gets and then "opens" it (a descriptor of /dev/null) or fails,
 * as the path's first byte says. The diagnostics go to stderr as always
 * (run with -close_fd_mask=2 to hide them).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fuzz_open(const char *path, int flags, ...);
#define open fuzz_open
#include "alignguard_rt.c"
#undef open
#include "alignguard_state.c"

static int dev_null = -1;
/* stderr as it was before libFuzzer's -close_fd_mask=2 closed it. */
static FILE *report;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  dev_null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  report = fdopen(fcntl(2, F_DUPFD_CLOEXEC, 3), "w");
  return 0;
}

static void fail(const char *why, const char *options) {
  fprintf(report ? report : stderr,
          "rt_options fuzzer: %s; ALIGNGUARD_OPTIONS='%s'\n", why, options);
  abort();
}

/* Paths starting with an even byte open, others fail with EACCES, and the
   empty one with ENOENT. */
static int fuzz_open(const char *path, int flags, ...) {
  size_t n = strlen(path);
  if (n >= PATH_MAX)
    fail("open() got an overlong path", path);
  if (n == 0) {
    errno = ENOENT;
    return -1;
  }
  if (!(flags & O_APPEND) || !(flags & O_CLOEXEC))
    fail("the log is not opened O_APPEND | O_CLOEXEC", path);
  if ((unsigned char)path[0] % 2) {
    errno = EACCES;
    return -1;
  }
  return fcntl(dev_null, F_DUPFD_CLOEXEC, 3);
}

/* The documented meaning of the options, written without the parser's
   code: the last log_path= (its value), quiet and report_fallback. */
typedef struct {
  const char *path;
  size_t path_len;
  int quiet, report_fallback;
} model;

static model expected(const char *s) {
  model m = {NULL, 0, 0, 0};
  while (*s) {
    size_t field = strcspn(s, ":");
    size_t key = strcspn(s, "=:");
    const char *value = s + key + (key < field);
    size_t value_len = field - (size_t)(value - s);
    int bit = value_len == 1 && (*value == '0' || *value == '1');
    if (key == 8 && !strncmp(s, "log_path", 8)) {
      m.path = value;
      m.path_len = value_len;
    } else if (key == 5 && !strncmp(s, "quiet", 5) && bit) {
      m.quiet = *value == '1';
    } else if (key == 15 && !strncmp(s, "report_fallback", 15) && bit) {
      m.report_fallback = *value == '1';
    }
    s += field + (s[field] == ':');
  }
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *options = malloc(size + 1);
  memcpy(options, data, size);
  options[size] = '\0';
  setenv("ALIGNGUARD_OPTIONS", options, 1);

  /* A fresh process's state (alignguard_state.c). */
  memset(&g_state, 0, sizeof g_state);
  atomic_store(&g_state.log_fd, -1);
  atomic_flag_clear(&g_state.options_diag_taken);
  parse_options();

  model m = expected(options);
  int opens = m.path && m.path_len > 0 &&
              !equals(m.path, m.path_len, "stderr") && m.path_len < PATH_MAX &&
              (unsigned char)m.path[0] % 2 == 0;
  int fd = atomic_load(&g_state.log_fd);
  size_t len = atomic_load(&g_state.log_path_len);
  if (!atomic_load(&g_state.options_ready))
    fail("options not ready after the parse", options);
  if (atomic_load(&g_state.quiet) != m.quiet ||
      atomic_load(&g_state.report_fallback) != m.report_fallback)
    fail("quiet or report_fallback differs from the documented meaning",
         options);
  if (opens != (fd != 2))
    fail("the log is not what log_path says", options);
  if (opens && (len != m.path_len || memcmp(g_state.log_path, m.path, len)))
    fail("the log's name is not log_path's value", options);
  if (!opens && len != 0)
    fail("a log name without a log", options);
  if (fd != 2)
    close(fd);
  free(options);
  return 0;
}
