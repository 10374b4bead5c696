; Return promises: `align N` on a call's result (clang's assume_aligned and
; constant alloc_align) or on its callee's declaration is checked right
; after the call, named after the callee. The `align` leaves the call and
; the declaration (ValueTracking reads both, and would fold the check) and
; comes back as a guarded assume in the continuation; other calls of the
; callee keep the promise on their own call site. An invoke is checked in
; a normal destination of its own. Null passes every check.
; RUN: %opt-ag -passes='align-guard,verify' -S %s 2>%t.err | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s 2>/dev/null | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RECOVER
; A second run adds nothing: the guarded assumes are skipped.
; RUN: %opt-ag -passes='align-guard,verify' -S %s 2>/dev/null > %t.once.ll
; RUN: %opt-ag -passes='align-guard,verify' -S %t.once.ll 2>/dev/null | grep -c alignguard.fail: | FileCheck %s --check-prefix=ONCE
; RUN: grep -c alignguard.fail: %t.once.ll | FileCheck %s --check-prefix=ONCE
; ONCE: 4
; The remarks say why the others get no check.
; RUN: %opt-ag -passes='align-guard' -pass-remarks-analysis=align-guard -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; And the audit calls every checked one guarded afterwards.
; RUN: %opt-ag -passes='align-guard,align-guard-audit<all;system>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=AUDIT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

declare i8* @get()
declare align 32 i8* @get_decl()
declare noalias i8* @aligned_alloc(i64, i64)
declare align 8 dereferenceable(16) i8* @ref()
declare i32 @__gxx_personality_v0(...)
declare void @use(i8*)

; The site's kind is 3, ALIGNGUARD_KIND_RETURN_ATTR.
; CHECK-DAG: ; packed @__alignguard_site{{[.0-9]*}} = [{ i32 {{[0-9]+}}, i32 3, {{.*}}c"the pointer returned by 'get'"{{.*}}, i64 64, i64 0

; The declaration keeps nothing: its one call now carries the promise.
; CHECK-LABEL: declare {{i8\*|ptr}} @get_decl()

; CHECK-LABEL: define void @callsite(
; CHECK:         %p = call {{i8\*|ptr}} @get()
; CHECK-NEXT:    %ag.ptr = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[M:%[0-9]+]] = and i64 %ag.ptr, 63
; CHECK-NEXT:    %ag.misaligned = icmp ne i64 [[M]], 0
; CHECK-NEXT:    br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 %ag.ptr, i64 64, i64 0)
; RECOVER:       call void @__alignguard_report({{.*}}, i64 %ag.ptr, i64 64, i64 0)
; CHECK:       alignguard.ok:
; ABORT-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 64) ], !alignguard.guarded ![[RET_NOTE:[0-9]+]]
; RECOVER-NOT:   @llvm.assume
; CHECK:         call void @use({{i8\*|ptr}} %p)
define void @callsite() {
  %p = call align 64 i8* @get()
  call void @use(i8* %p)
  ret void
}

; CHECK-LABEL: define void @declaration(
; CHECK:         %p = call {{i8\*|ptr}} @get_decl()
; CHECK-NEXT:    %ag.ptr = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[M:%[0-9]+]] = and i64 %ag.ptr, 31
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 %ag.ptr, i64 32, i64 0)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 32) ], !alignguard.guarded
define void @declaration() {
  %p = call i8* @get_decl()
  call void @use(i8* %p)
  ret void
}

; Both the normal and the unwind edge of the invoke lead on; the normal
; destination is shared with another block, so the check gets a block of
; its own on the invoke's edge.
; CHECK-LABEL: define void @invoked(
; CHECK:         %p = invoke {{i8\*|ptr}} @get()
; CHECK-NEXT:            to label %[[EDGE:.*]] unwind label %lp
; CHECK:       [[EDGE]]:
; CHECK-NEXT:    %ag.ptr = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[M:%[0-9]+]] = and i64 %ag.ptr, 15
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 %ag.ptr, i64 16, i64 0)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 16) ], !alignguard.guarded
; CHECK:       join:
; CHECK-NEXT:    %q = phi {{i8\*|ptr}} [ null, %entry ], [ %p, %alignguard.ok ]
define void @invoked(i1 %c) personality i32 (...)* @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %join
call:
  %p = invoke align 16 i8* @get() to label %join unwind label %lp
