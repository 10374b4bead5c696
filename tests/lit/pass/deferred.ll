; align-guard<deferred>, what a build runs (Plugin.cpp): each abort, trap and
; recover place is one call of @alignguard.deferred.check until
; align-guard-expand, last in the pipeline, makes its branch there
; (DeferredPlaces.h). return=N and fallback places get their branch at once.
; RUN: %opt-ag -passes='align-guard<deferred>,verify' -S %s | FileCheck %s --check-prefix=MARK
; RUN: %opt-ag -passes='align-guard<deferred>,align-guard-expand,verify' -S %s | FileCheck %s --check-prefixes=EXP,EXP-ABORT
; A second run leaves the deferred places alone, parameters included.
; RUN: %opt-ag -passes='align-guard<deferred>,align-guard,align-guard-expand,verify' -S %s | FileCheck %s --check-prefixes=EXP,EXP-ABORT
; RUN: %opt-ag -passes='align-guard<deferred;trap>,align-guard-expand,verify' -S %s | FileCheck %s --check-prefixes=EXP,EXP-TRAP
; RUN: %opt-ag -passes='align-guard<deferred;recover>,align-guard-expand,verify' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: %opt-ag -passes='align-guard<deferred;return=-1>,verify' -S %s | FileCheck %s --check-prefix=RET
; A call of the marker that align-guard did not write is an error, not a guess.
; RUN: not %opt-ag -passes=align-guard-expand -disable-output %S/Inputs/deferred-bad-marker.ll 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not %opt-ag -passes=align-guard-expand -disable-output %S/Inputs/deferred-bad-table-marker.ll 2>&1 | FileCheck %s --check-prefix=BAD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Nothing here calls @entry: its parameters keep `align` (the optimiser reads
; the attribute for free) until the expansion, which removes it with the
; check in place. One marker for the place, both pointers in it; their
; descriptors are one table, which both name (the first check naming it is
; its first element, the second its second: no constant expressions for
; the passes before the expansion to take apart).
; MARK:        @__alignguard_site{{[.0-9]*}} = private constant { [112 x i8], [{{[0-9]+}} x i8] }
; MARK-LABEL: define void @entry({{float\*|ptr}} align 64 %a, {{float\*|ptr}} align 32 %b)
; MARK-NEXT:    call void @alignguard.deferred.check(i32 0) #[[READONLY:[0-9]+]] [ "alignguard.checks"({{.*}} %a, i64 64, i64 0, i1 true, {{.*}} @[[TABLE:__alignguard_site[.0-9]*]], {{.*}} %b, i64 32, i64 0, i1 true, {{.*}} @[[TABLE]]) ]
; MARK-NOT:     llvm.assume
; MARK:         ret void
; EXP-LABEL:  define void @entry({{float\*|ptr}} %a, {{float\*|ptr}} %b)
; EXP:          %ag.terms = or i64
; EXP-NEXT:     %ag.misaligned = icmp ne i64 %ag.terms, 0
; EXP-NEXT:     br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; EXP:        alignguard.fail:
; EXP-ABORT:    call void @__alignguard_report_first_abort(i64 %ag.ptr, i64 %ag.ptr1, i64 0, i64 0, {{.*}}@__alignguard_site{{.*}}, i64 2)
; EXP-TRAP:     call void @llvm.trap()
; EXP-NEXT:     unreachable
; EXP:        alignguard.ok:
; EXP-NEXT:     store float
; RECOVER-LABEL: define void @entry({{float\*|ptr}} %a, {{float\*|ptr}} %b)
; RECOVER:     alignguard.culprit:
; RECOVER-NEXT:  call void @__alignguard_report({{.*}}, i64 %ag.ptr, i64 64, i64 0)
; RECOVER:     alignguard.culprit{{[0-9]+}}:
; RECOVER-NEXT:  call void @__alignguard_report({{.*}}, i64 %ag.ptr1, i64 32, i64 0)
define void @entry(float* align 64 %a, float* align 32 %b) {
  store float 0.0, float* %a
  store float 1.0, float* %b
  ret void
}

; @caller may inline @called before the expansion, and the inliner drops
; parameter attributes: the promise goes into a guarded assume after the
; marker, as it does without deferral.
; MARK-LABEL: define void @called({{float\*|ptr}} %a)
; MARK-NEXT:    call void @alignguard.deferred.check(i32 0) #[[READONLY]] [ "alignguard.checks"({{float\*|ptr}} %a, i64 64,
; MARK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %a, i64 64) ], !alignguard.guarded
; EXP-LABEL:  define void @called({{float\*|ptr}} %a)
; EXP:        alignguard.ok:
; EXP-NEXT:     call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %a, i64 64) ], !alignguard.guarded
define void @called(float* align 64 %a) {
  store float 0.0, float* %a
  ret void
}

define void @caller(float* %x) {
  call void @called(float* %x)
  ret void
}

; A legacy promise stays as written (an immediate run makes it a bundle,
; assume-icmp-legacy.ll, which the check's branch cannot fold).
; MARK-LABEL: define void @legacy(
; MARK:         call void @alignguard.deferred.check(i32 0) #[[READONLY]] [ "alignguard.checks"({{i8\*|ptr}} %p, i64 16, i64 0, i1 true,
; MARK-NEXT:    call void @llvm.assume(i1 %ok), !alignguard.guarded
; EXP-LABEL:  define void @legacy(
; EXP:          br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; EXP:        alignguard.ok:
; EXP-NEXT:     call void @llvm.assume(i1 %ok), !alignguard.guarded
define void @legacy(i8* %p) {
  %bits = ptrtoint i8* %p to i64
  %low = and i64 %bits, 15
  %ok = icmp eq i64 %low, 0
  call void @llvm.assume(i1 %ok)
  store i8 0, i8* %p
  ret void
}

; return=N leaves the function with a value its callers see: the optimiser
; must see that return, so the branch is made at once.
; RET-LABEL:  define i32 @ret_i32(
; RET-NOT:      deferred.check
; RET:        alignguard.fail:
; RET-NEXT:     call void @__alignguard_report(
; RET-NEXT:     ret i32 -1
define i32 @ret_i32(i8* %p) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  store i8 0, i8* %p
  ret i32 0
}

; The marker reads memory (on the call: its bundle would make it write),
; may not return (no willreturn), is never merged and is no library function.
; MARK: declare void @alignguard.deferred.check(i32) #[[DECL:[0-9]+]]
; MARK-DAG: attributes #[[DECL]] = { nobuiltin nomerge nounwind {{readonly|memory\(read\)}} }
; MARK-DAG: attributes #[[READONLY]] = { {{readonly|memory\(read\)}} }

; After the expansion no marker is left, nor its declaration.
; EXP-NOT:  alignguard.deferred.check
; RECOVER-NOT: alignguard.deferred.check

; BAD: error: align-guard-expand: a call of alignguard.deferred.check in 'f' is not a deferred check align-guard wrote; left as it is

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
