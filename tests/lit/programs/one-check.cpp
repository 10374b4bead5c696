// One pointer, one check: a C++ reference parameter to an over-aligned
// struct carries `align N`, and a vector access through it is over-aligned
// itself. With align-guard<recover;accesses;type-alignment> both are one
// check at the entry, so a misaligned call is reported once and counted once, and goes
// on with the right numbers. `same`: the parameter promises 32, the
// accesses need 32. `stronger`: the parameter promises 16, the accesses
// need 32: the parameter's check tests 32 and the report names the
// parameter. At -O0 through the plugin (the pointer goes through a local
// variable) and, as the README advises for accesses, with opt on clang's
// -O2 output (the accesses are where the optimiser left them). Block16's
// `align 16 dereferenceable(64)` is a type alignment (README, "What counts
// as a promise"): checked here because the runs ask for `type-alignment`.
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover;accesses;type-alignment>' %clang-ag -fno-exceptions -O0 -g %s %rt -o %t.O0
// RUN: %clang -fno-exceptions -O2 -g -I%rt-include -S -emit-llvm %s -o %t.ll
// RUN: grep -q 'load <8 x float>.*align 32' %t.ll
// RUN: %opt-ag -passes='align-guard<recover;accesses;type-alignment>,verify' %t.ll -S -o %t.checked.ll
// RUN: %clang -O2 %t.checked.ll %rt -o %t.O2
// RUN: %t.O0 same 0 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=alignguard:
// RUN: %t.O2 same 0 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=alignguard:
// RUN: %t.O0 stronger 0 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=alignguard:
// RUN: %t.O2 stronger 0 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=alignguard:
// RUN: %t.O0 same 1 2>&1 | FileCheck %s --check-prefixes=MIS,SAME --implicit-check-not=alignguard:
// RUN: %t.O2 same 1 2>&1 | FileCheck %s --check-prefixes=MIS,SAME --implicit-check-not=alignguard:
// RUN: %t.O0 stronger 1 2>&1 | FileCheck %s --check-prefixes=MIS,STRONGER --implicit-check-not=alignguard:
// RUN: %t.O2 stronger 1 2>&1 | FileCheck %s --check-prefixes=MIS,STRONGER --implicit-check-not=alignguard:
#include <alignguard/alignguard.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef float v8f __attribute__((vector_size(32)));
struct alignas(32) Block32 {
  float v[16];
};
struct alignas(16) Block16 {
  float v[16];
};

// SAME: alignguard: same: argument #0 'b' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 32-byte aligned (4 bytes past a boundary) at {{.*}}one-check.cpp:[[@LINE+1]]
extern "C" __attribute__((noinline)) void same(Block32 &b, float k) {
  v8f *p = (v8f *)b.v;
  p[0] = p[0] * k;
  p[1] = p[1] * k;
}

// STRONGER: alignguard: stronger: argument #0 'b' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 32-byte aligned (4 bytes past a boundary) at {{.*}}one-check.cpp:[[@LINE+1]]
extern "C" __attribute__((noinline)) void stronger(Block16 &b, float k) {
  v8f *p = (v8f *)b.v;
  p[0] = p[0] * k;
  p[1] = p[1] * k;
}

int main(int argc, char **argv) {
  int offset = atoi(argv[2]);
  float *buf = (float *)aligned_alloc(64, 256);
  for (int i = 0; i < 64; ++i)
    buf[i] = 1.0f;
  // A misaligned view is what a caller with a bad pointer passes.
  void *view = buf + offset;
  if (!strcmp(argv[1], "same"))
    same(*(Block32 *)view, 2.0f);
  else
    stronger(*(Block16 *)view, 2.0f);
  // OK: v[0] = 2 v[15] = 2 v[16] = 1 violations = 0
  // MIS: v[0] = 2 v[15] = 2 v[16] = 1 violations = 1
  printf("v[0] = %.0f v[15] = %.0f v[16] = %.0f violations = %llu\n",
         buf[offset], buf[offset + 15], buf[offset + 16],
         (unsigned long long)alignguard_violation_count());
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
