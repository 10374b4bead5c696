// align-guard<recover>: a misaligned call reports once per site, then runs
// to completion with the right numbers (the promise was dropped, so the
// kernel does not compute with a false assumption). Later violations at the
// same site are counted, not reported.
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-ag -O0 -g %s %rt -o %t.O0
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-ag -O2 -g %s %rt -o %t.O2
// RUN: %t.O0 0 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %t.O2 0 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %t.O0 1 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: %t.O2 1 2>&1 | FileCheck %s --check-prefix=MIS
// The README's `opt ... align-guard<recover>` on `clang -O2` output: the
// optimiser has already vectorised the loop with `align 32` accesses from
// the promise. After the report they are lowered to natural alignment (else
// movaps faults on the misaligned view), and the numbers are right.
// RUN: %clang -O2 -g -I%rt-include -S -emit-llvm %s -o %t.ll
// RUN: grep -q 'load <4 x float>.*align 32' %t.ll
// RUN: %opt-ag -passes='align-guard<recover>,verify' %t.ll -S -o %t.checked.ll
// RUN: %clang -O2 %t.checked.ll %rt -o %t.opt
// RUN: %t.opt 0 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %t.opt 1 2>&1 | FileCheck %s --check-prefix=MIS
#include <alignguard/alignguard.h>
#include <stdio.h>
#include <stdlib.h>

// MIS: alignguard: scale: argument #0 'v' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 32-byte aligned (4 bytes past a boundary) at {{.*}}recover.c:[[@LINE+2]]
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
  // MIS-NOT: alignguard:
  // OK-NOT: alignguard:
  // OK: v[0] = 8 v[999] = 8 v[1000] = 1 violations = 0
  // MIS: v[0] = 8 v[999] = 8 v[1000] = 1 violations = 3
  printf("v[0] = %.0f v[999] = %.0f v[1000] = %.0f violations = %llu\n",
         buf[offset], buf[offset + 999], buf[offset + 1000],
         (unsigned long long)alignguard_violation_count());
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
