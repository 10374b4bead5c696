; Loading the plugin adds $ALIGNGUARD_PIPELINE (default `align-guard`) at the
; pipeline-start extension point of every default pipeline, -O0 included:
; this is how clang -fpass-plugin runs it. The check survives -O2.
; RUN: %opt-ag -passes='default<O0>' -S %s | FileCheck %s --check-prefix=ABORT
; RUN: %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=ABORT
; RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: env ALIGNGUARD_PIPELINE= %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=OFF
; RUN: env ALIGNGUARD_PIPELINE='default<O2>' %opt-ag -passes='default<O1>' -S %s | FileCheck %s --check-prefix=OFF
; RUN: env ALIGNGUARD_PIPELINE='align-guard<nope>' not %opt-ag -passes='default<O2>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADPARAM
; RUN: env ALIGNGUARD_PIPELINE='no-such-pass' not %opt-ag -passes='default<O2>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADPIPE

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; ABORT-LABEL: define void @k(
; ABORT:         call void @__alignguard_report_abort(
; RECOVER-LABEL: define void @k(
; RECOVER:       call void @__alignguard_report(
; OFF-NOT:       __alignguard_report
; BADPARAM: error: invalid align-guard pass parameter 'nope'
; BADPIPE: error: ALIGNGUARD_PIPELINE='no-such-pass': unknown {{.*}}pass name 'no-such-pass'
define void @k(float* %p, i64 %n) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store volatile float 0.0, float* %p, align 4
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
