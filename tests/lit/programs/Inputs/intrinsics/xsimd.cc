// xsimd kernels (Debian's libxsimd-dev 8), for
// tests/lit/programs/xsimd-build.test. Built with -march=x86-64-v2, so
// xsimd's default architecture is SSE4.2: 4 floats a batch.
// xsimd::load_aligned and store_aligned require addresses aligned to the
// batch (16 bytes); at clang's pipeline start they are calls into xsimd's
// inline functions, and their `align 16` accesses reach the kernels only
// when the inliner has run.
#include <xsimd/xsimd.hpp>

#include <stddef.h>

using batch = xsimd::batch<float>;

// out[i] = a * x[i] + y[i]; the tail (n not a multiple of the batch) in
// scalar code.
extern "C" void xs_muladd(float *out, const float *x, const float *y, float a,
                          size_t n) {
  constexpr size_t N = batch::size;
  const batch va(a);
  size_t i = 0;
  for (; i + N <= n; i += N)
    xsimd::fma(va, xsimd::load_aligned(x + i), xsimd::load_aligned(y + i))
        .store_aligned(out + i);
  for (; i < n; ++i)
    out[i] = a * x[i] + y[i];
}

// The sum of x[i] * y[i], two accumulators; n a multiple of two batches.
extern "C" float xs_dot(const float *x, const float *y, size_t n) {
  constexpr size_t N = batch::size;
  batch s0(0.0f), s1(0.0f);
  for (size_t i = 0; i < n; i += 2 * N) {
    s0 = xsimd::fma(xsimd::load_aligned(x + i), xsimd::load_aligned(y + i), s0);
    s1 = xsimd::fma(xsimd::load_aligned(x + i + N),
                    xsimd::load_aligned(y + i + N), s1);
  }
  return xsimd::hadd(s0 + s1);
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
