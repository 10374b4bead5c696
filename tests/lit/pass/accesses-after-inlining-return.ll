; align-guard<accesses;return=N> in a build: the second run (after the
; inliners) returns N from an entry point whose callers are elsewhere, as
; the first run does. One with a caller in the module aborts instead, with
; a warning: by then IPSCCP may have folded what the entry point returned
; without the check into that caller (`return 0` into a printf of 0),
; which would never see N.
;
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses;return=-7>' %opt-ag -passes='default<O2>' -S %s -o %t.ll 2> %t.err
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=WARN < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; WARN: warning: align-guard: in function 'called': return cannot be used for the check of the access to argument #0 'p': its caller 'user' in this module may have been optimised with its return values before this check was added; a violation there aborts
; WARN-NOT: warning

; CHECK-LABEL: define {{.*}}i32 @exported(
; CHECK:         %[[R:.*]] = tail call i32 @__alignguard_report.thunk.i32.m7(
; CHECK-NEXT:    ret i32 %[[R]]
; CHECK-LABEL: define {{.*}}i32 @called(
; CHECK:         call {{.*}}@__alignguard_report_abort.thunk{{[^(]*}}(
; CHECK-NOT:     -7
; CHECK-LABEL: define {{.*}}i32 @user(
; CHECK:         call i32 @called(
; CHECK-NEXT:    ret i32 0
; The failing side's tail call (ColdExitsPass.h): the report, then -7.
; CHECK-LABEL: define linkonce_odr hidden i32 @__alignguard_report.thunk.i32.m7(
; CHECK-NEXT:    call void @__alignguard_report(
; CHECK-NEXT:    ret i32 -7

define i32 @exported(float* %p, <8 x float>* %out) {
  %v = call <8 x float> @wrapper(float* %p)
  store <8 x float> %v, <8 x float>* %out, align 4
  ret i32 0
}

define i32 @called(float* %p, <8 x float>* %out) noinline {
  %v = call <8 x float> @wrapper(float* %p)
  store <8 x float> %v, <8 x float>* %out, align 4
  ret i32 0
}

define i32 @user(float* %p, <8 x float>* %out) {
  %r = call i32 @called(float* %p, <8 x float>* %out)
  ret i32 %r
}

; _mm256_load_ps
define internal <8 x float> @wrapper(float* %p) alwaysinline {
  %v = bitcast float* %p to <8 x float>*
  %x = load <8 x float>, <8 x float>* %v, align 32
  ret <8 x float> %x
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
