// AVX kernels on aligned intrinsics, for
// tests/lit/programs/intrinsics-build.test: _mm256_load_ps and
// _mm256_store_ps require 32-byte aligned addresses. At clang's pipeline
// start they are calls to always-inline wrappers in <immintrin.h>; their
// `load <8 x float>, align 32` reaches the kernels only when the inliner
// has run. Built with -mavx2 -mfma.
#include <immintrin.h>
#include <stddef.h>

// out[i] = a * x[i] + y[i]; the tail (n not a multiple of 8) in scalar
// code.
void avx_muladd(float *out, const float *x, const float *y, float a, size_t n) {
  const __m256 va = _mm256_set1_ps(a);
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_store_ps(out + i, _mm256_fmadd_ps(va, _mm256_load_ps(x + i),
                                             _mm256_load_ps(y + i)));
  for (; i < n; ++i)
    out[i] = a * x[i] + y[i];
}

// The sum of x[i] * y[i]; n a multiple of 8.
float avx_dot(const float *x, const float *y, size_t n) {
  __m256 s = _mm256_setzero_ps();
  for (size_t i = 0; i < n; i += 8)
    s = _mm256_fmadd_ps(_mm256_load_ps(x + i), _mm256_load_ps(y + i), s);
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_movehdup_ps(h));
  return _mm_cvtss_f32(h);
}

// out[i] = a * x[i], n a multiple of 8. x carries its own promise, an
// assume that pipeline start already checks: the loads through x are
// covered by that check (its guarded assume) and get none of their own;
// the stores through out get one.
void avx_scale(float *out, const float *x, float a, size_t n) {
  const float *ax = __builtin_assume_aligned(x, 32);
  const __m256 va = _mm256_set1_ps(a);
  for (size_t i = 0; i < n; i += 8)
    _mm256_store_ps(out + i, _mm256_mul_ps(va, _mm256_load_ps(ax + i)));
}

#ifdef __AVX512F__
// The same with AVX-512's 64-byte vectors (compiled, not run).
void avx512_muladd(float *out, const float *x, const float *y, float a,
                   size_t n) {
  const __m512 va = _mm512_set1_ps(a);
  for (size_t i = 0; i < n; i += 16)
    _mm512_store_ps(out + i, _mm512_fmadd_ps(va, _mm512_load_ps(x + i),
                                             _mm512_load_ps(y + i)));
}
#endif
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
