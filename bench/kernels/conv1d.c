// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// conv1d: an 8-tap FIR filter, out[i] = sum_k w[k] * in[i + k].
//
// The tap count is a compile-time constant, as in most FIR filters, so the
// tap loop is unrolled and the loop over i is vectorised. `in` holds
// n + CONV_TAPS - 1 samples. __builtin_assume_aligned(32) on both signals:
// the store and some of the loads are aligned. No restrict: with it, LLVM
// 14 carries the loaded samples from one iteration to the next in scalar
// registers and no longer vectorises the loop; without it, a run-time
// overlap test picks the vector loop.
#include <stddef.h>

#define CONV_TAPS 8

void conv1d(float *out, const float *in, const float *w, size_t n) {
  float *O = __builtin_assume_aligned(out, 32);
  const float *I = __builtin_assume_aligned(in, 32);
  for (size_t i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int k = 0; k < CONV_TAPS; ++k)
      s += w[k] * I[i + k];
    O[i] = s;
  }
}
