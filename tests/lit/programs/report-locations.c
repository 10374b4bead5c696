// A report says where the promise was checked and where it was written,
// and the address's actual alignment. The kernel's promise is made in an
// inline helper of a header (Inputs/report-locations.h:4); once the helper
// is inlined (clang -O2, then align-guard through opt, as TVM and Halide
// run it), the check is in `scale`, at the call of the helper, and the
// report adds `promised at` the header's line. -gline-tables-only is enough
// for both locations; only the argument's name needs -g.
// RUN: %clang -O2 -g -S -emit-llvm %s -o %t.g.ll
// RUN: %opt-ag -passes='align-guard,verify' %t.g.ll -o %t.g.bc
// RUN: %clang -O2 %t.g.bc %rt -o %t.g
// RUN: %t.g 0 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.g 1 2>&1 | FileCheck %s --check-prefix=G
// RUN: not --crash %t.g 3 2>&1 | FileCheck %s --check-prefix=G3
// RUN: %clang -O2 -gline-tables-only -S -emit-llvm %s -o %t.lt.ll
// RUN: %opt-ag -passes='align-guard,verify' %t.lt.ll -o %t.lt.bc
// RUN: %clang -O2 %t.lt.bc %rt -o %t.lt
// RUN: %t.lt 0 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.lt 1 2>&1 | FileCheck %s --check-prefix=LT
// Without debug info, neither location: the rest of the line is the same.
// RUN: %clang -O2 -S -emit-llvm %s -o %t.nodbg.ll
// RUN: %opt-ag -passes='align-guard,verify' %t.nodbg.ll -o %t.nodbg.bc
// RUN: %clang -O2 %t.nodbg.bc %rt -o %t.nodbg
// RUN: not --crash %t.nodbg 1 2>&1 | FileCheck %s --check-prefix=NODBG
// In a clang -fpass-plugin build the promise is checked before inlining,
// in the helper, where it is written: one location, from line tables too.
// RUN: %clang-ag -O2 -gline-tables-only %s %rt -o %t.plugin
// RUN: %t.plugin 0 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.plugin 1 2>&1 | FileCheck %s --check-prefix=PLUGIN
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/report-locations.h"

// Not inlined into main: the report names `scale`.
__attribute__((noinline)) void scale(float *p, int n) {
  // G: {{^}}alignguard: scale: argument #0 'p' = 0x{{[0-9a-f]*}}4 is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary) at {{.*}}report-locations.c:[[#@LINE+5]]:14, promised at {{.*}}Inputs{{/|\\}}report-locations.h:4:19{{$}}
  // G3: {{^}}alignguard: scale: argument #0 'p' = 0x{{[0-9a-f]*}}c is 4-byte aligned, not 64-byte aligned (12 bytes past a boundary) at {{.*}}report-locations.c:[[#@LINE+4]]:14, promised at {{.*}}Inputs{{/|\\}}report-locations.h:4:19{{$}}
  // LT: {{^}}alignguard: scale: argument #0 = 0x{{[0-9a-f]*}}4 is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary) at {{.*}}report-locations.c:[[#@LINE+3]]:14, promised at {{.*}}Inputs{{/|\\}}report-locations.h:4:19{{$}}
  // NODBG: {{^}}alignguard: scale: argument #0 = 0x{{[0-9a-f]*}}4 is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary){{$}}
  // PLUGIN: {{^}}alignguard: as_aligned64: argument #0 = 0x{{[0-9a-f]*}}4 is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary) at {{.*}}Inputs{{/|\\}}report-locations.h:4:19{{$}}
  float *P = as_aligned64(p);
  for (int i = 0; i < n; ++i)
    P[i] *= 2.0f;
}

int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  float *buf = aligned_alloc(64, 4096);
  for (int i = 0; i < 1024; ++i)
    buf[i] = (float)i;
  scale(buf + offset, 256);
  // OK: buf[10] = 20
  printf("buf[10] = %.0f\n", buf[10]);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
