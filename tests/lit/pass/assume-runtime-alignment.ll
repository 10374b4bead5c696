; An alignment known only at run time: the check tests `p & (a-1)` when a is
; a power of two and, as LangRef says of any other value, that p is null.
; The site records alignment 0; the hook receives the value.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK: ; packed @[[SITE:__alignguard_site[.0-9]*]] = [{{.*}} i64 0, i64 0, null, i32 0, i32 0 }]

define void @dyn(i8* %p, i32 %a) {
; CHECK-LABEL: define void @dyn(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[A:%.*]] = zext i32 %a to i64
; CHECK-NEXT:    [[MASK:%.*]] = sub i64 [[A]], 1
; CHECK-NEXT:    [[NZ:%.*]] = icmp ne i64 [[A]], 0
; CHECK-NEXT:    [[AM:%.*]] = and i64 [[A]], [[MASK]]
; CHECK-NEXT:    [[ONEBIT:%.*]] = icmp eq i64 [[AM]], 0
; CHECK-NEXT:    [[POW2:%.*]] = and i1 [[NZ]], [[ONEBIT]]
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[INT]], [[MASK]]
; CHECK-NEXT:    [[MIS:%.*]] = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    [[NONNULL:%.*]] = icmp ne i64 [[INT]], 0
; CHECK-NEXT:    [[BAD:%.*]] = select i1 [[POW2]], i1 [[MIS]], i1 [[NONNULL]]
; CHECK-NEXT:    br i1 [[BAD]]
; CHECK:         call void @__alignguard_report_abort({{.*}}@[[SITE]]{{.*}}, i64 [[INT]], i64 [[A]], i64 0)
; The promise stays, as the alignment where it is a power of two and 1
; where it is not (the check said p is null there): no constant that
; inlining or IPSCCP later finds for %a makes it an alignment-0 bundle,
; which LLVM 14 crashes on (non-power-of-two-o2.ll).
; CHECK:       alignguard.ok:
; CHECK:         [[KEPT:%.*]] = select i1 {{%.*}}, i32 %a, i32 1
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i32 [[KEPT]]) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i32 %a) ]
  ret void
}

; Arithmetic happens in the widest type involved, so an i128 alignment is
; not truncated before the test.
define void @wide(i8* %p, i128 %a) {
; CHECK-LABEL: define void @wide(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[WIDE:%.*]] = zext i64 [[INT]] to i128
; CHECK-NEXT:    sub i128 %a, 1
; CHECK:         [[A64:%.*]] = trunc i128 %a to i64
; CHECK-NEXT:    call void @__alignguard_report_abort({{.*}}, i64 [[INT]], i64 [[A64]], i64 0)
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i128 %a) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
