// From compiler-rt's ubsan
// align-assume-builtin_assume_aligned-three-params-variable: as
// builtin-three-params.c, with the offset read from a volatile variable, so
// that it is a run-time value at every -O level.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 1 1
#include "parity.h"

volatile long skew;

int main(void) {
  char *p = parity_base();
  skew = 1;
  for (int round = 0; round < 2; ++round)
    __builtin_assume_aligned(p + 2, 0x8000, skew);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
