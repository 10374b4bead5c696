// Not from compiler-rt: the control for "nothing where UBSan reports
// nothing". Every form of the other programs (the builtin with and without
// an offset, align_value on a parameter and a field, alloc_align with a
// constant and a variable, assume_aligned with and without an offset, the
// OpenMP aligned clause) gets a pointer that keeps its promise: neither
// tool may report anything, and the abort builds must exit 0.
// PARITY-LANGS: c c++
// PARITY-FLAGS: -fopenmp-simd
// PARITY-EXPECT: none
#include "parity.h"

typedef char *__attribute__((align_value(0x8000))) page_ptr;

struct holder {
  page_ptr page;
};

char *read_holder(struct holder *h) { return h->page; }

char *by_param(__attribute__((align_value(0x8000))) char *q) { return q; }

char *__attribute__((alloc_align(2))) by_alloc(char *q, unsigned long align) {
  (void)align;
  return q;
}

char *__attribute__((assume_aligned(0x8000))) by_assume(char *q) { return q; }

char *__attribute__((assume_aligned(0x8000, 1))) by_assume_offset(char *q) {
  return q;
}

unsigned long wanted;
volatile long skew;

int main(void) {
  char *p = parity_base();
  struct holder h;
  h.page = p;
  wanted = 0x8000;
  skew = 1;
  for (int round = 0; round < 2; ++round) {
    __builtin_assume_aligned(p, 0x8000);
    __builtin_assume_aligned(p + 1, 0x8000, 1);
    __builtin_assume_aligned(p + 1, 0x8000, skew);
    read_holder(&h);
    by_param(p);
    by_alloc(p, 0x8000);
    by_alloc(p, wanted);
    by_assume(p);
    by_assume_offset(p + 1);
#pragma omp for simd aligned(p : 0x8000)
    for (int x = 0; x < 1; x++)
      p[x] = p[x];
  }
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
