// A function declared assume_aligned(64) (clang puts `align 64` on each
// call's result): AlignGuard checks the pointer right after the call, in
// the caller, and names the callee. A null result passes (null is aligned
// to everything); an aligned one passes; a misaligned one is reported at
// the call, once per site under recover, and aborts by default. At -O0 and
// -O2, where the optimiser would otherwise use the promise.
// RUN: %clang-ag -O0 -g %s %rt -o %t.O0
// RUN: %clang-ag -O2 -g %s %rt -o %t.O2
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-ag -O2 -g %s %rt -o %t.rec
// RUN: %t.O0 null | FileCheck %s --check-prefix=NULL
// RUN: %t.O2 null | FileCheck %s --check-prefix=NULL
// RUN: %t.O2 aligned | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.O0 misaligned 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: not --crash %t.O2 misaligned 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: %t.rec misaligned 2>&1 | FileCheck %s --check-prefixes=MIS,ONCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static _Alignas(64) char pool[256];

// Hands out `pool + offset`: the promise is the declaration's, the bug the
// caller's.
__attribute__((noinline)) char *slot(int offset)
    __attribute__((assume_aligned(64)));
char *slot(int offset) { return offset < 0 ? 0 : pool + offset; }

int main(int argc, char **argv) {
  int offset = !strcmp(argv[1], "null") ? -1
               : !strcmp(argv[1], "aligned") ? 64
                                             : 4;
  unsigned long bits = 0;
  for (int i = 0; i < 3; ++i) {
    // The second location is the callee's (its debug info's line).
    // MIS: alignguard: main: the pointer returned by 'slot' = 0x{{[0-9a-f]*}}4 is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary) at {{.*}}return-promises.c:[[@LINE+1]]:{{[0-9]+}}, promised at {{.*}}return-promises.c:[[@LINE-9]]{{$}}
    char *p = slot(offset);
    bits |= (uintptr_t)p & 63;
  }
  // ONCE-NOT: alignguard:
  // NULL: low bits 0
  // OK: low bits 0
  // ONCE: low bits 4
  printf("low bits %lu\n", bits);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
