// The README's `opt ... align-guard<recover>` on `clang -O2` output: the
// optimiser has already vectorised the loop with `align 32` loads and
// stores from the promise. After the report the kernel continues with the
// misaligned pointer, so those accesses fall to natural alignment (they
// would fault, movaps on a 4-byte-aligned address) and the numbers are
// right; aligned calls report nothing.
// RUN: %clang -O2 -S -emit-llvm %s -o %t.ll
// RUN: grep -q 'load <4 x float>.*align 32' %t.ll
// RUN: %opt-ag -passes='align-guard<recover>,verify' %t.ll -S -o %t.checked.ll
// RUN: %clang -O2 %t.checked.ll %rt -o %t
// RUN: %t 0 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %t 1 2>&1 | FileCheck %s --check-prefix=MIS
#include <stdio.h>
#include <stdlib.h>

// MIS: alignguard: scale: argument #0{{( 'v')?}} = 0x{{[0-9a-f]+}} is not 32-byte aligned (4 bytes past a boundary)
__attribute__((noinline)) void scale(float *v, float k, int n) {
  float *V = __builtin_assume_aligned(v, 32);
  for (int i = 0; i < n; ++i)
    V[i] *= k;
}

int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  float *buf = aligned_alloc(64, 8192);
  for (int i = 0; i < 1024; ++i)
    buf[i] = 1.0f;
  for (int round = 0; round < 3; ++round)
    scale(buf + offset, 2.0f, 1000);
  double sum = 0;
  for (int i = 0; i < 1024; ++i)
    sum += buf[i];
  // OK-NOT: alignguard:
  // OK: sum 8024
  // MIS-NOT: alignguard:
  // MIS: sum 8024
  fflush(stderr);
  printf("sum %g\n", sum);
  return 0;
}
