; All "align" bundles of one assume are checked, in order; the other bundles
; stay. In recover mode only the checked "align" bundles go.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @many(i8* %a, i8* %b) {
; CHECK-LABEL: define void @many(
; CHECK:         ptrtoint {{i8\*|ptr}} %a to i64
; CHECK:         and i64 {{%.*}}, 63
; CHECK:         br i1
; CHECK:         ptrtoint {{i8\*|ptr}} %b to i64
; CHECK:         and i64 {{%.*}}, 31
; CHECK:         br i1
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %a, i64 64), "nonnull"({{i8\*|ptr}} %a), "align"({{i8\*|ptr}} %b, i64 32), "ignore"() ], !alignguard.guarded
; RECOVER:       call void @llvm.assume(i1 true) [ "nonnull"({{i8\*|ptr}} %a), "ignore"() ]
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %a, i64 64), "nonnull"(i8* %a), "align"(i8* %b, i64 32), "ignore"() ]
  ret void
}

; Bundles that are not "align" are not alignment promises: nothing changes.
define void @others(i8* %a) {
; CHECK-LABEL: define void @others(
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "nonnull"({{i8\*|ptr}} %a), "dereferenceable"({{i8\*|ptr}} %a, i64 16) ]{{$}}
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "nonnull"(i8* %a), "dereferenceable"(i8* %a, i64 16) ]
  ret void
}

declare void @llvm.assume(i1)
