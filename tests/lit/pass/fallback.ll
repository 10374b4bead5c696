; align-guard<fallback>: each instrumented entry point gets an
; assumption-free copy; a failing check records the fallback and returns
; what the copy computes from the same arguments. The copy has no align
; bundles or attributes, accesses lowered to their element's ABI alignment
; (not those of its own stack), and calls copies of the promise-making
; functions it calls, transitively. A check that a side effect can precede
; aborts instead, and says so.
; RUN: %opt-ag -passes='align-guard<fallback>,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt-ag -passes='align-guard<fallback>,align-guard-audit<json;all>' -disable-output %s 2>/dev/null | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define i32 @kernel(float* align 64 %a, float* align 64 %b, i64 %n) {
; CHECK-LABEL: define i32 @kernel({{float\*|ptr}} %a, {{float\*|ptr}} %b, i64 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %tmp = alloca float, align 4
; CHECK-NEXT:    [[A:%.*]] = ptrtoint {{float\*|ptr}} %a to i64
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{float\*|ptr}} %b to i64
; CHECK-NEXT:    [[AB:%.*]] = or i64 [[B]], [[A]]
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[AB]], 63
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %alignguard.fail, label %alignguard.ok, !prof
; One cold block, one fallback call (the table hook: the runtime records a
; if a fails, else b).
; CHECK:       alignguard.fail:
; CHECK-NEXT:    call void @__alignguard_fallback_first(i64 [[A]], i64 [[B]], i64 0, i64 0, {{.*}}@__alignguard_site{{.*}}, i64 2)
; CHECK-NEXT:    [[R:%.*]] = call i32 @kernel.alignguard.unaligned({{float\*|ptr}} %a, {{float\*|ptr}} %b, i64 %n) [[NOINLINE:#[0-9]+]]
; CHECK-NEXT:    ret i32 [[R]]
; CHECK-NOT:   alignguard.culprit
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %a, i64 64), "align"({{float\*|ptr}} %b, i64 64) ], !alignguard.guarded
; The aligned path keeps its promises.
; CHECK:         load <8 x float>, {{.*}}, align 32
; CHECK:         store <8 x float> {{.*}}, align 32
; CHECK:         call void @helper(
entry:
  %tmp = alloca float, align 4
  store float 0.0, float* %tmp
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds float, float* %a, i64 %i
  %va = bitcast float* %pa to <8 x float>*
  %x = load <8 x float>, <8 x float>* %va, align 32
  %pb = getelementptr inbounds float, float* %b, i64 %i
  %vb = bitcast float* %pb to <8 x float>*
  store <8 x float> %x, <8 x float>* %vb, align 32
  %vq = bitcast float* %pb to <4 x float>*
  call void @helper(float* %pa, <4 x float>* %vq)
  %i.next = add i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 0
}

; WARN: warning: align-guard: in function 'helper': fallback cannot be used for the check of argument #0 'p': it is not an entry point; a violation there aborts
define internal void @helper(float* align 32 %p, <4 x float>* %q) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  %v = bitcast float* %p to <4 x float>*
  %x = load <4 x float>, <4 x float>* %v, align 16
  %pp = bitcast float* %p to i8**
  %inner = load i8*, i8** %pp, align 8, !align !0
  %own = alloca <4 x float>, align 16
  store <4 x float> %x, <4 x float>* %own, align 16
  %raw = bitcast <4 x float>* %q to i8*
  call void @llvm.memset.p0i8.i64(i8* align 16 %raw, i8 0, i64 16, i1 false)
  %m = call <4 x float> @llvm.masked.load.v4f32.p0v4f32(<4 x float>* %q, i32 16, <4 x i1> <i1 true, i1 true, i1 false, i1 false>, <4 x float> zeroinitializer)
  call void @llvm.masked.store.v4f32.p0v4f32(<4 x float> %m, <4 x float>* %q, i32 16, <4 x i1> <i1 true, i1 true, i1 false, i1 false>)
  ret void
}
!0 = !{i64 16}

; WARN: warning: align-guard: in function 'after_store': fallback cannot be used for the check of argument #1 'p': fallback-unsafe: a store can run before the check, so running the copy would repeat it; a violation there aborts
define void @after_store(float* %out, float* %p) {
; CHECK-LABEL: define void @after_store(
; CHECK:         call void @__alignguard_report_abort({{.*}}, i64 16, i64 0)
  store float 1.0, float* %out
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 16) ]
  ret void
}

