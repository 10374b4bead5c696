// From compiler-rt's ubsan align-assume-builtin_assume_aligned-three-params:
// the builtin with a constant offset. `p + 2` minus the offset 1 is one byte
// past a 32 KiB boundary, so the promise fails with misalignment 1.
// PARITY-LANGS: c c++
// PARITY-EXPECT: 32768 1 1
#include "parity.h"

int main(void) {
  char *p = parity_base();
  for (int round = 0; round < 2; ++round)
    __builtin_assume_aligned(p + 2, 0x8000, 1);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
