; Under a terminal action (abort, return=N, fallback) a place with several
; checks has one cold block, alignguard.fail, with one hook call. No chain
; of culprit blocks, so no chain of calls; under recover the chain stays
; (assume-bundle-many.ll).
; - 2 to 4 checks by constant masks: the place's descriptors are one
;   table (alignguard_site, in check order; decoded here by
;   tests/tools/packed-sites.py) and the table hook gets the table,
;   the count and every pointer (0 past the count); the runtime finds the
;   first that fails (runtime tests: RuntimeTest.cpp, ReportFirst*).
; - Otherwise (here five checks): the arguments of the one-check hook (site
;   descriptor, pointer bits, alignment, offset) are those of the first
;   failing check in check order, chosen by a chain of selects on each
;   check's own test (the last check is the default: the branch said one
;   fails). Equal arguments (here every offset, 0) get no select.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<return=-1>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RETURN
; RUN: %opt-ag -passes='align-guard<fallback>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,FALLBACK
;
; That the aligned path then has no frame set-up: cold-exits-codegen.ll.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; @three's table: its three descriptors in check order (a: 64, b: 32, c: 16).
; CHECK: ; packed @[[T:__alignguard_site[.0-9]*]] = [{ {{.*}}, i64 64, i64 0, {{.*}} }, { {{.*}}, i64 32, i64 0, {{.*}} }, { {{.*}}, i64 16, i64 0, {{.*}} }]
; @five's descriptors, one per check (d: 8, e: 4 last).
; CHECK: ; packed @[[SA:__alignguard_site[.0-9]*]] = [{{.*}}, i64 64, i64 0,
; CHECK: ; packed @[[SB:__alignguard_site[.0-9]*]] = [{{.*}}, i64 32, i64 0,
; CHECK: ; packed @[[SC:__alignguard_site[.0-9]*]] = [{{.*}}, i64 16, i64 0,
; CHECK: ; packed @[[SD:__alignguard_site[.0-9]*]] = [{{.*}}, i64 8, i64 0,
; CHECK: ; packed @[[SE:__alignguard_site[.0-9]*]] = [{{.*}}, i64 4, i64 0,

define i32 @three(i8* %a, i8* %b, i8* %c) "alignguard-entry" {
; CHECK-LABEL: define i32 @three(
; CHECK-NEXT:    [[A:%.*]] = ptrtoint {{i8\*|ptr}} %a to i64
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{i8\*|ptr}} %b to i64
; CHECK-NEXT:    [[C:%.*]] = ptrtoint {{i8\*|ptr}} %c to i64
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok, !prof
; CHECK:       alignguard.fail:
; ABORT-NEXT:    call void @__alignguard_report_first_abort(i64 [[A]], i64 [[B]], i64 [[C]], i64 0, {{.*}}@[[T]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64 3)
; ABORT-NEXT:    unreachable
; RETURN-NEXT:   call void @__alignguard_report_first(i64 [[A]], i64 [[B]], i64 [[C]], i64 0, {{.*}}@[[T]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64 3)
; RETURN-NEXT:   ret i32 -1
; FALLBACK-NEXT: call void @__alignguard_fallback_first(i64 [[A]], i64 [[B]], i64 [[C]], i64 0, {{.*}}@[[T]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64 3)
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

define i32 @five(i8* %a, i8* %b, i8* %c, i8* %d, i8* %e) "alignguard-entry" {
; CHECK-LABEL: define i32 @five(
; CHECK-NEXT:    [[A:%.*]] = ptrtoint {{i8\*|ptr}} %a to i64
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{i8\*|ptr}} %b to i64
; CHECK-NEXT:    [[C:%.*]] = ptrtoint {{i8\*|ptr}} %c to i64
; CHECK-NEXT:    [[D:%.*]] = ptrtoint {{i8\*|ptr}} %d to i64
; CHECK-NEXT:    [[E:%.*]] = ptrtoint {{i8\*|ptr}} %e to i64
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok, !prof
; CHECK:       alignguard.fail:
; The last but one first: d fails, or else e (the default).
; CHECK-NEXT:    [[DL:%.*]] = and i64 [[D]], 7
; CHECK-NEXT:    [[DBAD:%.*]] = icmp ne i64 [[DL]], 0
; CHECK-NEXT:    [[S3:%.*]] = select i1 [[DBAD]], {{.*}}@[[SD]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, {{.*}}@[[SE]]{{[ ),]}}
; CHECK-NEXT:    [[P3:%.*]] = select i1 [[DBAD]], i64 [[D]], i64 [[E]]
; CHECK-NEXT:    [[N3:%.*]] = select i1 [[DBAD]], i64 8, i64 4
; Then c, b and a, each winning over those after it.
; CHECK-NEXT:    [[CL:%.*]] = and i64 [[C]], 15
; CHECK-NEXT:    [[CBAD:%.*]] = icmp ne i64 [[CL]], 0
; CHECK-NEXT:    [[S2:%.*]] = select i1 [[CBAD]], {{.*}}@[[SC]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, {{i8\*|ptr}} [[S3]]
; CHECK-NEXT:    [[P2:%.*]] = select i1 [[CBAD]], i64 [[C]], i64 [[P3]]
; CHECK-NEXT:    [[N2:%.*]] = select i1 [[CBAD]], i64 16, i64 [[N3]]
; CHECK-NEXT:    [[BL:%.*]] = and i64 [[B]], 31
; CHECK-NEXT:    [[BBAD:%.*]] = icmp ne i64 [[BL]], 0
; CHECK-NEXT:    [[S1:%.*]] = select i1 [[BBAD]], {{.*}}@[[SB]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, {{i8\*|ptr}} [[S2]]
; CHECK-NEXT:    [[P1:%.*]] = select i1 [[BBAD]], i64 [[B]], i64 [[P2]]
; CHECK-NEXT:    [[N1:%.*]] = select i1 [[BBAD]], i64 32, i64 [[N2]]
; CHECK-NEXT:    [[AL:%.*]] = and i64 [[A]], 63
; CHECK-NEXT:    [[ABAD:%.*]] = icmp ne i64 [[AL]], 0
; CHECK-NEXT:    [[S0:%.*]] = select i1 [[ABAD]], {{.*}}@[[SA]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, {{i8\*|ptr}} [[S1]]
; CHECK-NEXT:    [[P0:%.*]] = select i1 [[ABAD]], i64 [[A]], i64 [[P1]]
; CHECK-NEXT:    [[N0:%.*]] = select i1 [[ABAD]], i64 64, i64 [[N1]]
; ABORT-NEXT:    call void @__alignguard_report_abort({{i8\*|ptr}} [[S0]], i64 [[P0]], i64 [[N0]], i64 0)
; ABORT-NEXT:    unreachable
; RETURN-NEXT:   call void @__alignguard_report({{i8\*|ptr}} [[S0]], i64 [[P0]], i64 [[N0]], i64 0)
; RETURN-NEXT:   ret i32 -1
; FALLBACK-NEXT: call void @__alignguard_fallback({{i8\*|ptr}} [[S0]], i64 [[P0]], i64 [[N0]], i64 0)
; FALLBACK-NEXT: [[R:%.*]] = call i32 @five.alignguard.unaligned(
; FALLBACK-NEXT: ret i32 [[R]]
; CHECK-NOT:   alignguard.culprit
; CHECK:       alignguard.ok:
  call void @llvm.assume(i1 true) [ "align"(i8* %a, i64 64), "align"(i8* %b, i64 32), "align"(i8* %c, i64 16), "align"(i8* %d, i64 8), "align"(i8* %e, i64 4) ]
  ret i32 0
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
