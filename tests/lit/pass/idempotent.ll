; A second run (clang's pipeline-start hook, then an explicit opt run) does
; not check a promise twice: guarded assumes carry !alignguard.guarded.
; RUN: %opt-ag -passes='align-guard,align-guard,verify' -S %s | FileCheck %s
; RUN: %opt-ag -passes='align-guard' %s -o %t.bc
; RUN: %opt-ag -passes='align-guard,verify' -S %t.bc | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @once(i8* align 64 %a, i8* %b) {
; CHECK-LABEL: define void @once(
; CHECK-COUNT-2: call void @__alignguard_report_abort(
; CHECK-NOT:     call void @__alignguard_report_abort(
; CHECK:         ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %b, i64 32) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
