// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gemm: C = A * B for n x n row-major float matrices, i-k-j order (the inner
// loop streams a row of B into a row of C, and is vectorised).
//
// The promise is one __builtin_assume_aligned per base pointer. The leading
// dimension is passed in units of 16 floats (ld16 * 16 == n), so the compiler
// can prove from that single promise that every row is 64-byte aligned, as
// TVM's offset_factor or Halide's stride constraints let their code
// generators do. The check is therefore made once per call, not per row.
// C must not overlap A or B (as in BLAS): restrict says so, so the
// vectorised loop needs no run-time overlap test. (Without it, LLVM 14 tests
// the difference of the row addresses for every row, which sends some rows
// to the scalar loop depending on where the allocator put the matrices: the
// instruction counts would depend on the heap's layout.)
#include <stddef.h>

void gemm(float *restrict c, const float *restrict a, const float *restrict b,
          size_t ld16) {
  float *C = __builtin_assume_aligned(c, 64);
  const float *A = __builtin_assume_aligned(a, 64);
  const float *B = __builtin_assume_aligned(b, 64);
  size_t n = ld16 * 16;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j)
      C[i * n + j] = 0.0f;
    for (size_t k = 0; k < n; ++k) {
      float aik = A[i * n + k];
      for (size_t j = 0; j < n; ++j)
        C[i * n + j] += aik * B[k * n + j];
    }
  }
}
