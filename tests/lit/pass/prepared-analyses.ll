; The preparation step (CheckPreparation.h) asks for each function's
; dominator tree and loops. Under fallback every function is prepared before
; any is instrumented (a fallback copy is cloned from untouched bodies), and
; each function's analyses are dropped once it is prepared, so that a module
; of many kernels does not hold them all at once; the instrumenting loop
; computes them again. Under the other actions each function is prepared
; right before it is instrumented, whose planning reuses them: one
; dominator tree per function, all dropped once its checks are in
; (AlignGuardPass.cpp).
; RUN: %opt-ag -passes=align-guard -debug-pass-manager -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ONCE
; RUN: %opt-ag -passes='align-guard<fallback>' -debug-pass-manager -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FIRST

; ONCE: Running pass: alignguard::AlignGuardPass
; ONCE: Running analysis: DominatorTreeAnalysis on first
; ONCE-NOT: DominatorTreeAnalysis on first
; ONCE: Running analysis: ScalarEvolutionAnalysis on first
; ONCE-NOT: DominatorTreeAnalysis on first
; ONCE: Clearing all analysis results for: first
; ONCE-NOT: Running analysis: {{.*}} on first
; ONCE: Running analysis: DominatorTreeAnalysis on second
; ONCE-NOT: DominatorTreeAnalysis on second
; ONCE: Running analysis: ScalarEvolutionAnalysis on second

; FIRST: Running pass: alignguard::AlignGuardPass
; FIRST: Running analysis: LoopAnalysis on first
; FIRST-NOT: on second
; FIRST: Clearing all analysis results for: first
; FIRST: Running analysis: LoopAnalysis on second
; FIRST: Clearing all analysis results for: second
; The instrumentation, after every function was prepared.
; FIRST: Running analysis: ScalarEvolutionAnalysis on first

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @first(float* %p) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p, align 4
  ret void
}

define void @second(float* %p) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p, align 4
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
