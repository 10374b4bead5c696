; REQUIRES: llvm-at-least-22
; Why a place with several checks has one cold call under a terminal action
; (cold-side-select.ll): nothing of the cold side reaches the aligned path.
; With one cold block the prologue is shrink-wrapped into alignguard.fail,
; and the entry of a two-pointer saxpy under abort is `mov; and; mov; and;
; or; jne`: no push before the check's branch. With the chain of noreturn
; calls of before (alignguard.culprit, alignguard.next, ...) the entry began
; with `pushq %rax`. LLVM 14's shrink-wrapping keeps the push in the entry
; even for one cold call, hence the REQUIRES.
; RUN: %opt-ag -passes='align-guard,default<O2>' -S %s -o %t.ll
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu %t.ll -o - | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: saxpy:
; CHECK-NOT:     push
; CHECK:         and{{[lq]}} $31,
; CHECK-NOT:     push
; CHECK:         and{{[lq]}} $63,
; CHECK-NOT:     push
; CHECK:         j{{ne|e}} .LBB
; CHECK:       # %alignguard.fail
; CHECK:         call{{q?}} __alignguard_report_abort
define void @saxpy(float* %y, float* %x, float %a, i64 %n) "alignguard-entry" {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %x, i64 32), "align"(float* %y, i64 64) ]
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, float* %x, i64 %i
  %py = getelementptr inbounds float, float* %y, i64 %i
  %vx = load float, float* %px, align 4
  %vy = load float, float* %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, float* %py, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
