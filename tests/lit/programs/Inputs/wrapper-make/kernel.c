// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The make project's kernel: it promises 32-byte alignment of v.
void scale(float *v, float k, int n) {
  float *V = (float *)__builtin_assume_aligned(v, 32);
  for (int i = 0; i < n; ++i)
    V[i] *= k;
}
