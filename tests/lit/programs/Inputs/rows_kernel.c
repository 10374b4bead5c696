// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shape of bench/kernels/stencil_rows.c: __builtin_assume_aligned on
// each row pointer, inside the row loop. The kernel adds into out, so a
// call that stored before falling back (and so ran twice) gives different
// numbers. Built with -DREF it is the plain reference, ref_rows_blur.
#include <stddef.h>

#ifdef REF
#define rows_blur ref_rows_blur
#define ASSUME(p) (p)
#else
#define ASSUME(p) __builtin_assume_aligned((p), 32)
#endif

void rows_blur(float *out, size_t ostride, const float *in, size_t istride,
               size_t w, size_t h) {
  for (size_t y = 0; y < h; ++y) {
    float *o = ASSUME(out + y * ostride);
    const float *r0 = ASSUME(in + y * istride);
    const float *r1 = ASSUME(in + (y + 1) * istride);
    for (size_t x = 0; x < w; ++x)
      o[x] += r0[x] + 2.0f * r0[x + 1] + r1[x] + 2.0f * r1[x + 1];
  }
}
