; Odd but valid IR: declarations, optnone, other address spaces, a
; non-integral address space (left alone, with a warning), a constant null
; pointer, and GPU-style addrspace(1) parameters. Nothing crashes and the
; result verifies.
; RUN: %opt-ag -passes='align-guard,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128-ni:7"

declare void @external(i8* align 64)

; optnone (every function at clang -O0) is instrumented like any other.
define void @at_o0(i8* %p) noinline optnone {
; CHECK-LABEL: define void @at_o0(
; CHECK:         and i64 {{%.*}}, 63
; CHECK:         call void @__alignguard_report_abort(
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  ret void
}

define void @global_space(i8 addrspace(1)* align 16 %g) {
; CHECK-LABEL: define void @global_space(
; CHECK:         ptrtoint {{i8 addrspace\(1\)\*|ptr addrspace\(1\)}} %g to i64
; CHECK:         and i64 {{%.*}}, 15
  ret void
}

; WARN: warning: align-guard: in function 'fat': param-attr on argument #0 'f' left unchecked: pointers in non-integral address space 7 have no stable address to check
define void @fat(i8 addrspace(7)* align 16 %f) {
; CHECK-LABEL: define void @fat({{i8 addrspace\(7\)\*|ptr addrspace\(7\)}} align 16 %f)
; CHECK-NEXT:    ret void
  ret void
}

define void @null_ptr() {
; A null pointer is aligned by construction: the audit calls it checked, so
; align-guard adds no check and leaves the assume as it is.
; CHECK-LABEL: define void @null_ptr(
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} null, i64 8) ]
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* null, i64 8) ]
  ret void
}

declare void @llvm.assume(i1)

; WARN: warning: align-guard: in function 'naked': param-attr on argument #0 'p' left unchecked: the function is naked; no check can be inserted
define void @naked(i8* align 16 %p) naked {
; CHECK-LABEL: define void @naked({{i8\*|ptr}} align 16 %p)
; CHECK-NEXT:    call void asm sideeffect "ret", ""()
; CHECK-NEXT:    unreachable
  call void asm sideeffect "ret", ""()
  unreachable
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
