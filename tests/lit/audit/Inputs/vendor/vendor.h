// A vendored header for system-headers.cpp: `system-prefix=` names its
// directory, so its promise counts as a system header's.
static inline float vendor_first(const float *p) {
  const float *a = (const float *)__builtin_assume_aligned(p, 32);
  return a[0];
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
