// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernel of liba.so (shared-libraries.test, docs/shared-libraries.md):
// it promises 32-byte aligned data.
void scale_a(float *v, int n) {
  float *V = __builtin_assume_aligned(v, 32);
  for (int i = 0; i < n; ++i)
    V[i] *= 2.0f;
}
