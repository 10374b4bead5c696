// From compiler-rt's ubsan align-assume-attribute-assume_aligned-on-function:
// `assume_aligned(N)` on a function promises its callers an aligned result;
// clang states it as a return attribute on the call.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

char *__attribute__((assume_aligned(0x8000))) hand_back(char *q) { return q; }

int main(void) {
  char *p = parity_base();
  for (int round = 0; round < 2; ++round)
    hand_back(p + 1);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
