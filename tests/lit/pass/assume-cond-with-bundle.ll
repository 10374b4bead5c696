; Before LLVM 22 an assume may carry bundles and a condition other than
; `true` (LLVM 22's verifier rejects that IR, so the test cannot run there).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s
; UNSUPPORTED: llvm-at-least-22

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; Bundles on an assume whose condition is not `true` (valid before LLVM 22).
define void @cond_and_bundle(i8* %p, i1 %c) {
; CHECK-LABEL: define void @cond_and_bundle(
; CHECK:         and i64 {{%.*}}, 31
; CHECK:         call void @llvm.assume(i1 %c) [ "align"({{i8\*|ptr}} %p, i64 32) ], !alignguard.guarded
  call void @llvm.assume(i1 %c) [ "align"(i8* %p, i64 32) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
