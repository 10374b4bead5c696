// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A host of instrumented shared libraries (shared-libraries.test): which
// copy of the runtime takes a kernel's report, and what a host sees through
// each library's handle.
//
//   host VIA KERNEL MODE:LIB...
//
// Opens each LIB in turn: MODE local or global is dlopen with RTLD_NOW and
// RTLD_LOCAL or RTLD_GLOBAL; needed is a library the program was linked
// with (DT_NEEDED), whose handle dlopen(RTLD_NOLOAD) returns. Then sets a
// handler through the runtime that VIA names: a LIB's file name (the
// library's own alignguard_set_handler, dlsym(handle, ...)), `program` (the
// program's own copy, when built with -DHOST_RUNTIME and the runtime), or
// `none`. Calls KERNEL(v + 1, 8), v 64-byte aligned, found through the last
// LIB, and prints each runtime's violation count and last error, the
// program's first.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <alignguard/alignguard.h>

typedef alignguard_handler (*set_handler_fn)(alignguard_handler, void *);
typedef uint64_t (*count_fn)(void);
typedef const char *(*last_error_fn)(void);
typedef void (*kernel_fn)(float *, int);

static void on_report(const alignguard_report_info *info, void *via) {
  printf("handler set via %s: %s\n", (const char *)via, info->message);
}

static void *symbol(void *handle, const char *name) {
  void *s = dlsym(handle, name);
  if (!s) {
    printf("dlsym %s: %s\n", name, dlerror());
    exit(1);
  }
  return s;
}

static void show(const char *name, count_fn count, last_error_fn last) {
  printf("%s: violations %llu, last error: %s\n", name,
         (unsigned long long)count(), last());
}

int main(int argc, char **argv) {
  if (argc < 4 || argc - 3 > 16) {
    fprintf(stderr, "usage: host VIA KERNEL MODE:LIB... (1 to 16 LIBs)\n");
    return 2;
  }
  const char *via = argv[1];
  int n = argc - 3;
  void *handles[16];
  const char *names[16];
  for (int i = 0; i < n; ++i) {
    char *arg = argv[i + 3];
    char *colon = strchr(arg, ':');
    if (!colon) {
      fprintf(stderr, "host: %s is not MODE:LIB\n", arg);
      return 2;
    }
    *colon = '\0';
    const char *path = colon + 1;
    int mode = RTLD_NOW;
    if (strcmp(arg, "global") == 0)
      mode |= RTLD_GLOBAL;
    else if (strcmp(arg, "needed") == 0)
      mode |= RTLD_NOLOAD;
    else
      mode |= RTLD_LOCAL;
    handles[i] = dlopen(path, mode);
    if (!handles[i]) {
      printf("dlopen: %s\n", dlerror());
      return 1;
    }
    const char *slash = strrchr(path, '/');
    names[i] = slash ? slash + 1 : path;
  }

#ifdef HOST_RUNTIME
  if (strcmp(via, "program") == 0)
    alignguard_set_handler(on_report, (void *)"program");
#endif
  for (int i = 0; i < n; ++i)
    if (strcmp(via, names[i]) == 0)
      ((set_handler_fn)symbol(handles[i], "alignguard_set_handler"))(
          on_report, (void *)names[i]);

  static float v[64] __attribute__((aligned(64)));
  ((kernel_fn)symbol(handles[n - 1], argv[2]))(v + 1, 8);
  fflush(stdout);

#ifdef HOST_RUNTIME
  show("program", alignguard_violation_count, alignguard_last_error);
#endif
  for (int i = 0; i < n; ++i)
    show(names[i], (count_fn)symbol(handles[i], "alignguard_violation_count"),
         (last_error_fn)symbol(handles[i], "alignguard_last_error"));
  return 0;
}
