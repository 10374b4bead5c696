// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The sample's kernel: it promises that both buffers are 64-byte aligned.
void k_scale(float *restrict out, const float *restrict in, int n) {
  float *O = __builtin_assume_aligned(out, 64);
  const float *I = __builtin_assume_aligned(in, 64);
  for (int i = 0; i < n; ++i)
    O[i] = 2.0f * I[i];
}
