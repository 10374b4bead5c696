; In a build (the plugin's extension points, here through opt's default
; pipelines), an `align-guard<accesses>` of $ALIGNGUARD_PIPELINE runs at
; pipeline start, and once more after the inliners for the accesses only
; (accesses-only: at the optimizer-early extension point from LLVM 15, the
; optimizer-last one on 14; at -O0 both come right after the
; always-inliner). @k's aligned accesses are in an always-inline wrapper,
; as _mm256_load_ps's are in <immintrin.h>: at pipeline start @k has none,
; so only the second run can check them. @direct's access is visible at
; pipeline start and checked there: the second run adds nothing.
;
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses>' %opt-ag -passes='default<O0>' -print-pipeline-passes -disable-output %s | tr ',' '\n' | FileCheck %s --check-prefix=PIPE-O0
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses>' %opt-ag -passes='default<O2>' -print-pipeline-passes -disable-output %s | tr ',' '\n' | FileCheck %s --check-prefix=PIPE-O2
; RUN: env ALIGNGUARD_PIPELINE='align-guard<trap;accesses>,align-guard-audit' %opt-ag -passes='default<O1>' -print-pipeline-passes -disable-output %s | tr ',' '\n' | FileCheck %s --check-prefix=PIPE-TWO
;
; Checked in both runs, at -O0 and -O2: the loads through %p get one
; check, hoisted before the loop; %q's loads none, its assume's check
; (pipeline start) covering them. @direct: one check.
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses>' %opt-ag -passes='default<O0>' -S %s | FileCheck %s --check-prefix=BOTH
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses>' %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=BOTH
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses>' %opt-ag -passes='default<O2>' -S %s -o %t.O2.ll
; RUN: %python %tools/checks-outside-loops.py %t.O2.ll --function k --function direct | FileCheck %s --check-prefix=LOOPS
;
; Without the second run (align-guard<accesses> on the unoptimised module,
; as at pipeline start): only the assume.
; RUN: %opt-ag -passes='align-guard<accesses>,verify' -S %s | FileCheck %s --check-prefix=START
;
; The failure action is the one asked for, in both runs (trap: a check
; from each; recover: below); with fallback, the second run falls back to
; the copy the first made (one copy).
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses;trap>' %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=TRAP
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses;recover>' %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: env ALIGNGUARD_PIPELINE='align-guard<accesses;fallback>' %opt-ag -passes='default<O2>' -S %s | FileCheck %s --check-prefix=FALLBACK --implicit-check-not=alignguard.unaligned.1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; PIPE-O0:      align-guard<abort;accesses;deferred>
; PIPE-O0-NEXT: always-inline
; PIPE-O0:      align-guard<abort;accesses;accesses-only;deferred>
; PIPE-O0:      align-guard-expand
; PIPE-O0-NEXT: align-guard-cold-exits
; PIPE-O0-NEXT: align-guard-outline-body
; PIPE-O2:      align-guard<abort;accesses;deferred>
; PIPE-O2:      inline
; PIPE-O2:      align-guard<abort;accesses;accesses-only;deferred>
; PIPE-O2-NOT:  align-guard<
; PIPE-O2:      align-guard-expand
; PIPE-O2-NEXT: align-guard-cold-exits
; PIPE-O2-NEXT: align-guard-outline-body
; PIPE-O2-NOT:  align-guard
; PIPE-TWO:     align-guard<trap;accesses;deferred>
; PIPE-TWO-NEXT: align-guard-audit<table>
; PIPE-TWO:     align-guard<trap;accesses;accesses-only;deferred>
; PIPE-TWO-NOT: align-guard<
; PIPE-TWO:     align-guard-expand
; PIPE-TWO-NEXT: align-guard-cold-exits
; PIPE-TWO-NEXT: align-guard-outline-body
; PIPE-TWO-NOT: align-guard

