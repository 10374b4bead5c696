// Highway 1.0 (static dispatch): the documented HWY_ASSUME_ALIGNED idiom
// before an aligned hn::Load / hn::Store.
#include <hwy/highway.h>

namespace hn = hwy::HWY_NAMESPACE;

extern "C" void hwy_add(float *HWY_RESTRICT out, const float *HWY_RESTRICT in,
                        size_t n) {
  float *HWY_RESTRICT o = static_cast<float *>(HWY_ASSUME_ALIGNED(out, 64));
  const float *HWY_RESTRICT i =
      static_cast<const float *>(HWY_ASSUME_ALIGNED(in, 64));
  const hn::ScalableTag<float> d;
  for (size_t x = 0; x < n; x += hn::Lanes(d))
    hn::Store(hn::Add(hn::Load(d, i + x), hn::Load(d, o + x)), d, o + x);
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
