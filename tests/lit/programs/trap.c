// align-guard<trap>: no runtime library at all (freestanding or GPU code):
// a misaligned call executes a trap instruction (SIGILL on x86-64).
// RUN: env ALIGNGUARD_PIPELINE='align-guard<trap>' %clang-ag -O2 %s -o %t
// RUN: %t 0 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t 1 2>&1 | FileCheck %s --check-prefix=MIS --allow-empty
// RUN: nm %t | FileCheck %s --check-prefix=SYMS
// SYMS-NOT: __alignguard
#include <stdio.h>
#include <stdlib.h>

double sum(const double *p, int n) {
  const double *P = __builtin_assume_aligned(p, 32);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += P[i];
  return s;
}

int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  double *buf = aligned_alloc(64, 1024 * sizeof(double));
  for (int i = 0; i < 1024; ++i)
    buf[i] = i;
  // OK: sum = 4950
  // MIS-NOT: sum =
  printf("sum = %.0f\n", sum(buf + offset, 100));
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
