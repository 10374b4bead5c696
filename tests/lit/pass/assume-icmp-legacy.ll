; The form before operand bundles: llvm.assume of
; `icmp eq (and (ptrtoint p), 2^k-1), 0`, optionally with an offset. Where
; the check stops the kernel, the promise stays after it as an "align"
; bundle (the condition would fold against the check's own test).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RECOVER

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-DAG: ; packed @{{__alignguard_site[.0-9]*}} = [{ i32 3, i32 1, {{.*}}, i64 32, i64 0, null, i32 0, i32 0 }]
; CHECK-DAG: ; packed @{{__alignguard_site[.0-9]*}} = [{ i32 3, i32 1, {{.*}}, i64 16, i64 8, null, i32 0, i32 0 }]
; CHECK-DAG: ; packed @{{__alignguard_site[.0-9]*}} = [{ i32 3, i32 1, {{.*}}, i64 64, i64 -4, null, i32 0, i32 0 }]

define void @legacy(float* %p) {
; CHECK-LABEL: define void @legacy(
; CHECK:         %cond = icmp eq i64 %low, 0
; CHECK-NEXT:    [[INT:%.*]] = ptrtoint {{float\*|ptr}} %p to i64
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[INT]], 31
; CHECK-NEXT:    icmp ne i64 [[LOW]], 0
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 [[INT]], i64 32, i64 0)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %p, i64 32) ], !alignguard.guarded
; RECOVER:       call void @__alignguard_report({{.*}}, i64 [[INT]], i64 32, i64 0)
; RECOVER-NOT:   call void @llvm.assume
; CHECK:         ret void
  %int = ptrtoint float* %p to i64
  %low = and i64 %int, 31
  %cond = icmp eq i64 %low, 0
  call void @llvm.assume(i1 %cond)
  ret void
}

define void @legacy_offset(i8* %p) {
; CHECK-LABEL: define void @legacy_offset(
; CHECK:         [[ADDR:%.*]] = sub i64 {{%.*}}, 8
; CHECK-NEXT:    and i64 [[ADDR]], 15
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 16, i64 8)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 16, i64 8) ], !alignguard.guarded
  %int = ptrtoint i8* %p to i64
  %off = sub i64 %int, 8
  %low = and i64 %off, 15
  %cond = icmp eq i64 0, %low
  call void @llvm.assume(i1 %cond)
  ret void
}

; `(p + 4) & 63 == 0` is `p - (-4)` aligned to 64.
define void @legacy_add(i8* %p) {
; CHECK-LABEL: define void @legacy_add(
; CHECK:         [[ADDR:%.*]] = sub i64 {{%.*}}, -4
; CHECK-NEXT:    and i64 [[ADDR]], 63
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 64, i64 -4)
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 64, i64 -4) ], !alignguard.guarded
  %int = ptrtoint i8* %p to i64
  %plus = add i64 %int, 4
  %low = and i64 %plus, 63
  %cond = icmp eq i64 %low, 0
  call void @llvm.assume(i1 %cond)
  ret void
}

; A mask that is not 2^k-1 tests bits, not alignment: left alone.
define void @not_alignment(i8* %p) {
; CHECK-LABEL: define void @not_alignment(
; CHECK-NOT:     __alignguard
; CHECK:         call void @llvm.assume(i1 %cond){{$}}
  %int = ptrtoint i8* %p to i64
  %bits = and i64 %int, 6
  %cond = icmp eq i64 %bits, 0
  call void @llvm.assume(i1 %cond)
  ret void
}

declare void @llvm.assume(i1)

; C's `__builtin_assume((uintptr_t)p % 32 == 0)` arrives as urem before
; InstCombine turns it into `and`.
define void @legacy_urem(double* %m) {
; CHECK-LABEL: define void @legacy_urem(
; CHECK:         and i64 {{%.*}}, 31
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 32, i64 0)
  %i = ptrtoint double* %m to i64
  %r = urem i64 %i, 32
  %c = icmp eq i64 %r, 0
  call void @llvm.assume(i1 %c)
  ret void
}

; Divisibility by a number that is not a power of two is not alignment.
define void @not_alignment_urem(i8* %p) {
; CHECK-LABEL: define void @not_alignment_urem(
; CHECK-NOT:     __alignguard
; CHECK:         ret void
  %i = ptrtoint i8* %p to i64
  %r = urem i64 %i, 48
  %c = icmp eq i64 %r, 0
  call void @llvm.assume(i1 %c)
  ret void
}

; An all-ones mask of a 32-bit ptrtoint: the low 32 bits are zero, i.e. the
; pointer is 2^32-aligned (not a non-power-of-two alignment).
define void @all_ones(i8* %p) {
; CHECK-LABEL: define void @all_ones(
; CHECK:         and i64 {{%.*}}, 4294967295
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 4294967296, i64 0)
  %i = ptrtoint i8* %p to i32
  %low = and i32 %i, -1
  %c = icmp eq i32 %low, 0
  call void @llvm.assume(i1 %c)
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