; A store to the function's own stack, and an error path that returns
; before the check, are not side effects the copy could repeat.
define i32 @own_stack_only(float* %p, i32 %n) {
; CHECK-LABEL: define i32 @own_stack_only(
; CHECK:         call void @__alignguard_fallback(
; CHECK-NEXT:    call i32 @own_stack_only.alignguard.unaligned(
entry:
  %slot = alloca i32, align 4
  store i32 %n, i32* %slot
  %ok = icmp sgt i32 %n, 0
  br i1 %ok, label %go, label %error
error:
  call void @set_error()
  ret i32 -1
go:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 16) ]
  ret i32 0
}

; A call to a function defined here that only reads (TVM's argument
; checks, before the pipeline has marked them readonly) is no side effect;
; one to a function that writes through its argument is.
define internal i1 @reads_only(i32* %p) {
  %slot = alloca i32, align 4
  %v = load i32, i32* %p
  store i32 %v, i32* %slot
  %ok = icmp sgt i32 %v, 0
  ret i1 %ok
}
define internal void @writes(i32* %p) {
  store i32 1, i32* %p
  ret void
}

define i32 @after_read_call(float* %p, i32* %n) {
; CHECK-LABEL: define i32 @after_read_call(
; CHECK:         call void @__alignguard_fallback(
  %ok = call i1 @reads_only(i32* %n)
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 16) ]
  ret i32 0
}

; WARN: warning: align-guard: in function 'after_write_call': fallback cannot be used for the check of argument #0 'p': fallback-unsafe: a call can run before the check
define i32 @after_write_call(float* %p, i32* %n) {
; CHECK-LABEL: define i32 @after_write_call(
; CHECK:         call void @__alignguard_report_abort(
  call void @writes(i32* %n)
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 16) ]
  ret i32 0
}

; The copies: internal, left alone by align-guard, no promise left.
; CHECK-LABEL: define internal i32 @kernel.alignguard.unaligned(
; CHECK-SAME:    {{float\*|ptr}} %a, {{float\*|ptr}} %b, i64 %n) [[COPY:#[0-9]+]]
; CHECK-NOT:     __alignguard
; CHECK-NOT:     llvm.assume
; CHECK:         store float 0.0{{.*}}, align 4
; CHECK:         load <8 x float>, {{.*}}, align 4
; CHECK:         store <8 x float> {{.*}}, align 4
; CHECK:         call void @helper.alignguard.unaligned(
; CHECK-LABEL: define internal void @helper.alignguard.unaligned(
; CHECK-SAME:    {{float\*|ptr}} %p, {{.*}} %q) [[COPY]]
; CHECK-NOT:     llvm.assume
; CHECK:         load <4 x float>, {{.*}}, align 4{{$}}
; CHECK:         %inner = load {{i8\*|ptr}}, {{.*}}, align 8{{$}}
; Its own stack is aligned by construction and keeps its alignment.
; CHECK:         store <4 x float> %x, {{.*}} %own, align 16
; CHECK:         call void @llvm.memset.{{.*}}({{i8\*|ptr}} align 1 %raw
; CHECK:         call <4 x float> @llvm.masked.load.v4f32.{{.*}}({{(<4 x float>\*|ptr) %q, i32 4|ptr align 4 %q}}, <4 x i1>
; CHECK:         call void @llvm.masked.store.v4f32.{{.*}}(<4 x float> %m, {{(<4 x float>\*|ptr) %q, i32 4|ptr align 4 %q}}, <4 x i1>

; CHECK-DAG: attributes [[NOINLINE]] = { noinline }
; CHECK-DAG: attributes [[COPY]] = { "no-align-guard" }

; AUDIT: guarded param-attr kernel | argument #0 'a' | arg=0 align=64 offset=0 | - | None
; AUDIT: guarded assume-bundle after_store | argument #1 'p' | arg=1 align=16 offset=0 | - | fallback-unsafe: a store can run before the check, so running the copy would repeat it

declare void @set_error()
declare void @llvm.assume(i1)
declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)
declare <4 x float> @llvm.masked.load.v4f32.p0v4f32(<4 x float>*, i32, <4 x i1>, <4 x float>)
declare void @llvm.masked.store.v4f32.p0v4f32(<4 x float>, <4 x float>*, i32, <4 x i1>)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
