// The C kernel a Rust program calls in rust-host.test: y = a * x + y over
// buffers it promises are 32-byte aligned (so it can use aligned vector
// loads). A Rust Vec<f32> is only 4-byte aligned, and a slice at an odd
// element offset breaks the promise.
#include <stddef.h>

void saxpy(float a, const float *x, float *y, size_t n) {
  const float *X = __builtin_assume_aligned(x, 32);
  float *Y = __builtin_assume_aligned(y, 32);
  for (size_t i = 0; i < n; ++i)
    Y[i] = a * X[i] + Y[i];
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
