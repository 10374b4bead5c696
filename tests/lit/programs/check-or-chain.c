// The check of k pointers with one alignment is the limit on x86-64: one
// copy of the first address, k-1 `or`s into it, one `test`, one branch.
// gemm (bench/kernels/gemm.c) keeps all three pointers live after the
// check, under register pressure from its loop nest: when the emitter wrote
// `or acc, next`, x86's selector copied the third address into a scratch
// register to OR the running value into it (`mov; or; mov; or; test`), one
// instruction more per call than `mov; or; or; test`. Spills of the
// arguments (`movq %reg, (%rsp)`) may sit between the `or`s; a 32-bit
// register copy may not.
// REQUIRES: x86_64
// RUN: %clang-ag -O3 -S -o %t.s %s
// RUN: FileCheck %s < %t.s
// CHECK-LABEL: gemm:
// CHECK:         orl
// CHECK-NOT:     {{movl[[:space:]]+%[a-z0-9]+, %[a-z0-9]+$}}
// CHECK:         orl
// CHECK-NOT:     {{movl[[:space:]]+%[a-z0-9]+, %[a-z0-9]+$}}
// CHECK:         testb $63,
// CHECK-NEXT:    jne

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

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
