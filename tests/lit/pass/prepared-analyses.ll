; The preparation step (CheckPreparation.h) asks for each function's
; dominator tree and, where a promise is outside the entry block, its loops.
; Under fallback every function is prepared before any is instrumented (a
; fallback copy is cloned from untouched bodies), and each function's
; analyses are dropped once it is prepared, so that a module of many kernels
; does not hold them all at once; the instrumenting loop computes them
; again. Under the other actions each function is prepared right before it
; is instrumented, whose planning reuses them: one dominator tree per
; function, all dropped once its checks are in (AlignGuardPass.cpp).
; Loops and ScalarEvolution are made only where a question needs them
; (LazyAnalysis.h): for the assumes in @first's and @second's loops, whose
; checks go before the loop, and not for @flat, whose promises are in the
; entry block, on two arguments.
; RUN: %opt-ag -passes=align-guard -debug-pass-manager -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ONCE
; RUN: %opt-ag -passes='align-guard<fallback>' -debug-pass-manager -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FIRST
; RUN: %opt-ag -passes=align-guard -S %s | FileCheck %s --check-prefix=IR

; ONCE: Running pass: alignguard::AlignGuardPass
; ONCE: Running analysis: LoopAnalysis on first
; ONCE: Running analysis: DominatorTreeAnalysis on first
; ONCE-NOT: DominatorTreeAnalysis on first
; ONCE: Running analysis: ScalarEvolutionAnalysis on first
; ONCE-NOT: DominatorTreeAnalysis on first
; ONCE: Clearing all analysis results for: first
; ONCE-NOT: Running analysis: {{.*}} on first
; ONCE: Running analysis: LoopAnalysis on second
; ONCE: Running analysis: DominatorTreeAnalysis on second
; ONCE-NOT: DominatorTreeAnalysis on second
; ONCE: Running analysis: ScalarEvolutionAnalysis on second
; ONCE: Clearing all analysis results for: second
; ONCE-NOT: LoopAnalysis on flat
; ONCE-NOT: ScalarEvolutionAnalysis on flat
; ONCE: Running analysis: DominatorTreeAnalysis on flat
; ONCE-NOT: LoopAnalysis on flat
; ONCE-NOT: ScalarEvolutionAnalysis on flat
; ONCE: Clearing all analysis results for: flat

; FIRST: Running pass: alignguard::AlignGuardPass
; FIRST: Running analysis: LoopAnalysis on first
; FIRST-NOT: on second
; FIRST: Clearing all analysis results for: first
; FIRST: Running analysis: LoopAnalysis on second
; FIRST: Clearing all analysis results for: second
; The instrumentation, after every function was prepared.
; FIRST: Running analysis: ScalarEvolutionAnalysis on first

; The checks the analyses were for: the rows' before their loops, and the
; two arguments' at the entry, each a check of its own.
; IR-LABEL: define void @first(
; IR: entry:
; IR: %ag.misaligned = icmp
; IR: loop:
; IR-LABEL: define void @flat(
; IR: %ag.any = or i64
; IR: %ag.misaligned = icmp

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @first(float* %img, i64 %n) {
entry:
  br label %loop

loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %loop ]
  %off = mul i64 %y, 16
  %row = getelementptr float, float* %img, i64 %off
  call void @llvm.assume(i1 true) [ "align"(float* %row, i64 64) ]
  store float 0.0, float* %row, align 4
  %y.next = add i64 %y, 1
  %done = icmp eq i64 %y.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @second(float* %img, i64 %n) {
entry:
  br label %loop

loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %loop ]
  %off = mul i64 %y, 16
  %row = getelementptr float, float* %img, i64 %off
  call void @llvm.assume(i1 true) [ "align"(float* %row, i64 64) ]
  store float 0.0, float* %row, align 4
  %y.next = add i64 %y, 1
  %done = icmp eq i64 %y.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @flat(float* %p, float* %q) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  call void @llvm.assume(i1 true) [ "align"(float* %q, i64 64) ]
  store float 0.0, float* %p, align 4
  store float 0.0, float* %q, align 4
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
