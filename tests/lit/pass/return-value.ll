; align-guard<return=N>: a failing check in an entry point reports through
; the runtime (which records the message for alignguard_last_error) and the
; entry point returns N. Where that cannot be done (not an integer return,
; N does not fit, not an entry point) the check aborts, with a warning
; naming the function.
; RUN: %opt-ag -passes='align-guard<return=-1>,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt-ag -passes='align-guard<return=300>,verify' -disable-output %s 2>&1 | FileCheck %s --check-prefix=FIT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define i32 @k32(float* align 64 %a, float* align 64 %b) {
; CHECK-LABEL: define i32 @k32(
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok
; One cold block, one call of the table hook (the runtime reports a if a
; fails, else b).
; CHECK:       alignguard.fail:
; CHECK-NEXT:    call void @__alignguard_report_first(i64 %ag.ptr{{[0-9]*}}, i64 %ag.ptr{{[0-9]*}}, i64 0, i64 0, {{.*}}@__alignguard_site{{.*}}, i64 2)
; CHECK-NEXT:    ret i32 -1
; CHECK-NOT:   alignguard.culprit
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %a, i64 64), "align"({{float\*|ptr}} %b, i64 64) ], !alignguard.guarded
; CHECK:         ret i32 0
  ret i32 0
}

define i8 @k8(float* %a) {
; CHECK-LABEL: define i8 @k8(
; CHECK:         call void @__alignguard_report({{.*}}, i64 16, i64 0)
; CHECK-NEXT:    ret i8 -1
  call void @llvm.assume(i1 true) [ "align"(float* %a, i64 16) ]
  ret i8 0
}

; WARN: warning: align-guard: in function 'kvoid': return cannot be used for the check of argument #0 'a': it does not return an integer; a violation there aborts
define void @kvoid(float* align 64 %a) {
; CHECK-LABEL: define void @kvoid(
; CHECK:         call void @__alignguard_report_abort({{.*}}, i64 64, i64 0)
; CHECK-NEXT:    unreachable
  ret void
}

; WARN: warning: align-guard: in function 'inner': return cannot be used for the check of argument #0 'p': it is not an entry point; a violation there aborts
define internal i32 @inner(float* %p) {
; CHECK-LABEL: define internal i32 @inner(
; CHECK:         call void @__alignguard_report_abort({{.*}}, i64 32, i64 0)
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  ret i32 0
}

; FIT: warning: align-guard: in function 'k8': return cannot be used for the check of argument #0 'a': 300 does not fit its 8-bit return type; a violation there aborts

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
