; Recover where nothing observable can run before a check (an entry point,
; its arguments forwardable): a failing call reruns in the recover copy,
; `<name>.alignguard.recover`, the function as it was before its checks,
; which align-guard then checks in plain recover (each failing pointer
; reported, its promises dropped); a later run (a build's second, after the
; inliner) checks it as its function, the audit leaves it out. The aligned
; path keeps every promise, as under abort. After a side effect, in a
; function that is not an entry point, and with `no-rerun`, recover goes on
; in the function itself without the promise.
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s
; RUN: %opt-ag -passes='align-guard<recover;deferred>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefix=DEFERRED
; RUN: %opt-ag -passes='align-guard<recover>,align-guard<recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s
; RUN: %opt-ag -passes='align-guard<recover;no-rerun>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefix=INPLACE
; RUN: %opt-ag -passes='align-guard<recover>,align-guard-audit<json;all>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; The copy's reports name the function its callers called.
; CHECK-NOT: kernel.alignguard.recover\00
; One descriptor per report: the copy's check of a uses the one made for it.
; CHECK: ; packed @[[SITE_A:__alignguard_site[.0-9]*]] = [{ i32 3, i32 {{[0-9]+}}, c"kernel", {{.*}}, i64 64, i64 0,
; CHECK-NOT: ; packed @__alignguard_site{{.*}} c"kernel", {{.*}}, i64 64, i64 0,

; Two places, each a branch to the same rerun: a tail call, nothing else.
; CHECK-LABEL: define i32 @kernel({{float\*|ptr}} %a, {{float\*|ptr}} %b, i64 %n)
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok, !prof
; CHECK:       alignguard.fail:
; CHECK-NEXT:    [[R:%.*]] = tail call i32 @kernel.alignguard.recover({{float\*|ptr}} %a, {{float\*|ptr}} %b, i64 %n) [[NOINLINE:#[0-9]+]]
; CHECK-NEXT:    ret i32 [[R]]
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %a, i64 64) ], !alignguard.guarded
; CHECK:         tail call i32 @kernel.alignguard.recover(
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %bi, i64 32) ], !alignguard.guarded
; The aligned path keeps what the promises allowed.
; CHECK:         load <8 x float>, {{.*}}, align 32
; CHECK:         store <8 x float> {{.*}}, align 32
; CHECK-NOT:     __alignguard_report
; CHECK:         ret i32 0
;
; The copy reports each failing pointer and keeps no promise.
; CHECK-LABEL: define internal i32 @kernel.alignguard.recover({{float\*|ptr}} %a, {{float\*|ptr}} %b, i64 %n)
; CHECK-NOT:     alignguard.recover(
; CHECK:         call void @__alignguard_report({{.*}}@[[SITE_A]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64 {{%.*}}, i64 64, i64 0)
; CHECK:         call void @__alignguard_report({{.*}}, i64 {{%.*}}, i64 32, i64 0)
; CHECK-NOT:     @llvm.assume
; CHECK:         load <8 x float>, {{.*}}, align 4
; CHECK:         store <8 x float> {{.*}}, align 4
; CHECK:         ret i32 0
;
; A deferred run defers plain recover's places, not a rerun's, nor the
; copy's (a marker reads memory only: the optimiser would find the copy
; free of effects and delete its call).
; DEFERRED-LABEL: define i32 @kernel(
; DEFERRED-NOT:     @alignguard.deferred.check
; DEFERRED:         tail call i32 @kernel.alignguard.recover(
; DEFERRED-LABEL: define internal i32 @kernel.alignguard.recover(
; DEFERRED-NOT:     @alignguard.deferred.check
; DEFERRED:         call void @__alignguard_report(
; DEFERRED-LABEL: define void @after_store(
; DEFERRED:         call void @alignguard.deferred.check(i32 2)
;
; INPLACE-LABEL: define i32 @kernel(
; INPLACE:         call void @__alignguard_report({{.*}}, i64 {{%.*}}, i64 64, i64 0)
; INPLACE:         call void @__alignguard_report({{.*}}, i64 {{%.*}}, i64 32, i64 0)
; INPLACE-NOT:     @llvm.assume
; INPLACE:         load <8 x float>, {{.*}}, align 4
; INPLACE-NOT:   alignguard.recover
define i32 @kernel(float* align 64 %a, float* %b, i64 %n) {
entry:
  %bi = bitcast float* %b to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %bi, i64 32) ]
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds float, float* %a, i64 %i
  %va = bitcast float* %pa to <8 x float>*
  %x = load <8 x float>, <8 x float>* %va, align 32
  %pb = getelementptr inbounds float, float* %b, i64 %i
  %vb = bitcast float* %pb to <8 x float>*
  store <8 x float> %x, <8 x float>* %vb, align 32
  %i.next = add i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 0
}

; A store runs before the check: rerunning would repeat it. Recover goes on
; here, without the promise.
; CHECK-LABEL: define void @after_store(
; CHECK:         store float 1.0
; CHECK:         call void @__alignguard_report({{.*}}, i64 {{%.*}}, i64 16, i64 0)
; CHECK-NOT:     @llvm.assume
; CHECK:         store float 0.0{{.*}}, align 4
; CHECK-NOT:   define internal void @after_store.alignguard.recover(
define void @after_store(float* %p, float* %out) {
  store float 1.0, float* %out, align 4
  %pi = bitcast float* %p to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %pi, i64 16) ]
  store float 0.0, float* %p, align 16
  ret void
}

; Not an entry point: its callers' calls cannot be rerun from here.
; CHECK-LABEL: define internal void @helper(
; CHECK:         call void @__alignguard_report({{.*}}, i64 {{%.*}}, i64 16, i64 0)
; CHECK-NOT:   define internal void @helper.alignguard.recover(
define internal void @helper(i8* %q) {
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 16) ]
  ret void
}

define void @calls_helper(i8* %q) {
  call void @helper(i8* %q)
  ret void
}

; What the checked pointer feeds in a local callee goes in the copy's own
; clone of the callee, checked in plain recover too: the callee the aligned
; path calls keeps its promises.
; CHECK-LABEL: define void @wrapper(
; CHECK:         tail call void @wrapper.alignguard.recover(
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %pi, i64 64) ], !alignguard.guarded
; CHECK-NEXT:    call void @compute({{float\*|ptr}} align 64 %p, {{i8\*|ptr}} %r)
; CHECK-LABEL: define internal void @wrapper.alignguard.recover(
; CHECK:         call void @__alignguard_report(
; CHECK:         call void @compute.alignguard.recover({{float\*|ptr}} %p, {{i8\*|ptr}} %r)
; The callee's own promise on r is its own (recover in place there).
; CHECK-LABEL: define internal void @compute({{float\*|ptr}} align 64 %q, {{i8\*|ptr}} %r)
; CHECK:         call void @__alignguard_report({{.*}}, i64 16, i64 0)
; CHECK:         store <4 x float> zeroinitializer, {{.*}}, align 64
; The clone, made before the callee was checked, is checked as it is.
; CHECK-LABEL: define internal void @compute.alignguard.recover({{float\*|ptr}} %q, {{i8\*|ptr}} %r)
; CHECK:         call void @__alignguard_report({{.*}}, i64 16, i64 0)
; CHECK:         store <4 x float> zeroinitializer, {{.*}}, align 4
define void @wrapper(float* %p, i8* %r) {
  %pi = bitcast float* %p to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %pi, i64 64) ]
  call void @compute(float* align 64 %p, i8* %r)
  ret void
}

define internal void @compute(float* align 64 %q, i8* %r) {
  call void @llvm.assume(i1 true) [ "align"(i8* %r, i64 16) ]
  %v = bitcast float* %q to <4 x float>*
  store <4 x float> zeroinitializer, <4 x float>* %v, align 64
  ret void
}

; byval's copy is made by the call: the rerun passes it on, not as a tail
; call (the copy's own byval copy would be made in a frame the tail call
; gives up).
%struct.big = type { [8 x i64] }
; CHECK-LABEL: define void @by_value(
; CHECK:       alignguard.fail:
; CHECK-NEXT:    call void @by_value.alignguard.recover({{%struct.big\*|ptr}} byval(%struct.big) align 8 %s, {{i8\*|ptr}} %q)
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @by_value.alignguard.recover(
; CHECK:         call void @__alignguard_report({{.*}}, i64 {{%.*}}, i64 16, i64 0)
define void @by_value(%struct.big* byval(%struct.big) align 8 %s, i8* align 16 %q) {
  ret void
}

; The audit lists a promise once, in the function that made it: the copy's
; (here the reference's type alignment, left unchecked in both) are its.
; AUDIT:     type param-attr ref | argument #0 'r'
; AUDIT:     guarded param-attr ref | argument #1 'q'
; AUDIT-NOT: alignguard.recover
; AUDIT:     summary total=9 {{.*}} type=1
define void @ref(i64* align 8 dereferenceable(16) %r, i8* align 64 %q) {
  ret void
}

declare void @llvm.assume(i1)

; CHECK: attributes [[NOINLINE]] = { noinline }
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
