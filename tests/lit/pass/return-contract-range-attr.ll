; align-guard<return=N> and the `range` return attribute (LLVM 19 on): the
; entry point's and its call sites' ranges are widened to hold N (TVM's
; tvm-ffi functions declare range(i32 -1, 1); with return=-24 the range
; becomes [-24, 1)), or dropped when the smallest range that holds N is
; every value. noundef stays: N is a defined value.
; REQUIRES: llvm-at-least-19
; RUN: %opt-ag -passes='align-guard<return=-24;entry=k*>,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-LABEL: define noundef range(i32 -24, 1) i32 @k(
; CHECK:         call void @__alignguard_report(
; CHECK-NEXT:    ret i32 -24
define noundef range(i32 -1, 1) i32 @k(ptr align 64 %p) {
  ret i32 0
}

; Already admits N: unchanged.
; CHECK-LABEL: define range(i32 -100, 100) i32 @k_admits(
define range(i32 -100, 100) i32 @k_admits(ptr align 64 %p) {
  ret i32 0
}

; Every value but N: no range can hold N and say anything.
; CHECK-LABEL: define i32 @k_all_but_n(
define range(i32 -23, -24) i32 @k_all_but_n(ptr align 64 %p) {
  ret i32 0
}

; The call sites' own ranges, widened the same way.
; CHECK-LABEL: define i32 @caller(
; CHECK-NEXT:    %rc = call noundef range(i32 -24, 1) i32 @k(ptr %p)
; CHECK-NEXT:    %rc.wide = call range(i32 -24, 5) i32 @k(ptr %p)
define i32 @caller(ptr %p) {
  %rc = call noundef range(i32 -1, 1) i32 @k(ptr %p)
  %rc.wide = call range(i32 0, 5) i32 @k(ptr %p)
  %is.n = icmp eq i32 %rc, -24
  %r = select i1 %is.n, i32 1, i32 0
  ret i32 %r
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
