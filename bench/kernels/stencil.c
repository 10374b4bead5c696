// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// stencil3x3: a 3x3 weighted blur (1 2 1 / 2 4 2 / 1 2 1) of a w x h image.
//
// `in` is padded: h + 2 rows of w + 8 floats, and output pixel (x, y) reads
// in[y .. y+2][x .. x+2]. Rows are padded to a multiple of 8 floats, so every
// row of both images starts on a 32-byte boundary; the width is passed in
// units of 8 floats (w8 * 8 == w), so the compiler can prove that from the
// one promise per image at entry (__builtin_assume_aligned). The store and
// the loads of column x are aligned; columns x+1 and x+2 cannot be. See
// stencil_rows.c for the same blur with a promise per row. No restrict: with
// it, LLVM 14 carries r[x+1] and r[x+2] to the next iteration in scalar
// registers and no longer vectorises the loop; without it, a run-time
// overlap test picks the vector loop.
#include <stddef.h>

void stencil3x3(float *out, const float *in, size_t w8, size_t h) {
  float *O = __builtin_assume_aligned(out, 32);
  const float *I = __builtin_assume_aligned(in, 32);
  size_t w = w8 * 8, is = w + 8;
  for (size_t y = 0; y < h; ++y) {
    float *o = O + y * w;
    const float *r0 = I + y * is, *r1 = r0 + is, *r2 = r1 + is;
    for (size_t x = 0; x < w; ++x)
      o[x] = (r0[x] + 2.0f * r0[x + 1] + r0[x + 2]) +
             2.0f * (r1[x] + 2.0f * r1[x + 1] + r1[x + 2]) +
             (r2[x] + 2.0f * r2[x + 1] + r2[x + 2]);
  }
}
