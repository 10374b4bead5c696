; `allocalign` (LLVM 15+; rustc's __rust_alloc, clang's alloc_align
; declarations in other producers) promises that the returned block is
; aligned as the marked argument says, known at run time, or null when that
; is not a power of two. Checked after the call against the argument's
; value; the attribute leaves the call and the declaration (InstCombine
; would otherwise put `align` back on the call from it and fold the check),
; and the assume in the continuation keeps the promise.
; REQUIRES: llvm-at-least-15
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s
; The check survives the optimiser.
; RUN: %opt-ag -passes='align-guard,default<O2>' -S %s | FileCheck %s --check-prefix=O2

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

declare noalias ptr @rust_alloc(i64, i64 allocalign)
declare void @use(ptr)

; CHECK-LABEL: declare noalias ptr @rust_alloc(i64, i64)

; CHECK-LABEL: define void @runtime(
; CHECK:         %p = call noalias ptr @rust_alloc(i64 %n, i64 %a)
; CHECK-NEXT:    %ag.ptr = ptrtoint ptr %p to i64
; CHECK:         %ag.pow2 = and i1
; CHECK:         %ag.bad = select i1 %ag.pow2
; CHECK:         call void @__alignguard_report_abort(ptr @__alignguard_site{{[.0-9]*}}, i64 %ag.ptr, i64 %a, i64 0)
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 %a) ], !alignguard.guarded
define void @runtime(i64 %n, i64 %a) {
  %p = call noalias ptr @rust_alloc(i64 %n, i64 %a)
  call void @use(ptr %p)
  ret void
}

; A constant argument: a plain mask test, which -O2 keeps.
; CHECK-LABEL: define void @constant(
; CHECK:         %p = call noalias ptr @rust_alloc(i64 %n, i64 64)
; CHECK-NEXT:    %ag.ptr = ptrtoint ptr %p to i64
; CHECK-NEXT:    [[M:%[0-9]+]] = and i64 %ag.ptr, 63
; O2-LABEL: define void @constant(
; O2:         %p = {{.*}}call noalias {{.*}}ptr @rust_alloc(i64 %n, i64 64)
; O2:         and i64 %{{.*}}, 63
; O2:         call void @__alignguard_report_abort(
define void @constant(i64 %n) {
  %p = call noalias ptr @rust_alloc(i64 %n, i64 64)
  call void @use(ptr %p)
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
