// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One of two translation units named k.c (a/ and b/): their per-TU audits
// must not overwrite each other.
void scale(float *v, float k, int n) {
  float *V = __builtin_assume_aligned(v, 64);
  for (int i = 0; i < n; ++i)
    V[i] *= k;
}
