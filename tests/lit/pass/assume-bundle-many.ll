; All "align" bundles of one assume are checked with one branch. On the cold
; side, under abort (and return=N, fallback: cold-side-select.ll) one call
; reports the first that failed (the runtime finds it in the place's table
; of descriptors); in recover
; mode the cold side tests them one by one and every failing pointer is
; reported (in the recover copy a failing call reruns in). The other
; bundles stay. In the recover copy only the checked "align" bundles go.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s | FileCheck %s --check-prefix=TRAP

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @many(i8* %a, i8* %b) {
; CHECK-LABEL: define void @many(
; CHECK-NEXT:    [[A:%.*]] = ptrtoint {{i8\*|ptr}} %a to i64
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{i8\*|ptr}} %b to i64
; One test for both masks: the terms OR-ed, compared with 0 once.
; CHECK-NEXT:    [[AL:%.*]] = and i64 [[A]], 63
; CHECK-NEXT:    [[BL:%.*]] = and i64 [[B]], 31
; CHECK-NEXT:    [[TERMS:%.*]] = or i64 [[AL]], [[BL]]
; CHECK-NEXT:    [[ANY:%.*]] = icmp ne i64 [[TERMS]], 0
; CHECK-NEXT:    br i1 [[ANY]], label %alignguard.fail, label %alignguard.ok, !prof
; CHECK:       alignguard.fail:
; Abort: one call of the table hook with both descriptors, in one table,
; and both pointers: the runtime reports a's if a fails, else b's (the
; branch said one of them does).
; ABORT-NEXT:    call void @__alignguard_report_first_abort(i64 [[A]], i64 [[B]], i64 0, i64 0, {{.*}}@[[TABLE:__alignguard_site[.0-9]*]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64 2)
; ABORT-NEXT:    unreachable
; ABORT-NOT:     select
; ABORT-NOT:     alignguard.culprit
; ABORT-NOT:     alignguard.next
; Recover: the call reruns in the recover copy, which reports.
; RECOVER-NEXT:  tail call void @many.alignguard.recover({{i8\*|ptr}} %a, {{i8\*|ptr}} %b)
; RECOVER-NEXT:  ret void
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %a, i64 64), "nonnull"({{i8\*|ptr}} %a), "align"({{i8\*|ptr}} %b, i64 32), "ignore"() ], !alignguard.guarded
; CHECK-NEXT:    ret void
; The copy: each failing pointer is reported, one by one; then only the
; checked "align" bundles go.
; RECOVER-LABEL: define internal void @many.alignguard.recover(
; RECOVER-NEXT:    [[CA:%.*]] = ptrtoint {{i8\*|ptr}} %a to i64
; RECOVER-NEXT:    [[CB:%.*]] = ptrtoint {{i8\*|ptr}} %b to i64
; RECOVER:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok, !prof
; RECOVER:       alignguard.fail:
; RECOVER-NEXT:    [[CAL2:%.*]] = and i64 [[CA]], 63
; RECOVER-NEXT:    [[CABAD2:%.*]] = icmp ne i64 [[CAL2]], 0
; RECOVER-NEXT:  br i1 [[CABAD2]], label %alignguard.culprit, label %alignguard.next
; RECOVER:       alignguard.culprit:
; RECOVER-NEXT:  call void @__alignguard_report({{.*}}, i64 [[CA]], i64 64, i64 0)
; RECOVER-NEXT:  br label %alignguard.next
; RECOVER:       alignguard.next:
; RECOVER-NEXT:  [[BL2:%.*]] = and i64 [[CB]], 31
; RECOVER-NEXT:  [[BBAD2:%.*]] = icmp ne i64 [[BL2]], 0
; RECOVER-NEXT:  br i1 [[BBAD2]], label %[[CULPRIT_B:[^ ,]*]], label %[[NEXT_B:[^ ,]*]]
; RECOVER:       [[CULPRIT_B]]:
; RECOVER-NEXT:  call void @__alignguard_report({{.*}}, i64 [[CB]], i64 32, i64 0)
; RECOVER:       [[NEXT_B]]:
; RECOVER-NEXT:  br label %alignguard.ok
; RECOVER:       alignguard.ok:
; RECOVER-NEXT:  call void @llvm.assume(i1 true) [ "nonnull"({{i8\*|ptr}} %a), "ignore"() ]
; RECOVER-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %a, i64 64), "nonnull"(i8* %a), "align"(i8* %b, i64 32), "ignore"() ]
  ret void
}

; A trap does not say which pointer failed: no search on the cold side.
; TRAP-LABEL: define void @many(
; TRAP:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok
; TRAP:       alignguard.fail:
; TRAP-NEXT:    call void @llvm.trap()
; TRAP-NEXT:    unreachable

; Pointers with the same mask share one test: ((p | q) & 15) != 0.
define void @same_mask(i8* %p, i8* %q) {
; CHECK-LABEL: define void @same_mask(
; CHECK-NEXT:    [[P:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[Q:%.*]] = ptrtoint {{i8\*|ptr}} %q to i64
; CHECK-NEXT:    [[PQ:%.*]] = or i64 [[Q]], [[P]]
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[PQ]], 15
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %alignguard.fail, label %alignguard.ok
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 16), "align"(i8* %q, i64 16) ]
  ret void
}

; Bundles that are not "align" are not alignment promises: nothing changes.
define void @others(i8* %a) {
; CHECK-LABEL: define void @others(
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "nonnull"({{i8\*|ptr}} %a), "dereferenceable"({{i8\*|ptr}} %a, i64 16) ]{{$}}
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "nonnull"(i8* %a), "dereferenceable"(i8* %a, i64 16) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