; BOTH-LABEL: define {{.*}}void @k(
; BOTH-COUNT-2: call {{.*}}@__alignguard_report_abort.thunk{{[^(]*}}(
; BOTH-NOT:     call {{.*}}@__alignguard_report_abort.thunk{{[^(]*}}(
; BOTH:         load <8 x float>, {{.*}}, align 32{{.*}}!alignguard.guarded
; BOTH-LABEL: define {{.*}}@direct(
; BOTH-COUNT-1: call {{.*}}@__alignguard_report_abort.thunk{{[^(]*}}(
; BOTH-NOT:     call {{.*}}@__alignguard_report_abort.thunk{{[^(]*}}(

; LOOPS: k: {{[0-9]+}} blocks, {{[1-9][0-9]*}} in loops; {{[1-9]}} checks, 0 in loops
; LOOPS: direct: {{[0-9]+}} blocks, {{[1-9][0-9]*}} in loops; 1 checks, 0 in loops

; START-LABEL: define {{.*}}void @k(
; START-COUNT-1: call void @__alignguard_report_abort(
; START-NOT:     call void @__alignguard_report_abort(
; START-NOT:     load <8 x float>{{.*}}!alignguard.guarded
; START-LABEL: define {{.*}}@direct(

; recover: the assume's check at pipeline start reruns a failing call in
; @k's recover copy, so %q's promise stays on the aligned path, in the
; wrapper the inliner brings in too; the second run (which makes no copy)
; checks %p's accesses in place, and in the copy, with the same descriptor.
; RECOVER-LABEL: define {{.*}}void @k(
; RECOVER:         call {{.*}}@k.alignguard.recover(
; RECOVER:         call void @__alignguard_report({{.*}}@[[SP:__alignguard_site[.0-9]*]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64
; RECOVER-NOT:     __alignguard_report
; RECOVER:         load <8 x float>, {{.*}}, align 4
; RECOVER:         load <8 x float>, {{.*}}, align 32
; RECOVER-LABEL: define internal {{.*}}@k.alignguard.recover(
; RECOVER:         call void @__alignguard_report(
; RECOVER:         call void @__alignguard_report({{.*}}@[[SP]]{{( to [^,]*|, i32 0, i32 0, i32 0\))?}}, i64
; RECOVER-NOT:     align 32
; RECOVER-LABEL: define {{.*}}@direct(
; RECOVER:         call {{.*}}@direct.alignguard.recover(
; RECOVER-NOT:     call void @__alignguard_report
; RECOVER-LABEL: define internal {{.*}}@direct.alignguard.recover(
; RECOVER-COUNT-1: call void @__alignguard_report(
; RECOVER-NOT:     call void @__alignguard_report

; TRAP-LABEL: define {{.*}}void @k(
; TRAP-COUNT-2: call void @llvm.trap()
; TRAP-NOT:     call void @__alignguard_report
; TRAP-LABEL: define {{.*}}@direct(
; TRAP-COUNT-1: call void @llvm.trap()
; TRAP-NOT:     call void @llvm.trap()

; After default<O2>, each failing side tail-calls a thunk that reports and
; then calls the copy (ColdExitsPass.h).
; FALLBACK-LABEL: define {{.*}}void @k(
; FALLBACK-COUNT-2: tail call void @k.alignguard.fallback{{(\.[0-9]+)?}}(
; FALLBACK-LABEL: define internal {{.*}}@k.alignguard.unaligned(
; FALLBACK-NOT:   align 32
; FALLBACK:       define private void @k.alignguard.fallback{{(\.[0-9]+)?}}(
; FALLBACK-NEXT:    call void @__alignguard_fallback(
; FALLBACK-NEXT:    tail call {{.*}}void @k.alignguard.unaligned(

; out[i] = sum of p[i..i+8) and q[i..i+8) as vectors; n a multiple of 8.
define void @k(<8 x float>* %out, float* %p, float* %q, i64 %n) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %q, i64 32) ]
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds float, float* %p, i64 %i
  %qi = getelementptr inbounds float, float* %q, i64 %i
  %a = call <8 x float> @wrapper(float* %pi)
  %b = call <8 x float> @wrapper(float* %qi)
  %s = fadd <8 x float> %a, %b
  %v = lshr i64 %i, 3
  %o = getelementptr inbounds <8 x float>, <8 x float>* %out, i64 %v
  store <8 x float> %s, <8 x float>* %o, align 4
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The sum of p[0..n) as vectors, loaded in the kernel itself; n a
; multiple of 8.
define <8 x float> @direct(float* %p, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi <8 x float> [ zeroinitializer, %entry ], [ %sum, %loop ]
  %pi = getelementptr inbounds float, float* %p, i64 %i
  %v = bitcast float* %pi to <8 x float>*
  %x = load <8 x float>, <8 x float>* %v, align 32
  %sum = fadd <8 x float> %acc, %x
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret <8 x float> %sum
}

; _mm256_load_ps: `return *(const __m256 *)p;`
define internal <8 x float> @wrapper(float* %p) #0 {
  %v = bitcast float* %p to <8 x float>*
  %x = load <8 x float>, <8 x float>* %v, align 32
  ret <8 x float> %x
}

declare void @llvm.assume(i1)

attributes #0 = { alwaysinline }
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
