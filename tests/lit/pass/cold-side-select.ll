; Under a terminal action (abort, return=N, fallback) a place with several
; checks has one cold block, alignguard.fail, with one hook call: its
; arguments (site descriptor, pointer bits, alignment, offset) are those of
; the first failing check in check order, chosen by a chain of selects on
; each check's own test (the last check is the default: the branch said one
; fails). Equal arguments (here every offset, 0) get no select. No chain of
; culprit blocks, so no chain of calls; under recover the chain stays
; (assume-bundle-many.ll).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<return=-1>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RETURN
; RUN: %opt-ag -passes='align-guard<fallback>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,FALLBACK
;
; That the aligned path then has no frame set-up: cold-exits-codegen.ll.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; The site descriptors, one per check, in check order (a: 64, b: 32, c: 16).
; CHECK: @[[SA:__alignguard_site[.0-9]*]] = private constant {{.*}}, i64 64, i64 0,
; CHECK: @[[SB:__alignguard_site[.0-9]*]] = private constant {{.*}}, i64 32, i64 0,
; CHECK: @[[SC:__alignguard_site[.0-9]*]] = private constant {{.*}}, i64 16, i64 0,

define i32 @three(i8* %a, i8* %b, i8* %c) "alignguard-entry" {
; CHECK-LABEL: define i32 @three(
; CHECK-NEXT:    [[A:%.*]] = ptrtoint {{i8\*|ptr}} %a to i64
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{i8\*|ptr}} %b to i64
; CHECK-NEXT:    [[C:%.*]] = ptrtoint {{i8\*|ptr}} %c to i64
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok, !prof
; CHECK:       alignguard.fail:
; The last but one first: b fails, or else c (the default).
; CHECK-NEXT:    [[BL:%.*]] = and i64 [[B]], 31
; CHECK-NEXT:    [[BBAD:%.*]] = icmp ne i64 [[BL]], 0
; CHECK-NEXT:    [[S1:%.*]] = select i1 [[BBAD]], {{.*}}@[[SB]]{{( to [^,]*)?}}, {{.*}}@[[SC]]{{[ ),]}}
; CHECK-NEXT:    [[P1:%.*]] = select i1 [[BBAD]], i64 [[B]], i64 [[C]]
; CHECK-NEXT:    [[N1:%.*]] = select i1 [[BBAD]], i64 32, i64 16
; Then a, which wins over both.
; CHECK-NEXT:    [[AL:%.*]] = and i64 [[A]], 63
; CHECK-NEXT:    [[ABAD:%.*]] = icmp ne i64 [[AL]], 0
; CHECK-NEXT:    [[S0:%.*]] = select i1 [[ABAD]], {{.*}}@[[SA]]{{( to [^,]*)?}}, {{i8\*|ptr}} [[S1]]
; CHECK-NEXT:    [[P0:%.*]] = select i1 [[ABAD]], i64 [[A]], i64 [[P1]]
; CHECK-NEXT:    [[N0:%.*]] = select i1 [[ABAD]], i64 64, i64 [[N1]]
; ABORT-NEXT:    call void @__alignguard_report_abort({{i8\*|ptr}} [[S0]], i64 [[P0]], i64 [[N0]], i64 0)
; ABORT-NEXT:    unreachable
; RETURN-NEXT:   call void @__alignguard_report({{i8\*|ptr}} [[S0]], i64 [[P0]], i64 [[N0]], i64 0)
; RETURN-NEXT:   ret i32 -1
; FALLBACK-NEXT: call void @__alignguard_fallback({{i8\*|ptr}} [[S0]], i64 [[P0]], i64 [[N0]], i64 0)
; FALLBACK-NEXT: [[R:%.*]] = call i32 @three.alignguard.unaligned({{i8\*|ptr}} %a, {{i8\*|ptr}} %b, {{i8\*|ptr}} %c)
; FALLBACK-NEXT: ret i32 [[R]]
; CHECK-NOT:   alignguard.culprit
; CHECK-NOT:   alignguard.next
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %a, i64 64), "align"({{i8\*|ptr}} %b, i64 32), "align"({{i8\*|ptr}} %c, i64 16) ], !alignguard.guarded
; CHECK-NEXT:    ret i32 0
  call void @llvm.assume(i1 true) [ "align"(i8* %a, i64 64), "align"(i8* %b, i64 32), "align"(i8* %c, i64 16) ]
  ret i32 0
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
