// From compiler-rt's ubsan
// align-assume-attribute-alloc_align-on-function-variable: as
// alloc-align-constant.c, with the alignment in a global variable, so that
// clang writes an assume with a run-time alignment after the call.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

char *__attribute__((alloc_align(2))) hand_back(char *q, unsigned long align) {
  (void)align;
  return q;
}

unsigned long wanted;

int main(void) {
  char *p = parity_base();
  wanted = 0x8000;
  for (int round = 0; round < 2; ++round)
    hand_back(p + 1, wanted);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
