// gemm: C = A * B for n x n row-major float matrices, i-k-j order (the inner
// loop streams a row of B into a row of C, and is vectorised).
//
// The promise is one __builtin_assume_aligned per base pointer. The leading
// dimension is passed in units of 16 floats (ld16 * 16 == n), so the compiler
// can prove from that single promise that every row is 64-byte aligned, as
// TVM's offset_factor or Halide's stride constraints let their code
// generators do. The check is therefore made once per call, not per row.
#include <stddef.h>

void gemm(float *c, const float *a, const float *b, size_t ld16) {
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
