// On aligned input the instrumented -O2 kernel runs the same hot loop, with
// the same aligned vector instructions, as the uninstrumented one: the
// promise is checked once on entry and still feeds the optimiser.
// The control (-DNO_PROMISE) shows the comparison can fail: without the
// promise the loop has no aligned accesses and differs.
// REQUIRES: x86_64
// RUN: %clang -O2 -S -o %t.plain.s %s
// RUN: %clang-ag -O2 -S -o %t.ag.s %s
// RUN: %clang -O2 -S -DNO_PROMISE -o %t.control.s %s
// RUN: %python %tools/compare-hot-loop.py --function vadd %t.plain.s %t.ag.s | FileCheck %s
// RUN: %python %tools/compare-hot-loop.py --function vadd_param %t.plain.s %t.ag.s | FileCheck %s
// RUN: %python %tools/compare-hot-loop.py --function vadd --expect-differ %t.plain.s %t.control.s | FileCheck %s --check-prefix=CONTROL
// RUN: FileCheck %s --check-prefix=ASM < %t.ag.s
// CHECK: aligned vector accesses: {{.*(mov|add)ap}}
// CHECK: identical
// CONTROL: control differs, as expected
// ASM-LABEL: vadd:
// ASM: jmp __alignguard_report_first_abort.thunk.void
// ASM-LABEL: vadd_param:
// ASM: jmp __alignguard_report_first_abort.thunk.void
// ASM-LABEL: __alignguard_report_first_abort.thunk.void:
// ASM: __alignguard_report_first_abort

#ifdef NO_PROMISE
#define ASSUME_ALIGNED(p) (p)
typedef float *afloat_ptr;
#else
#define ASSUME_ALIGNED(p) __builtin_assume_aligned((p), 64)
typedef float *__attribute__((align_value(64))) afloat_ptr;
#endif

void vadd(float *restrict a, const float *restrict b, const float *restrict c,
          int n) {
  float *A = ASSUME_ALIGNED(a);
  const float *B = ASSUME_ALIGNED(b);
  const float *C = ASSUME_ALIGNED(c);
  for (int i = 0; i < n; ++i)
    A[i] = B[i] + C[i];
}

void vadd_param(afloat_ptr restrict a, afloat_ptr restrict b,
                afloat_ptr restrict c, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + c[i];
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
