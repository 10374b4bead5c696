; Pointers read from aggregates (MLIR's memref descriptor, a struct passed
; by value, a struct loaded from an argument): the accesses through them
; are found and checked once before the loop, the field read moved to
; where the aggregate is defined; two reads of one field are one pointer
; (the second assume is covered by the first's check).
; RUN: %opt-ag -passes='align-guard<accesses>,verify' -S %s | FileCheck %s
; RUN: %opt-ag -passes='align-guard-audit<all;accesses>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=AUDIT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

%desc = type { float*, float*, i64, [1 x i64], [1 x i64] }

; A struct passed by value, its field read inside the loop.
; CHECK-LABEL: define void @by_value(
; CHECK:         %[[P:[0-9a-z.]+]] = extractvalue %desc %d, 1
; CHECK:         ptrtoint {{.*}} %[[P]]
; CHECK:         call void @__alignguard_report_abort(
; CHECK:       loop:
; CHECK-NOT:     __alignguard_report
; CHECK:         ret void
; AUDIT: unchecked  access  by_value
define void @by_value(%desc %d, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = extractvalue %desc %d, 1
  %q = getelementptr float, float* %p, i64 %i
  %v = bitcast float* %q to <8 x float>*
  %x = load <8 x float>, <8 x float>* %v, align 32
  store <8 x float> %x, <8 x float>* %v, align 32
  %i.next = add i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; MLIR's C interface: the descriptor loaded from an argument.
; CHECK-LABEL: define void @loaded(
; CHECK:         call void @__alignguard_report_abort(
; AUDIT: unchecked  access  loaded
define void @loaded(%desc* %dp) {
  %d = load %desc, %desc* %dp, align 8
  %p = extractvalue %desc %d, 1
  %v = bitcast float* %p to <8 x float>*
  %x = load <8 x float>, <8 x float>* %v, align 32
  ret void
}

; The descriptor built from arguments: the field is the argument.
; CHECK-LABEL: define void @chain(
; CHECK:         call void @__alignguard_report_abort(
; AUDIT: unchecked  access  chain {{ *}}argument #1 'aligned'
define void @chain(float* %alloc, float* %aligned) {
  %d0 = insertvalue %desc poison, float* %alloc, 0
  %d1 = insertvalue %desc %d0, float* %aligned, 1
  %p = extractvalue %desc %d1, 1
  %v = bitcast float* %p to <8 x float>*
  %x = load <8 x float>, <8 x float>* %v, align 32
  ret void
}

; Two assumes on two reads of one field: one check.
; CHECK-LABEL: define void @two_reads(
; CHECK:         call void @__alignguard_report_abort(
; CHECK-NOT:     call void @__alignguard_report_abort(
; CHECK:         ret void
; AUDIT: unchecked  assume-bundle  two_reads
; AUDIT: unchecked  assume-bundle  two_reads {{.*}} rests on an unchecked assume
define void @two_reads(%desc %d) {
  %p1 = extractvalue %desc %d, 1
  call void @llvm.assume(i1 true) [ "align"(float* %p1, i64 32) ]
  %p2 = extractvalue %desc %d, 1
  call void @llvm.assume(i1 true) [ "align"(float* %p2, i64 32) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
