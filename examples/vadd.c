// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The AlignGuard demo kernel: vadd promises the optimiser that its three
// buffers are 64-byte aligned, and the vectoriser uses aligned loads and
// stores. Built with -fpass-plugin=AlignGuard.so, the promise is checked on
// entry: a misaligned view (`buffer + 1`) is rejected with a report instead
// of a crash or wrong numbers far from the cause.
//
//   clang -O2 -g -fpass-plugin=build-14/AlignGuard.so examples/vadd.c \
//         build-14/runtime/libalignguard_rt.a -o vadd
//   ./vadd 0      # aligned: prints the result
//   ./vadd 1      # one float past a 64-byte boundary: report, abort
#include <stdio.h>
#include <stdlib.h>

#define N 4096

void vadd(float *restrict out, const float *restrict a,
          const float *restrict b, int n) {
  float *O = __builtin_assume_aligned(out, 64);
  const float *A = __builtin_assume_aligned(a, 64);
  const float *B = __builtin_assume_aligned(b, 64);
  for (int i = 0; i < n; ++i)
    O[i] = A[i] + B[i];
}

int main(int argc, char **argv) {
  int offset = argc > 1 ? atoi(argv[1]) : 0;
  float *a = aligned_alloc(64, (N + 16) * sizeof(float));
  float *b = aligned_alloc(64, N * sizeof(float));
  float *out = aligned_alloc(64, N * sizeof(float));
  for (int i = 0; i < N + 16; ++i)
    a[i] = (float)i;
  for (int i = 0; i < N; ++i)
    b[i] = 0.5f;
  // A view into a larger array, as a caller slicing a tensor would pass.
  vadd(out, a + offset, b, N);
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += out[i];
  printf("vadd(a + %d): sum = %.1f\n", offset, sum);
  return 0;
}