join:
  %q = phi i8* [ null, %entry ], [ %p, %call ]
  call void @use(i8* %q)
  ret void
lp:
  %l = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %l
}

; A promise about the result feeds an internal callee's `align`: under
; recover that goes too, as every promise resting on the checked pointer.
; CHECK-LABEL: define void @feeds(
; ABORT:         call void @inner({{i8\*|ptr}} align 64 %p)
; RECOVER:       call void @inner({{i8\*|ptr}} %p)
; ABORT-LABEL:   define internal void @inner({{i8\*|ptr}} align 64 %x)
; RECOVER-LABEL: define internal void @inner({{i8\*|ptr}} %x)
define void @feeds() {
  %p = call align 64 i8* @get()
  call void @inner(i8* align 64 %p)
  ret void
}
define internal void @inner(i8* align 64 %x) {
  ret void
}

; The C library's aligned_alloc: LLVM knows its alignment whatever the
; attributes say, and would fold a check away; none is made.
; REMARK: remark: {{.*}}return-attr on the pointer returned by 'aligned_alloc' gets no check: the library's guarantee for 'aligned_alloc', which LLVM relies on whatever the attributes say: a check would be folded away
; CHECK-LABEL: define void @library(
; CHECK-NEXT:    %p = call noalias align 64 {{i8\*|ptr}} @aligned_alloc(i64 64, i64 256)
; CHECK-NEXT:    call void @use(
define void @library() {
  %p = call noalias align 64 i8* @aligned_alloc(i64 64, i64 256)
  call void @use(i8* %p)
  ret void
}

; A reference's type alignment (`align 8 dereferenceable(16)`) is not
; checked by default.
; REMARK: remark: {{.*}}return-attr on the pointer returned by 'ref' gets no check: the alignment of a reference's type
; CHECK-LABEL: define void @reference(
; CHECK-NEXT:    %p = call {{i8\*|ptr}} @ref()
; CHECK-NEXT:    call void @use(
define void @reference() {
  %p = call i8* @ref()
  call void @use(i8* %p)
  ret void
}

; A musttail call's result is returned at once: no check fits between.
; WARN: warning: align-guard: in function 'tail': return-attr on the pointer returned by 'get' left unchecked: a musttail call's result is returned at once: no check can run between the call and the return
; CHECK-LABEL: define {{i8\*|ptr}} @tail(
; CHECK-NEXT:    %p = musttail call align 64 {{i8\*|ptr}} @get()
define i8* @tail() {
  %p = musttail call align 64 i8* @get()
  ret i8* %p
}

; A function's own return promise is checked where callers rely on it.
; REMARK: remark: {{.*}}return-attr on the pointer returned by 'own' gets no check: a function's own return promise is checked after each call that relies on it
; CHECK-LABEL: define align 16 {{i8\*|ptr}} @own(
; CHECK-NOT:     alignguard
; CHECK:         ret
define align 16 i8* @own(i8* %p) {
  ret i8* %p
}

; ABORT: ![[RET_NOTE]] = !{!"return-attr"}

; AUDIT: guarded {{ *}}return-attr {{ *}}callsite {{ *}}the pointer returned by 'get'
; AUDIT: guarded {{ *}}return-attr {{ *}}declaration {{ *}}the pointer returned by 'get_decl'
; AUDIT: guarded {{ *}}return-attr {{ *}}invoked {{ *}}the pointer returned by 'get'
; AUDIT: guarded {{ *}}return-attr {{ *}}feeds
; AUDIT: unchecked {{ *}}return-attr {{ *}}library {{ *}}the pointer returned by 'aligned_alloc' {{.*}} the library's guarantee for 'aligned_alloc'
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
