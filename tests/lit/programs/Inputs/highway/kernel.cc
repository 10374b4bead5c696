// Highway 1.0 kernels with static dispatch (built with -march=x86-64-v2, so
// HWY_STATIC_TARGET is SSSE3 or SSE4: 4 floats a vector), for
// tests/lit/programs/highway-accesses.test. They use Highway's aligned
// hn::Load and hn::Store, which require `aligned` to be aligned to the
// vector (16 bytes) and end in _mm_load_ps / _mm_store_ps: after -O2 the
// loop holds `load <4 x float>, ..., align 16` through the arguments, and
// nothing in the IR states the promise otherwise. align-guard<accesses>
// checks those accesses, once before the loop.
#include <hwy/highway.h>

#include <stddef.h>

namespace hn = hwy::HWY_NAMESPACE;

// out[i] = a * x[i] + y[i]; the tail (n not a multiple of the lanes) in
// scalar code.
extern "C" void hwy_muladd(float *HWY_RESTRICT out, const float *HWY_RESTRICT x,
                           const float *HWY_RESTRICT y, float a, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto va = hn::Set(d, a);
  size_t i = 0;
  for (; i + N <= n; i += N)
    hn::Store(hn::MulAdd(va, hn::Load(d, x + i), hn::Load(d, y + i)), d, out + i);
  for (; i < n; ++i)
    out[i] = a * x[i] + y[i];
}

// The sum of x[i] * y[i], two accumulators of whole vectors; n a multiple
// of twice the lanes.
extern "C" float hwy_dot(const float *HWY_RESTRICT x, const float *HWY_RESTRICT y,
                         size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  auto s0 = hn::Zero(d), s1 = hn::Zero(d);
  for (size_t i = 0; i < n; i += 2 * N) {
    s0 = hn::MulAdd(hn::Load(d, x + i), hn::Load(d, y + i), s0);
    s1 = hn::MulAdd(hn::Load(d, x + i + N), hn::Load(d, y + i + N), s1);
  }
  return hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1)));
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
