// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernel examples/jit-host/jit_host.cpp JIT-compiles, as a TVM- or
// Halide-style generator would emit it: it promises the optimiser 64-byte
// aligned buffers and returns an int status (0: done), so `return=N` can
// turn a broken promise into an error code the host reads.
//
//   clang -O2 -Xclang -disable-llvm-passes -g -S -emit-llvm kernel.c -o k.ll
int vadd(float *restrict out, const float *restrict a, const float *restrict b,
         int n) {
  float *O = __builtin_assume_aligned(out, 64);
  const float *A = __builtin_assume_aligned(a, 64);
  const float *B = __builtin_assume_aligned(b, 64);
  for (int i = 0; i < n; ++i)
    O[i] = A[i] + B[i];
  return 0;
}
