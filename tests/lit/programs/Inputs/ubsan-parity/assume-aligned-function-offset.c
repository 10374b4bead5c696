// From compiler-rt's ubsan
// align-assume-attribute-assume_aligned-on-function-two-params:
// `assume_aligned(N, 1)`: the result minus 1 is aligned. `p + 2` minus 1 is
// one byte past a boundary.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 1 1
#include "parity.h"

char *__attribute__((assume_aligned(0x8000, 1))) hand_back(char *q) {
  return q;
}

int main(void) {
  char *p = parity_base();
  for (int round = 0; round < 2; ++round)
    hand_back(p + 2);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
