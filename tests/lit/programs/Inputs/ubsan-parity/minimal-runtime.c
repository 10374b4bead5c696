// From compiler-rt's ubsan_minimal alignment-assumption.c: UBSan's minimal
// runtime (-fsanitize-minimal-runtime) prints `ubsan: alignment-assumption`
// without the alignment, so the driver compares the number of reports with
// it and the alignment, offset and misalignment with this file's
// expectation. The minimal runtime tells sites apart by the caller's
// address, not by source location, so a statement that an unrolled loop
// copies would be reported once per copy: as in the original, the promise is
// made once.
// PARITY-LANGS: c
// PARITY-UBSAN: minimal
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

int main(void) {
  char *p = parity_base();
  void *t = __builtin_assume_aligned(p + 1, 0x8000);
  (void)t;
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
