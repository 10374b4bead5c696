// Kernels for fallback-bit-identical.test, compiled twice: instrumented with
// align-guard<fallback> (names as written), and as the plain reference with
// -DREF, which renames them ref_* and drops every alignment promise (so the
// reference is correct on any input). Each promises 32- or 64-byte
// alignment in a different way: __builtin_assume_aligned, align_value
// parameters, and a 2-D stencil whose rows are aligned.
#include <stddef.h>

#ifdef REF
#define K(name) ref_##name
#define ASSUME_ALIGNED(p, n) (p)
typedef float *af32;
#else
#define K(name) name
#define ASSUME_ALIGNED(p, n) __builtin_assume_aligned(p, n)
typedef float *__attribute__((align_value(32))) af32;
#endif

void K(saxpy)(float a, af32 x, af32 y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// Integer-valued doubles: the sum is exact in any order.
double K(dot)(const double *a, const double *b, size_t n) {
  const double *A = ASSUME_ALIGNED(a, 64);
  const double *B = ASSUME_ALIGNED(b, 64);
  double s = 0;
  for (size_t i = 0; i < n; ++i)
    s += A[i] * B[i];
  return s;
}

// out = 3x3 box sum of in; rows of `stride` floats, each row 32-aligned.
void K(blur3x3)(float *out, const float *in, size_t w, size_t h,
                size_t stride) {
  float *O = ASSUME_ALIGNED(out, 32);
  const float *I = ASSUME_ALIGNED(in, 32);
  for (size_t y = 1; y + 1 < h; ++y)
    for (size_t x = 1; x + 1 < w; ++x) {
      float s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          s += I[(y + dy) * stride + x + dx];
      O[y * stride + x] = s;
    }
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
