// From compiler-rt's ubsan align-assume-attribute-alloc_align-on-function:
// `alloc_align(2)` says the result is aligned to the second argument; with a
// constant argument clang states it as a return attribute on the call
// (`call align 32768 ptr @hand_back`).
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

char *__attribute__((alloc_align(2))) hand_back(char *q, unsigned long align) {
  (void)align;
  return q;
}

int main(void) {
  char *p = parity_base();
  for (int round = 0; round < 2; ++round)
    hand_back(p + 1, 0x8000);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
