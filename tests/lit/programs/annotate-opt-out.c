// __attribute__((annotate("no_align_guard"))) opts one function out in
// source: its promises get no check (a NoCheck remark names the
// annotation), the audit lists them as `suppressed` (SARIF kind inSource),
// and a misaligned call runs through it while the same call to an
// unannotated twin stops with the report.
// RUN: %clang -O1 -g -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-ag -passes='align-guard' -pass-remarks=align-guard -pass-remarks-analysis=align-guard -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %opt-ag -passes='align-guard-audit' -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: %alignguard --plugin %plugin audit --sarif %t.ll > %t.sarif
// RUN: %python %tools/check-sarif.py %t.sarif | FileCheck %s --check-prefix=SARIF
// RUN: %python %tools/validate-sarif.py %t.sarif | FileCheck %s --check-prefix=VALID
// With an ignorelist entry too, as a build writes it (per-unit JSON, merged
// by the driver, the one SARIF writer): both suppression kinds in one log,
// valid against the errata01 schema.
// RUN: rm -rf %t.units && mkdir -p %t.units && printf '[alignment]\nfun:checked_site\n' > %t.ignore
// RUN: %opt-ag -passes='align-guard-audit<json;all;ignorelist=%t.ignore;output=%t.units/k.json>' -disable-output %t.ll
// RUN: %alignguard audit --merge --sarif %t.units > %t.both.sarif
// RUN: %python %tools/check-sarif.py %t.both.sarif | FileCheck %s --check-prefix=BOTH
// RUN: %python %tools/validate-sarif.py %t.both.sarif | FileCheck %s --check-prefix=VALID
// RUN: %clang-ag -O2 -g %s %rt -o %t.exe
// RUN: %t.exe 0 | FileCheck %s --check-prefix=RUN-KNOWN
// RUN: not --crash %t.exe 1 2>&1 | FileCheck %s --check-prefix=RUN-CHECKED
#include <stdio.h>
#include <stdlib.h>

// REMARK: remark: {{.*}}annotate-opt-out.c:[[@LINE+5]]:{{[0-9]+}}: assume-bundle on argument #0 'p' gets no check: suppressed by annotate("no_align_guard") at {{.*}}annotate-opt-out.c:[[@LINE+3]]{{$}}
// TABLE: suppressed  assume-bundle  known_site    argument #0 'p'  64  {{.*}}annotate-opt-out.c:[[@LINE+4]]:{{[0-9]+}}  annotate("no_align_guard") at {{.*}}annotate-opt-out.c:[[@LINE+2]]{{$}}
__attribute__((annotate("no_align_guard"))) __attribute__((noinline)) float
known_site(float *p) {
  // A site known to be misaligned, that the team cannot fix yet.
  float *q = __builtin_assume_aligned(p, 64);
  return q[0] + q[1];
}

// REMARK: remark: {{.*}}annotate-opt-out.c:[[@LINE+4]]:{{[0-9]+}}: assume-bundle on argument #0 'p' checked at site 0
// TABLE: unchecked   assume-bundle  checked_site  argument #0 'p'  64  {{.*}}annotate-opt-out.c:[[@LINE+3]]:{{[0-9]+}}  nothing checks it
// TABLE: summary: {{[0-9]+}} assumptions: 1 unchecked, 0 guarded, {{[0-9]+}} checked, 0 implied, 0 unsupported, 1 suppressed, 0 type
__attribute__((noinline)) float checked_site(float *p) {
  float *q = __builtin_assume_aligned(p, 64);
  return q[0] + q[1];
}

// SARIF: alignguard/unchecked-assumption warning {{.*}}annotate-opt-out.c:{{[0-9]+}}:{{[0-9]+}} | assume-bundle in 'known_site': argument #0 'p' is promised to be 64-byte aligned; suppressed: annotate("no_align_guard") at {{.*}}annotate-opt-out.c:{{[0-9]+}} | suppressed inSource: annotate("no_align_guard") at {{.*}}annotate-opt-out.c:{{[0-9]+}}
// VALID: validate-sarif: {{.*}}: valid
// SARIF-NEXT: alignguard/unchecked-assumption warning {{.*}}annotate-opt-out.c:{{[0-9]+}}:{{[0-9]+}} | assume-bundle in 'checked_site': {{.*}}; unchecked: nothing checks it{{$}}
// BOTH: alignguard/unchecked-assumption warning {{.*}}annotate-opt-out.c:{{[0-9]+}}:{{[0-9]+}} | assume-bundle in 'known_site': {{.*}} | suppressed inSource: annotate("no_align_guard") at {{.*}}annotate-opt-out.c:{{[0-9]+}}
// BOTH-NEXT: alignguard/unchecked-assumption warning {{.*}}annotate-opt-out.c:{{[0-9]+}}:{{[0-9]+}} | assume-bundle in 'checked_site': {{.*}} | suppressed external: fun:checked_site at {{.*}}.ignore:2
// BOTH-NOT: alignguard/

static _Alignas(64) float Data[64];

int main(int argc, char **argv) {
  float *p = Data + atoi(argv[1]);
  // RUN-KNOWN: known_site: 0
  // RUN-KNOWN-NEXT: checked_site: 0
  printf("known_site: %g\n", known_site(p));
  fflush(stdout);
  // RUN-CHECKED: alignguard: checked_site: argument #0 'p' = 0x{{[0-9a-f]+}} is {{[0-9]+}}-byte aligned, not 64-byte aligned
  // RUN-CHECKED-NOT: known_site
  printf("checked_site: %g\n", checked_site(p));
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
