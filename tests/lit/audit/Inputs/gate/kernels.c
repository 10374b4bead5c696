// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The gate project, version 1: two kernels whose promises nothing checks.
void scale(float *v, float k, int n) {
  float *V = __builtin_assume_aligned(v, 64);
  for (int i = 0; i < n; ++i)
    V[i] *= k;
}

void add(float *__attribute__((align_value(32))) a, const float *b, int n) {
  for (int i = 0; i < n; ++i)
    a[i] += b[i];
}
