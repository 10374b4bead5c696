// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Third-party compile-time benchmark (issue 13, item 5): Google Highway
// (Debian's libhwy-dev), static dispatch for the compile's target. Vector
// loops over caller buffers with aligned loads and stores (hn::Load/Store
// require vector-aligned pointers; the caller promises 64 bytes with
// __builtin_assume_aligned), a multiply-add, a dot product and a clamp.
#include <cstddef>
#include <hwy/highway.h>

namespace hn = hwy::HWY_NAMESPACE;

extern "C" void hwy_muladd(float *out, const float *a, const float *b, float s,
                           std::size_t n) {
  float *O = static_cast<float *>(__builtin_assume_aligned(out, 64));
  const float *A = static_cast<const float *>(__builtin_assume_aligned(a, 64));
  const float *B = static_cast<const float *>(__builtin_assume_aligned(b, 64));
  const hn::ScalableTag<float> d;
  const auto vs = hn::Set(d, s);
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N)
    hn::Store(hn::MulAdd(hn::Load(d, A + i), vs, hn::Load(d, B + i)), d, O + i);
  for (; i < n; ++i)
    O[i] = A[i] * s + B[i];
}

extern "C" double hwy_dot(const double *x, const double *y, std::size_t n) {
  const double *X = static_cast<const double *>(__builtin_assume_aligned(x, 64));
  const double *Y = static_cast<const double *>(__builtin_assume_aligned(y, 64));
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d);
  auto sum0 = hn::Zero(d), sum1 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    sum0 = hn::MulAdd(hn::Load(d, X + i), hn::Load(d, Y + i), sum0);
    sum1 = hn::MulAdd(hn::Load(d, X + i + N), hn::Load(d, Y + i + N), sum1);
  }
  double s = hn::GetLane(hn::SumOfLanes(d, hn::Add(sum0, sum1)));
  for (; i < n; ++i)
    s += X[i] * Y[i];
  return s;
}

extern "C" void hwy_clamp(float *out, const float *in, float lo, float hi,
                          std::size_t n) {
  float *O = static_cast<float *>(__builtin_assume_aligned(out, 64));
  const float *I = static_cast<const float *>(__builtin_assume_aligned(in, 64));
  const hn::ScalableTag<float> d;
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N)
    hn::Store(hn::Min(hn::Max(hn::Load(d, I + i), vlo), vhi), d, O + i);
  for (; i < n; ++i)
    O[i] = I[i] < lo ? lo : (I[i] > hi ? hi : I[i]);
}

extern "C" void hwy_int_sat_add(int16_t *out, const int16_t *a, const int16_t *b,
                                std::size_t n) {
  int16_t *O = static_cast<int16_t *>(__builtin_assume_aligned(out, 64));
  const int16_t *A = static_cast<const int16_t *>(__builtin_assume_aligned(a, 64));
  const int16_t *B = static_cast<const int16_t *>(__builtin_assume_aligned(b, 64));
  const hn::ScalableTag<int16_t> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N)
    hn::Store(hn::SaturatedAdd(hn::Load(d, A + i), hn::Load(d, B + i)), d, O + i);
  for (; i < n; ++i) {
    int v = A[i] + B[i];
    O[i] = (int16_t)(v > 32767 ? 32767 : (v < -32768 ? -32768 : v));
  }
}
