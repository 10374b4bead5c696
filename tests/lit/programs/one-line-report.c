// A function name from the IR may hold any byte: here a newline and an ANSI
// escape sequence (an asm label, as a generator's name could). The report is
// still one line, the control bytes written as \xNN as the audit table
// writes them, and no raw control byte reaches the terminal; with an
// unwritable log_path the report falls back to stderr after one line that
// says why.
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-ag -O0 -g %s %rt -o %t.O0
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-ag -O2 -g %s %rt -o %t.O2
// RUN: %clang-ag -O2 -g %s %rt -o %t.abort
// RUN: %t.O0 1 2>&1 | %python %tools/no-control-bytes.py | FileCheck %s --check-prefix=MIS
// RUN: %t.O2 1 2>&1 | %python %tools/no-control-bytes.py | FileCheck %s --check-prefix=MIS
// RUN: not --crash %t.abort 1 2>&1 | %python %tools/no-control-bytes.py | FileCheck %s --check-prefix=ABORT
// RUN: %t.O2 0 2>&1 | %python %tools/no-control-bytes.py | FileCheck %s --check-prefix=OK
// RUN: env ALIGNGUARD_OPTIONS=log_path=/dev/full %t.O2 1 2>&1 | %python %tools/no-control-bytes.py | FileCheck %s --check-prefix=FULL
#include <alignguard/alignguard.h>
#include <stdio.h>
#include <stdlib.h>

void scale(float *v, int n) __asm__("sca\nle\x1b[31m");

// MIS: {{^}}alignguard: sca\x0ale\x1b[31m: argument #0 'v' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 32-byte aligned (4 bytes past a boundary) at {{.*}}one-line-report.c:[[@LINE+5]]:{{[0-9]+$}}
// MIS-NEXT: {{^}}v[0] = 2 violations = 1{{$}}
// ABORT: {{^}}alignguard: sca\x0ale\x1b[31m: argument #0 'v' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 32-byte aligned (4 bytes past a boundary) at {{.*}}one-line-report.c:[[@LINE+3]]:{{[0-9]+$}}
// ABORT-NOT: alignguard
void scale(float *v, int n) {
  float *V = __builtin_assume_aligned(v, 32);
  for (int i = 0; i < n; ++i)
    V[i] *= 2;
}

// FULL: {{^}}alignguard: cannot write to log_path '/dev/full' (ENOSPC); reporting to stderr{{$}}
// FULL-NEXT: {{^}}alignguard: sca\x0ale\x1b[31m: argument #0 'v' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 32-byte aligned (4 bytes past a boundary) at {{.*}}one-line-report.c:{{[0-9]+:[0-9]+$}}
// FULL-NEXT: {{^}}v[0] = 2 violations = 1{{$}}
// OK-NOT: alignguard
// OK: {{^}}v[0] = 2 violations = 0{{$}}
int main(int argc, char **argv) {
  float *buf = aligned_alloc(64, 8192);
  int offset = atoi(argv[1]);
  for (int i = 0; i < 100; ++i)
    buf[offset + i] = 1.0f;
  scale(buf + offset, 100);
  printf("v[0] = %.0f violations = %llu\n", buf[offset],
         (unsigned long long)alignguard_violation_count());
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
