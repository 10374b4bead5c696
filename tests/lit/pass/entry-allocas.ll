; Splitting the entry block for a check must not push static allocas out of
; it (they would become dynamic allocations that SROA no longer promotes).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @late_allocas(i8* align 16 %p, i8* %q) {
; CHECK-LABEL: define void @late_allocas(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %early = alloca i32
; CHECK-NEXT:    %late = alloca i64
; CHECK-NEXT:    %after.assume = alloca i8
; CHECK-NEXT:    ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    and i64 {{%.*}}, 15
; CHECK:         store i32 0
; CHECK:         and i64 {{%.*}}, 31
entry:
  %early = alloca i32
  store i32 0, i32* %early
  %late = alloca i64
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 32) ]
  %after.assume = alloca i8
  ret void
}

declare void @llvm.assume(i1)
