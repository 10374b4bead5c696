// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// An AVX kernel and its caller in one file, the shape of tests, examples
// and header-only code: at -O2 the inliner puts scale() into main(), after
// it has put _mm256_load_ps / _mm256_store_ps (always-inline wrappers) into
// scale(). `same_file OFFSET` runs it on both arrays OFFSET floats past a
// 32-byte boundary and prints out[3] (2 * (OFFSET + 3)).
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

void scale(float *out, const float *in, float s, int n) {
  __m256 vs = _mm256_set1_ps(s);
  for (int i = 0; i < n; i += 8)
    _mm256_store_ps(out + i, _mm256_mul_ps(_mm256_load_ps(in + i), vs));
}

int main(int argc, char **argv) {
  int off = argc > 1 ? atoi(argv[1]) : 0;
  float *in = aligned_alloc(32, 4096), *out = aligned_alloc(32, 4096);
  for (int i = 0; i < 1024; ++i)
    in[i] = (float)i;
  scale(out + off, in + off, 2.0f, 64);
  printf("out[3] = %g\n", out[off + 3]);
  return 0;
}
