; The preparation step (CheckPreparation.h) runs over every function before
; any is instrumented and asks for each one's dominator tree and loops. They
; are dropped as each function is prepared, changed or not, so that a module
; of many kernels does not hold them all at once (AlignGuardPass.cpp); the
; instrumenting loop computes them again.
; RUN: %opt-ag -passes=align-guard -debug-pass-manager -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: Running pass: alignguard::AlignGuardPass
; CHECK: Running analysis: LoopAnalysis on first
; CHECK-NOT: on second
; CHECK: Clearing all analysis results for: first
; CHECK: Running analysis: LoopAnalysis on second
; CHECK: Clearing all analysis results for: second
; The instrumentation, after every function was prepared.
; CHECK: Running analysis: ScalarEvolutionAnalysis on first

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
