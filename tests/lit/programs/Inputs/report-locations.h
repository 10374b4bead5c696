// The helper of report-locations.c: the alignment promise is written here,
// away from the kernel that relies on it.
static inline float *as_aligned64(float *p) {
  return (float *)__builtin_assume_aligned(p, 64);
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
