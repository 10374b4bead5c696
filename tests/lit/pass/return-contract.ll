; align-guard<return=N>: a failing check makes the entry point return N, so
; what its calls promise about the returned value must admit N, or the
; optimiser folds a caller's test of N away. `!range` on a call is widened
; to hold N (N joins its list of ranges), left alone when it already does,
; and dropped when no list of ranges can say what remains (every value);
; `returned` is dropped.
; (The `range` attribute of LLVM 19 on: return-contract-range-attr.ll.)
; RUN: %opt-ag -passes='align-guard<return=-24;entry=k*>,verify' -S %s | FileCheck %s
; With return=N downgraded (abort), nothing returns N: the ranges stay.
; RUN: %opt-ag -passes='align-guard<abort;entry=k*>,verify' -S %s | FileCheck %s --check-prefix=ABORT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define i32 @k(i8* align 64 %p) {
; CHECK-LABEL: define i32 @k(
; CHECK:         call void @__alignguard_report(
; CHECK-NEXT:    ret i32 -24
  ret i32 0
}

define i32 @caller(i8* %p) {
; CHECK-LABEL: define i32 @caller(
; CHECK-NEXT:    %rc = call i32 @k({{i8\*|ptr}} %p), !range [[WIDENED:![0-9]+]]
; CHECK-NEXT:    %rc.admits = call i32 @k({{i8\*|ptr}} %p), !range [[ADMITS:![0-9]+]]
; CHECK-NEXT:    %rc.all-but-n = call i32 @k({{i8\*|ptr}} %p){{$}}
; CHECK-NEXT:    %rc.next-to-n = call i32 @k({{i8\*|ptr}} %p), !range [[MERGED:![0-9]+]]
; ABORT-LABEL: define i32 @caller(
; ABORT-NEXT:    %rc = call i32 @k({{i8\*|ptr}} %p), !range [[R0:![0-9]+]]
; ABORT-NEXT:    %rc.admits = call i32 @k({{i8\*|ptr}} %p), !range [[R1:![0-9]+]]
; ABORT-NEXT:    %rc.all-but-n = call i32 @k({{i8\*|ptr}} %p), !range [[R2:![0-9]+]]
  %rc = call i32 @k(i8* %p), !range !0
  %rc.admits = call i32 @k(i8* %p), !range !1
  %rc.all-but-n = call i32 @k(i8* %p), !range !2
  %rc.next-to-n = call i32 @k(i8* %p), !range !3
  %is.n = icmp eq i32 %rc, -24
  %r = select i1 %is.n, i32 1, i32 0
  ret i32 %r
}

; The same through a cast of the callee (typed pointers).
define i32 @cast_caller(float* %q) {
; CHECK-LABEL: define i32 @cast_caller(
; CHECK:         call i32 {{.*}}@k{{.*}}, !range [[WIDENED]]
  %rc = call i32 bitcast (i32 (i8*)* @k to i32 (float*)*)(float* %q), !range !0
  ret i32 %rc
}

; `returned`: the call's value is that argument, so a caller's test of N
; would become a test of the argument. It goes, on the function and on its
; calls.
; CHECK-LABEL: define i32 @k_returned(i32 %code, {{i8\*|ptr}} %p)
; CHECK:         ret i32 -24
; ABORT-LABEL: define i32 @k_returned(i32 returned %code,
define i32 @k_returned(i32 returned %code, i8* align 64 %p) {
  ret i32 %code
}

; CHECK-LABEL: define i32 @returned_caller(
; CHECK-NEXT:    %rc = call i32 @k_returned(i32 0, {{i8\*|ptr}} %p)
; CHECK-NEXT:    %rc.site = call i32 @k_returned(i32 0, {{i8\*|ptr}} %p)
define i32 @returned_caller(i8* %p) {
  %rc = call i32 @k_returned(i32 0, i8* %p)
  %rc.site = call i32 @k_returned(i32 returned 0, i8* %p)
  %sum = add i32 %rc, %rc.site
  ret i32 %sum
}

; CHECK-DAG: [[WIDENED]] = !{i32 -24, i32 -23, i32 -1, i32 1}
; CHECK-DAG: [[ADMITS]] = !{i32 -30, i32 1}
; CHECK-DAG: [[MERGED]] = !{i32 -24, i32 -22}
; ABORT-DAG: [[R0]] = !{i32 -1, i32 1}
; ABORT-DAG: [[R2]] = !{i32 -23, i32 -24}

!0 = !{i32 -1, i32 1}
!1 = !{i32 -30, i32 1}
!2 = !{i32 -23, i32 -24}
!3 = !{i32 -23, i32 -22}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
