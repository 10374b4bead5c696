; The instrumented module survives default<O2> in the same opt process, as
; the input does. LLVM 14 reads an "align" bundle's alignment as log2 of it
; (ValueTracking, computeKnownBits): alignment 0 crashes it in
; APInt::setBitsSlowCase as soon as something asks for the known bits of
; the pointer below the bundle. The input never asks; the next check does
; (it reads %g, derived from %p), so the bundle must not stay past its own
; check. Nor may a run-time alignment that IPSCCP makes 0 after the pass
; (@inner is called with alignment 0): it stays as select(power of two,
; %a, 1). LLVM 15 on reads only power-of-two alignments; the test runs on
; every version. After default<O2>, a failing side that ends the call
; tail-calls a thunk (ColdExitsPass.h): the hook is called there.
; RUN: %opt-ag -passes='align-guard<abort>,default<O2>,verify' -S %s | FileCheck %s -DHOOK=__alignguard_report_abort.thunk.i32
; RUN: %opt-ag -passes='align-guard<trap>,default<O2>,verify' -S %s | FileCheck %s -DHOOK=llvm.trap
; RUN: %opt-ag -passes='align-guard<return=-1>,default<O2>,verify' -S %s 2>/dev/null | FileCheck %s -DHOOK=__alignguard_report.thunk.i32.m1
; RUN: %opt-ag -passes='align-guard<fallback>,default<O2>,verify' -S %s 2>/dev/null | FileCheck %s -DHOOK=__alignguard_fallback.thunk.i32.0

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; Both checks survive, at one place (the assumes are adjacent): the null
; test of %p, the 16-byte test of %g, one call on the failing side.
; CHECK-LABEL: define {{.*}}i32 @zero_then_gep(
; CHECK:         icmp ne {{.*}}%p, null
; CHECK:         and i64 %{{.*}}, 15
; CHECK:         call {{.*}}@[[HOOK]]{{(\.[0-9]+)?}}(
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{.*}}%g, i64 16) ]
define i32 @zero_then_gep(i8* %p, i64 %n) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 0) ]
  %g = getelementptr inbounds i8, i8* %p, i64 %n
  call void @llvm.assume(i1 true) [ "align"(i8* %g, i64 16) ]
  ret i32 0
}

; @inner is no entry point: its checks abort (or trap) whatever the action.
; CHECK-LABEL: define {{.*}}i32 @outer(
; CHECK:         icmp ne {{.*}}%p, null
; CHECK:         and i64 %{{.*}}, 15
; CHECK:         call {{.*}}@{{__alignguard_report_abort.thunk.i32|llvm.trap}}(
define internal i32 @inner(i8* %p, i64 %a, i64 %n) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 %a) ]
  %g = getelementptr inbounds i8, i8* %p, i64 %n
  call void @llvm.assume(i1 true) [ "align"(i8* %g, i64 16) ]
  ret i32 0
}

define i32 @outer(i8* %p, i64 %n) {
  %r = call i32 @inner(i8* %p, i64 0, i64 %n)
  ret i32 %r
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
