// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls k_scale on a view OFFSET floats into a 64-byte aligned buffer:
//   ./k 0   aligned: prints the sum
//   ./k 1   misaligned: the kernel's AlignGuard action (report and go on,
//           abort, trap) decides what follows
#include <stdio.h>
#include <stdlib.h>

#define N 1024

void k_scale(float *restrict out, const float *restrict in, int n);

int main(int argc, char **argv) {
  int offset = argc > 1 ? atoi(argv[1]) : 0;
  float *in = aligned_alloc(64, (N + 16) * sizeof(float));
  float *out = aligned_alloc(64, N * sizeof(float));
  for (int i = 0; i < N + 16; ++i)
    in[i] = 1.0f;
  k_scale(out, in + offset, N);
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += out[i];
  printf("k_scale(in + %d): sum = %.1f\n", offset, sum);
  free(in);
  free(out);
  return 0;
}
