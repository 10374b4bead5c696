// stencil3x3: a 3x3 weighted blur (1 2 1 / 2 4 2 / 1 2 1) of a w x h image.
//
// `in` is padded: (h + 2) rows of `istride` floats, the pixel (x, y) of the
// output reads in[y .. y+2][x .. x+2]. Every row of both images starts on a
// 32-byte boundary, and the code says so per row with
// __builtin_assume_aligned, the common idiom when the stride is a run-time
// value: the promise, and so AlignGuard's check, is made once per row.
// The store and the loads of column x are aligned; columns x+1 and x+2 are
// not, whatever the promise.
#include <stddef.h>

void stencil3x3(float *out, size_t ostride, const float *in, size_t istride,
                size_t w, size_t h) {
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
