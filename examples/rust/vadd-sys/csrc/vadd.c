// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernel of vadd-sys: out[i] = a[i] + b[i]. It promises the optimiser
// 32-byte aligned buffers (so that it may use aligned vector loads), as a
// kernel generator does; AlignGuard turns the promises into checks.
#include <stddef.h>

void vadd(float *restrict out, const float *a, const float *b, size_t n) {
  float *o = __builtin_assume_aligned(out, 32);
  const float *x = __builtin_assume_aligned(a, 32);
  const float *y = __builtin_assume_aligned(b, 32);
  for (size_t i = 0; i < n; ++i)
    o[i] = x[i] + y[i];
}
