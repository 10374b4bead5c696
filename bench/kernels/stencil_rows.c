// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// stencil3x3_rows: the blur of stencil.c, written with the other common
// idiom for a run-time stride: __builtin_assume_aligned on each row
// pointer, inside the row loop. Its promises are made once per row (four
// per row), on addresses affine in y, so AlignGuard checks them before the
// row loop: each row pointer's first row, and its second when the loop
// runs twice (the stride is read at run time). Every check precedes every
// store, so align-guard<fallback> reruns the call in the unaligned copy on
// a misaligned image, as it does for stencil3x3.
#include <stddef.h>

void stencil3x3_rows(float *out, size_t ostride, const float *in,
                     size_t istride, size_t w, size_t h) {
  for (size_t y = 0; y < h; ++y) {
    float *o = __builtin_assume_aligned(out + y * ostride, 32);
    const float *r0 = __builtin_assume_aligned(in + y * istride, 32);
    const float *r1 = __builtin_assume_aligned(in + (y + 1) * istride, 32);
    const float *r2 = __builtin_assume_aligned(in + (y + 2) * istride, 32);
    for (size_t x = 0; x < w; ++x)
      o[x] = (r0[x] + 2.0f * r0[x + 1] + r0[x + 2]) +
             2.0f * (r1[x] + 2.0f * r1[x + 1] + r1[x + 2]) +
             (r2[x] + 2.0f * r2[x + 1] + r2[x + 2]);
  }
}
