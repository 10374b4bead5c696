; Adjacent promises share one place (CheckPlanner's assumePlace): clang -O0
; leaves only spills, reloads, casts and lifetime markers between the
; assumes of __builtin_assume_aligned on each of a kernel's pointers. A check
; moves past those unobserved (IRShapes' checkCanMovePast), so one test and
; one branch check them all, and the earlier assumes move down to after it:
; no promise comes before its check. Anything else between (a call, a load
; of other memory, an assume that is no promise) keeps the places apart.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: %opt-ag -passes='align-guard<deferred>,verify' -S %s | FileCheck %s --check-prefix=MARK

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-LABEL: define void @spills(
; CHECK:         %ag.ptr = ptrtoint {{.*}}%a.reload to i64
; CHECK-NEXT:    %ag.ptr1 = ptrtoint {{.*}}%b.reload to i64
; CHECK-NEXT:    [[A:%.*]] = and i64 %ag.ptr, 63
; CHECK-NEXT:    [[B:%.*]] = and i64 %ag.ptr1, 31
; CHECK-NEXT:    %ag.terms = or i64 [[A]], [[B]]
; CHECK-NEXT:    %ag.misaligned = icmp ne i64 %ag.terms, 0
; CHECK-NEXT:    br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%a.reload, i64 64) ], !alignguard.guarded
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%b.reload, i64 32) ], !alignguard.guarded
; CHECK-NEXT:    ret void
; CHECK-NOT:   alignguard.fail
; RECOVER-LABEL: define void @spills(
; RECOVER:       alignguard.culprit:
; RECOVER-NEXT:    call void @__alignguard_report({{.*}}, i64 %ag.ptr, i64 64, i64 0)
; RECOVER:       alignguard.culprit2:
; RECOVER-NEXT:    call void @__alignguard_report({{.*}}, i64 %ag.ptr1, i64 32, i64 0)
; RECOVER-NOT:   llvm.assume
; RECOVER:       ret void
; MARK-LABEL: define void @spills(
; MARK:         store {{.*}}%a.reload, {{.*}}%A
; MARK:         %b.reload = load
; MARK-NEXT:    call void @alignguard.deferred.check(i32 0) {{.*}}[ "alignguard.checks"({{.*}}%a.reload, i64 64, {{.*}}%b.reload, i64 32,
; MARK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%a.reload, i64 64) ]
; MARK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%b.reload, i64 32) ]
; MARK-NOT:     alignguard.deferred.check
; MARK:         ret void
define void @spills(i8* %a, i8* %b) {
  %a.addr = alloca i8*
  %b.addr = alloca i8*
  %A = alloca i8*
  store i8* %a, i8** %a.addr
  store i8* %b, i8** %b.addr
  %a.reload = load i8*, i8** %a.addr
  call void @llvm.assume(i1 true) [ "align"(i8* %a.reload, i64 64) ]
  store i8* %a.reload, i8** %A
  %A.raw = bitcast i8** %A to i8*
  call void @llvm.lifetime.start.p0i8(i64 8, i8* %A.raw)
  %b.reload = load i8*, i8** %b.addr
  call void @llvm.assume(i1 true) [ "align"(i8* %b.reload, i64 32) ]
  ret void
}

; A legacy condition and a bundle, adjacent: one place too.
; CHECK-LABEL: define void @legacy_then_bundle(
; CHECK:         br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%p, i64 16) ], !alignguard.guarded
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%q, i64 64) ], !alignguard.guarded
; CHECK-NOT:   alignguard.fail
; CHECK:         ret void
define void @legacy_then_bundle(i8* %p, i8* %q) {
  %int = ptrtoint i8* %p to i64
  %rem = and i64 %int, 15
  %ok = icmp eq i64 %rem, 0
  call void @llvm.assume(i1 %ok)
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 64) ]
  ret void
}

; A call could stop the program, or see what was written: two places.
; CHECK-LABEL: define void @call_between(
; CHECK:       alignguard.fail:
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%p, i64 64) ]
; CHECK-NEXT:    call void @g()
; CHECK:       alignguard.fail{{[0-9]+}}:
define void @call_between(i8* %p, i8* %q) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  call void @g()
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 64) ]
  ret void
}

; A load of memory that is not the function's own could fault: two places.
; CHECK-LABEL: define void @load_between(
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%p, i64 64) ]
; CHECK-NEXT:    %q = load
; CHECK:       alignguard.fail{{[0-9]+}}:
define void @load_between(i8* %p, i8** %pq) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  %q = load i8*, i8** %pq
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 64) ]
  ret void
}

; An assume that is no promise (%p == %q) would let the optimiser fold the
; check of %p if it came first: it stays after that check.
; CHECK-LABEL: define void @other_assume_between(
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%p, i64 64) ]
; CHECK-NEXT:    %same = icmp eq
; CHECK-NEXT:    call void @llvm.assume(i1 %same)
; CHECK:       alignguard.fail{{[0-9]+}}:
define void @other_assume_between(i8* %p, i8* %q, i8* %r) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  %same = icmp eq i8* %p, %q
  call void @llvm.assume(i1 %same)
  call void @llvm.assume(i1 true) [ "align"(i8* %r, i64 64) ]
  ret void
}

declare void @g()
declare void @llvm.assume(i1)
declare void @llvm.lifetime.start.p0i8(i64, i8*)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
