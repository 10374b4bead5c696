// From compiler-rt's ubsan align-assume-builtin_assume_aligned-two-params:
// the two-argument builtin on a pointer one byte past a 32 KiB boundary.
// The promise is an `"align"` assume bundle.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

int main(void) {
  char *p = parity_base();
  for (int round = 0; round < 2; ++round)
    __builtin_assume_aligned(p + 1, 0x8000);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
