; The optional third operand of "align" is an offset: `p - off` is aligned.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RECOVER

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-DAG: ; packed @[[POS:__alignguard_site[.0-9]*]] = [{{.*}} i64 64, i64 16, null, i32 0, i32 0 }]
; CHECK-DAG: ; packed @[[NEG:__alignguard_site[.0-9]*]] = [{{.*}} i64 32, i64 -4, null, i32 0, i32 0 }]
; CHECK-DAG: ; packed @[[DYN:__alignguard_site[.0-9]*]] = [{{.*}} i64 16, i64 0, null, i32 0, i32 0 }]

define void @positive(i8* %p) {
; CHECK-LABEL: define void @positive(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[ADDR:%.*]] = sub i64 [[INT]], 16
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[ADDR]], 63
; CHECK-NEXT:    icmp ne i64 [[LOW]], 0
; ABORT:         call void @__alignguard_report_abort({{.*}}@[[POS]]{{.*}}, i64 [[INT]], i64 64, i64 16)
; RECOVER:       call void @__alignguard_report({{.*}}@[[POS]]{{.*}}, i64 [[INT]], i64 64, i64 16)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 64, i64 16) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64, i64 16) ]
  ret void
}

; A narrower offset is sign-extended, as AlignmentFromAssumptions reads it.
define void @negative(i8* %p) {
; CHECK-LABEL: define void @negative(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[ADDR:%.*]] = sub i64 [[INT]], -4
; CHECK-NEXT:    and i64 [[ADDR]], 31
; ABORT:         call void @__alignguard_report_abort({{.*}}@[[NEG]]{{.*}}, i64 [[INT]], i64 32, i64 -4)
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 32, i32 -4) ]
  ret void
}

; An offset known only at run time reaches the runtime as a value.
define void @dynamic(i8* %p, i64 %off) {
; CHECK-LABEL: define void @dynamic(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[ADDR:%.*]] = sub i64 [[INT]], %off
; CHECK-NEXT:    and i64 [[ADDR]], 15
; ABORT:         call void @__alignguard_report_abort({{.*}}@[[DYN]]{{.*}}, i64 [[INT]], i64 16, i64 %off)
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 16, i64 %off) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
