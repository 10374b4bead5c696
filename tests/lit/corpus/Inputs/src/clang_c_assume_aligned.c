/* Alignment promises as C programmers write them (clang-14). */
#include <stddef.h>
#include <stdint.h>

/* __builtin_assume_aligned: an "align" bundle on the returned pointer. */
void scale64(float *p, float s, int n) {
  float *a = __builtin_assume_aligned(p, 64);
  for (int i = 0; i < n; ++i)
    a[i] *= s;
}

/* Offset form: (p - 16) is 64-aligned. */
float sum_off(const float *p) {
  const float *a = __builtin_assume_aligned(p, 64, 16);
  return a[0] + a[1] + a[2] + a[3];
}

/* align_value on a parameter: clang marks the parameter `align 64`. */
void vadd(float *__attribute__((align_value(64))) dst,
          const float *__attribute__((align_value(32))) src, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] += src[i];
}

/* The older idiom: a mask test under __builtin_assume (the legacy form). */
void zero_rows(double *m, int n) {
  __builtin_assume(((uintptr_t)m & 31) == 0);
  for (int i = 0; i < n; ++i)
    m[i] = 0.0;
}

/* assume_aligned on a return: the call's result is `align 64`, a promise
 * about a return value, which is not one of the forms AlignGuard checks. */
__attribute__((assume_aligned(64))) float *pool_slot(float *base, size_t i);

float first_of_slot(float *base, size_t i) {
  float *s = pool_slot(base, i);
  return s[0];
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
