; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; The table hooks' names before the _v3 ones (RuntimeABI.cpp), in IR an
; older plugin made (bitcode for LTO, say): align-guard-cold-exits still
; knows them as hooks and gives their failing sides the same tail call of a
; thunk, named after the old hook, which the runtime still defines.
; RUN: %opt-ag -passes=align-guard-cold-exits,verify -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@site = private constant [2 x i8] zeroinitializer

; CHECK-LABEL: define void @old_abort_table(
; CHECK:       alignguard.fail:
; CHECK-NEXT:    tail call void @__alignguard_report_first_abort.thunk.void(i64 %a.bits, i64 %b.bits, i64 0, i64 0, {{.*}}@site{{.*}}, i64 2), !nosanitize
; CHECK-NEXT:    ret void
define void @old_abort_table(i8* %a, i8* %b) {
entry:
  %a.bits = ptrtoint i8* %a to i64
  %b.bits = ptrtoint i8* %b to i64
  %any = or i64 %a.bits, %b.bits
  %low = and i64 %any, 15
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report_first_abort(i64 %a.bits, i64 %b.bits, i64 0, i64 0, i8* getelementptr ([2 x i8], [2 x i8]* @site, i64 0, i64 0), i64 2), !nosanitize !0
  unreachable, !nosanitize !0

alignguard.ok:
  ret void
}

; CHECK:      define linkonce_odr hidden void @__alignguard_report_first_abort.thunk.void(i64 %0, i64 %1, i64 %2, i64 %3, {{i8\*|ptr}} %4, i64 %5)
; CHECK-NEXT:   call void @__alignguard_report_first_abort(i64 %0, i64 %1, i64 %2, i64 %3, {{i8\*|ptr}} %4, i64 %5)
; CHECK-NEXT:   unreachable

declare void @__alignguard_report_first_abort(i64, i64, i64, i64, i8*, i64) cold noreturn

!0 = !{}
