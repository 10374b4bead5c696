// __builtin_assume_aligned in a C kernel, built with clang -fpass-plugin at
// -O0 and -O2: aligned input gives the right numbers; `p + 1` stops with the
// report (function, subject, address, alignment, distance, location) and
// abort().
// RUN: %clang-ag -O0 -g %s %rt -o %t.O0
// RUN: %clang-ag -O2 -g %s %rt -o %t.O2
// RUN: %t.O0 0 | FileCheck %s --check-prefix=OK
// RUN: %t.O2 0 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.O0 1 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: not --crash %t.O2 1 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: not --crash %t.O2 3 2>&1 | FileCheck %s --check-prefix=MIS3
#include <stdio.h>
#include <stdlib.h>

#define N 1024

float dot(const float *a, const float *b, int n) {
  // MIS: alignguard: dot: argument #0 'a' = 0x{{[0-9a-f]+}}4 is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary) at {{.*}}assume-aligned-abort.c:[[@LINE+2]]:{{[0-9]+}}
  // MIS3: alignguard: dot: argument #0 'a' = 0x{{[0-9a-f]+}}c is 4-byte aligned, not 64-byte aligned (12 bytes past a boundary) at {{.*}}assume-aligned-abort.c
  const float *A = __builtin_assume_aligned(a, 64);
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += A[i] * b[i];
  return s;
}

int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  float *buf = aligned_alloc(64, (N + 64) * sizeof(float));
  float *ones = aligned_alloc(64, N * sizeof(float));
  for (int i = 0; i < N + 64; ++i)
    buf[i] = (float)(i % 7);
  for (int i = 0; i < N; ++i)
    ones[i] = 1.0f;
  // OK: dot = 3067
  printf("dot = %.0f\n", dot(buf + offset, ones, N));
  // MIS-NOT: dot =
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
