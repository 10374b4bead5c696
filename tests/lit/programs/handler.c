// A host takes over reporting with alignguard_set_handler: it sees the
// site, the pointer and the formatted line, and here turns the violation
// into its own error and exit code instead of the default abort.
// RUN: %clang-ag -O2 -g %s %rt -o %t
// RUN: %t 0 | FileCheck %s --check-prefix=OK
// RUN: not %t 1 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: env ALIGNGUARD_OPTIONS=log_path=%t.log not --crash %t 2 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=LOG < %t.log
#include <alignguard/alignguard.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fill(float *p, int n) {
  float *P = __builtin_assume_aligned(p, 16);
  for (int i = 0; i < n; ++i)
    P[i] = 1.0f;
}

static void host_error(const alignguard_report_info *info, void *user) {
  printf("%s: kernel %s rejected %s (alignment %llu, off by %llu)\n",
         (const char *)user, info->site->function, info->site->subject,
         (unsigned long long)info->alignment,
         (unsigned long long)info->misalignment);
  printf("actual alignment %llu, promised at %s:%u:%u\n",
         (unsigned long long)info->actual_alignment,
         info->site->promise_file ? info->site->promise_file : "(unknown)",
         info->site->promise_line, info->site->promise_column);
  printf("line: %s\n", info->message);
  exit(7);
}

int main(int argc, char **argv) {
  int mode = atoi(argv[1]);
  if (mode != 2) // mode 2: default reporting, to a log file
    alignguard_set_handler(host_error, "myruntime");
  float *buf = aligned_alloc(64, 4096);
  fill(buf + (mode ? 1 : 0), 100);
  // OK: filled
  puts("filled");
  return 0;
}
// MIS: myruntime: kernel fill rejected argument #0 'p' (alignment 16, off by 4)
// MIS-NEXT: actual alignment 4, promised at {{.*}}handler.c:15:14
// MIS-NEXT: line: alignguard: fill: argument #0 'p' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 16-byte aligned (4 bytes past a boundary) at {{.*}}handler.c:15:14{{$}}
// MIS-NOT: filled
// QUIET-NOT: alignguard:
// LOG: alignguard: fill: argument #0 'p' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 16-byte aligned (4 bytes past a boundary)
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
