// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// dot: sum of a[i] * b[i] in double precision.
//
// The promise is __builtin_assume_aligned on the base pointers, as in code
// that gets its buffers from posix_memalign / aligned_alloc.
//
// A floating-point sum is only vectorised when it may be reassociated; real
// code says so with -ffast-math or, as here, for this function only. The
// benchmark feeds small integer values, so every summation order gives the
// same, exact result and the variants can be compared bit for bit.
#include <stddef.h>

double dot(const double *a, const double *b, size_t n) {
#pragma clang fp reassociate(on)
  const double *A = __builtin_assume_aligned(a, 64);
  const double *B = __builtin_assume_aligned(b, 64);
  double s = 0;
  for (size_t i = 0; i < n; ++i)
    s += A[i] * B[i];
  return s;
}
