; An "align" assume bundle becomes a check before the assume; the assume
; moves into the continuation (abort, trap, recover's rerun) or goes (the
; recover copy).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<abort>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,TRAP
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RECOVER

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; ABORT: ; packed @[[SITE:__alignguard_site[.0-9]*]] = [{ i32 3, i32 0, c"scale", c"argument #0 'p'", null, i32 0, i32 0, i64 64, i64 0, null, i32 0, i32 0 }]
; TRAP-NOT: __alignguard_site

define void @scale(float* %p, i64 %n) {
; CHECK-LABEL: define void @scale(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[INT:%.*]] = ptrtoint {{float\*|ptr}} %p to i64
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[INT]], 63
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %[[FAIL:.*]], label %[[OK:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       [[FAIL]]:
; ABORT-NEXT:    call void @__alignguard_report_abort({{.*}}@[[SITE]]{{.*}}, i64 [[INT]], i64 64, i64 0) [[NORETURN:#[0-9]+]]
; ABORT-NEXT:    unreachable
; TRAP-NEXT:     call void @llvm.trap()
; TRAP-NEXT:     unreachable
; Recover: nothing runs before the check, so a failing call reruns in the
; recover copy, and the aligned path keeps the promise.
; RECOVER-NEXT:  tail call void @scale.alignguard.recover({{float\*|ptr}} %p, i64 %n)
; RECOVER-NEXT:  ret void
; CHECK:       [[OK]]:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %p, i64 64) ], !alignguard.guarded
; CHECK:         store float 0.0
; The copy reports and goes on without the promise.
; RECOVER-LABEL: define internal void @scale.alignguard.recover(
; RECOVER-NEXT:  entry:
; RECOVER-NEXT:    [[CINT:%.*]] = ptrtoint {{float\*|ptr}} %p to i64
; RECOVER-NEXT:    [[CLOW:%.*]] = and i64 [[CINT]], 63
; RECOVER-NEXT:    [[CBAD:%.*]] = icmp ne i64 [[CLOW]], 0
; RECOVER-NEXT:    br i1 [[CBAD]], label %[[CFAIL:.*]], label %[[COK:.*]], !prof [[UNLIKELY]]
; RECOVER:       [[CFAIL]]:
; RECOVER-NEXT:    call void @__alignguard_report({{.*}}, i64 [[CINT]], i64 64, i64 0)
; RECOVER-NEXT:    br label %[[COK]]
; RECOVER:       [[COK]]:
; RECOVER-NOT:     call void @llvm.assume
; RECOVER:         store float 0.0
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p, align 4
  ret void
}

; The alignment operand may have any integer width.
define void @narrow(i8* %q) {
; CHECK-LABEL: define void @narrow(
; CHECK:         and i64 {{%.*}}, 15
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 16, i64 0)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %q, i16 16) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i16 16) ]
  ret void
}

; Alignment 1 promises nothing: no check, and the assume stays as it was.
define void @trivial(i8* %q) {
; CHECK-LABEL: define void @trivial(
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %q, i64 1) ]{{$}}
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 1) ]
  ret void
}

declare void @llvm.assume(i1)

; ABORT: declare void @__alignguard_report_abort({{i8\*|ptr}}, i64, i64, i64) [[HOOKATTRS:#[0-9]+]]
; ABORT: attributes [[HOOKATTRS]] = { cold noreturn }
; RECOVER: declare void @__alignguard_report({{i8\*|ptr}}, i64, i64, i64) [[RHOOK:#[0-9]+]]
; RECOVER: attributes [[RHOOK]] = { cold }
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
