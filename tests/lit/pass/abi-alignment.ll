; `align` on byval, inalloca, preallocated and byref parameters is part of
; the calling convention (the callee's own copy, or the kernel argument
; layout): it is not checked, and recover mode never drops it, at a call
; site or on a callee, though the pointer was checked.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefixes=CHECK
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

%S = type { [16 x float] }

define void @abi(%S* byval(%S) align 64 %copy, %S* byref(%S) align 32 %ref, %S* preallocated(%S) align 16 %pa, %S* inalloca(%S) align 16 %ia) {
; CHECK-LABEL: define void @abi(
; CHECK-SAME:    byval(%S) align 64 %copy, {{.*}} byref(%S) align 32 %ref, {{.*}} preallocated(%S) align 16 %pa, {{.*}} inalloca(%S) align 16 %ia)
; CHECK-NOT:     __alignguard
; CHECK:         ret void
  ret void
}

define void @passes_copy(%S* %p) {
; CHECK-LABEL: define void @passes_copy(
; CHECK:         and i64 {{%.*}}, 63
; CHECK:         call void @by_value({{%S\*|ptr}} byval(%S) align 64 %p)
; CHECK:         call void @by_ref({{%S\*|ptr}} byref(%S) align 64 %p)
  call void @llvm.assume(i1 true) [ "align"(%S* %p, i64 64) ]
  call void @by_value(%S* byval(%S) align 64 %p)
  call void @by_ref(%S* byref(%S) align 64 %p)
  ret void
}

; CHECK-LABEL: define internal void @by_value({{%S\*|ptr}} byval(%S) align 64 %q)
define internal void @by_value(%S* byval(%S) align 64 %q) {
  ret void
}
; CHECK-LABEL: define internal void @by_ref({{%S\*|ptr}} byref(%S) align 64 %r)
define internal void @by_ref(%S* byref(%S) align 64 %r) {
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
