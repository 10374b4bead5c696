// From compiler-rt's ubsan align-assume-ignorelist: C++ only, and UBSan
// built with -fno-sanitize-recover=alignment as there. Without the
// ignorelist both tools report the promise in main; with ignorelist.txt
// (`[alignment]` / `fun:main`, given to clang as -fsanitize-ignorelist and
// to AlignGuard as `ignorelist=`) both are silent.
// PARITY-LANGS: c++
// PARITY-UBSAN-FLAGS: -fno-sanitize-recover=alignment
// PARITY-IGNORELIST: ignorelist.txt
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

int main(void) {
  char *p = parity_base();
  __builtin_assume_aligned(p + 1, 0x8000);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
