// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Third-party compile-time benchmark (issue 13, item 5): xsimd (Debian's
// libxsimd-dev). Aligned batch loads and stores (xsimd::aligned_mode) over
// buffers the caller promises 64-byte aligned, as in xsimd's own examples.
#include <cstddef>
#include <xsimd/xsimd.hpp>

using bf = xsimd::batch<float>;
using bd = xsimd::batch<double>;

extern "C" void xs_mean(float *out, const float *a, const float *b, std::size_t n) {
  float *O = static_cast<float *>(__builtin_assume_aligned(out, 64));
  const float *A = static_cast<const float *>(__builtin_assume_aligned(a, 64));
  const float *B = static_cast<const float *>(__builtin_assume_aligned(b, 64));
  std::size_t vec = n - n % bf::size, i = 0;
  for (; i < vec; i += bf::size) {
    bf x = bf::load_aligned(A + i), y = bf::load_aligned(B + i);
    ((x + y) * 0.5f).store_aligned(O + i);
  }
  for (; i < n; ++i)
    O[i] = (A[i] + B[i]) * 0.5f;
}

extern "C" double xs_dot(const double *x, const double *y, std::size_t n) {
  const double *X = static_cast<const double *>(__builtin_assume_aligned(x, 64));
  const double *Y = static_cast<const double *>(__builtin_assume_aligned(y, 64));
  std::size_t vec = n - n % bd::size, i = 0;
  bd acc(0.0);
  for (; i < vec; i += bd::size)
    acc = xsimd::fma(bd::load_aligned(X + i), bd::load_aligned(Y + i), acc);
  double s = xsimd::hadd(acc);
  for (; i < n; ++i)
    s += X[i] * Y[i];
  return s;
}

extern "C" void xs_softplus(float *out, const float *in, std::size_t n) {
  float *O = static_cast<float *>(__builtin_assume_aligned(out, 64));
  const float *I = static_cast<const float *>(__builtin_assume_aligned(in, 64));
  std::size_t vec = n - n % bf::size, i = 0;
  for (; i < vec; i += bf::size)
    xsimd::log1p(xsimd::exp(bf::load_aligned(I + i))).store_aligned(O + i);
  for (; i < n; ++i)
    O[i] = __builtin_log1pf(__builtin_expf(I[i]));
}
