// From compiler-rt's ubsan align-assume-attribute-align_value-on-paramvar:
// `align_value` on a parameter promises the callee that the argument is
// aligned; the call passes a pointer one byte past a boundary.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

char *hand_back(__attribute__((align_value(0x8000))) char *q) { return q; }

int main(void) {
  char *p = parity_base();
  for (int round = 0; round < 2; ++round)
    hand_back(p + 1);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
