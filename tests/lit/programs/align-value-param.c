// A parameter declared `float *__attribute__((align_value(64)))`: clang
// turns it into an "align" assume at the top of the function, which the
// pass checks. Aligned and misaligned (p + 1 element) runs at -O0 and -O2.
// RUN: %clang-ag -O0 -g %s %rt -o %t.O0
// RUN: %clang-ag -O2 -g %s %rt -o %t.O2
// RUN: %t.O0 0 | FileCheck %s --check-prefix=OK
// RUN: %t.O2 0 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.O0 1 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: not --crash %t.O2 1 2>&1 | FileCheck %s --check-prefix=MIS
#include <stdio.h>
#include <stdlib.h>

typedef float *__attribute__((align_value(64))) aligned_floats;

// MIS: alignguard: saxpy: argument #1 'y' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary) at {{.*}}align-value-param.c:[[@LINE+1]]
void saxpy(float a, aligned_floats y, const float *x, int n) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  float *y = aligned_alloc(64, 4096);
  float *x = aligned_alloc(64, 4096);
  for (int i = 0; i < 512; ++i) {
    y[i] = (float)i;
    x[i] = 2.0f;
  }
  saxpy(3.0f, y + offset, x, 256);
  // OK: y[10] = 16
  printf("y[10] = %.0f\n", y[10 + offset]);
  // MIS-NOT: y[10]
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
