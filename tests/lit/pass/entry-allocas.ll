; Splitting the entry block for a check must not push static allocas out of
; it (they would become dynamic allocations that SROA no longer promotes),
; nor llvm.localescape (the verifier requires it there).
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

define void @escapes(i8* align 64 %p) {
; CHECK-LABEL: define void @escapes(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    call void (...) @llvm.localescape({{i32\*|ptr}} %a)
; CHECK-NEXT:    ptrtoint
entry:
  %a = alloca i32
  call void (...) @llvm.localescape(i32* %a)
  store i32 0, i32* %a
  ret void
}

define void @escapes_late(i8* %p) {
; CHECK-LABEL: define void @escapes_late(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    call void (...) @llvm.localescape({{i32\*|ptr}} %a)
; CHECK-NEXT:    store i32 0
entry:
  %a = alloca i32
  store i32 0, i32* %a
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 8) ]
  call void (...) @llvm.localescape(i32* %a)
  ret void
}

declare void @llvm.localescape(...)
declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
