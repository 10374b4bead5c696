// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// saxpy: y = a*x + y, the BLAS level-1 update.
//
// The promise is made the way a library with its own aligned allocator
// declares its buffers: clang's align_value on the parameter types, which
// becomes `align 64` on the IR parameters. AlignGuard checks it at entry
// (saxpy is an exported entry point); clang's -fsanitize=alignment checks
// it too (an alignment-assumption check at entry), besides the 4-byte
// alignment of every float access.
#include <stddef.h>

typedef float *__attribute__((align_value(64))) f32_a64;
typedef const float *__attribute__((align_value(64))) cf32_a64;

void saxpy(float a, cf32_a64 restrict x, f32_a64 restrict y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
