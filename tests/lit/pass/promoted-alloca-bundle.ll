; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; A stack slot an assume's "align" bundle names, with an offset, is not put
; in a register when the function's other promises are prepared (here the
; one in the loop): promotion drops the bundle's use of the slot by
; retagging it "ignore" with all three operands kept, which the verifier
; rejects (`too many arguments`; found by tests/fuzz, seed 1 on LLVM 14,
; reduced with llvm-reduce). The slot stays, with its bundle.
; RUN: %opt-ag -passes='align-guard<abort>,verify' -S %s | FileCheck %s
; RUN: %opt-ag -passes='align-guard<trap>,verify' -disable-output %s
; RUN: %opt-ag -passes='align-guard<recover>,verify' -disable-output %s
; RUN: %opt-ag -passes='align-guard<fallback>,verify' -disable-output %s 2>/dev/null
; RUN: %opt-ag -passes='align-guard<return=-1;deferred>,verify' -disable-output %s 2>/dev/null

define float @slot(float* %p, float %x, i64 %n) {
entry:
  %s = alloca float, align 4
  store float %x, float* %s, align 4
  call void @llvm.assume(i1 true) [ "align"(float* %s, i64 1, i64 8) ]
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  %v = load float, float* %s, align 4
  %w = fadd float %v, 1.0
  store float %w, float* %s, align 4
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = load float, float* %s, align 4
  ret float %r
}

; CHECK-LABEL: define float @slot(
; CHECK:         %s = alloca float, align 4
; CHECK-NOT:     "ignore"
; CHECK:         "align"({{float\*|ptr}} %s, i64 1, i64 8)
; CHECK-NOT:     "ignore"
; CHECK:       alignguard.fail:
; CHECK:         ret float

declare void @llvm.assume(i1)
