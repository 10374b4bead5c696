// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The other k.c: one unchecked promise, one the code checks itself.
#include <stdint.h>
void add(float *__attribute__((align_value(32))) a, const float *b, int n) {
  for (int i = 0; i < n; ++i)
    a[i] += b[i];
}
int checked(float *p) {
  if ((uintptr_t)p % 16)
    return -1;
  float *P = __builtin_assume_aligned(p, 16);
  P[0] = 0;
  return 0;
}
