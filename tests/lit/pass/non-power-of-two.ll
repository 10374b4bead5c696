; LangRef: an "align" bundle with a non-power-of-two (or zero) alignment
; promises that the pointer is null. That is what gets checked. Past the
; check the branch says the pointer is null, and the bundle does not stay:
; LLVM 14 takes log2 of its alignment (0 crashes it, non-power-of-two-o2.ll).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @npot(i8* %p) {
; CHECK-LABEL: define void @npot(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[INT]], 0
; CHECK-NEXT:    br i1 [[BAD]]
; CHECK:         call void @__alignguard_report_abort({{.*}}, i64 [[INT]], i64 48, i64 0)
; CHECK:       alignguard.ok:
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 48) ]
  ret void
}

define void @zero(i8* %p) {
; CHECK-LABEL: define void @zero(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[INT]], 0
; CHECK:         call void @__alignguard_report_abort({{.*}}, i64 [[INT]], i64 0, i64 0)
; CHECK:       alignguard.ok:
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 0) ]
  ret void
}

declare void @llvm.assume(i1)

; The null requirement is on the pointer itself, not on pointer - offset.
define void @npot_offset(i8* %p) {
; CHECK-LABEL: define void @npot_offset(
; CHECK:         [[INT:%.*]] = ptrtoint {{i8\*|ptr}} %p to i64
; CHECK-NEXT:    [[ADDR:%.*]] = sub i64 [[INT]], 8
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[INT]], 0
; CHECK-NEXT:    br i1 [[BAD]]
; CHECK:         call void @__alignguard_report_abort({{.*}}, i64 [[INT]], i64 24, i64 8)
; CHECK:       alignguard.ok:
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 24, i64 8) ]
  ret void
}

; Only the null promise goes; the assume keeps the rest, guarded.
define void @mixed(i8* %p, i8* %q) {
; CHECK-LABEL: define void @mixed(
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %q, i64 16), "nonnull"({{i8\*|ptr}} %q) ], !alignguard.guarded
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 0), "align"(i8* %q, i64 16), "nonnull"(i8* %q) ]
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
