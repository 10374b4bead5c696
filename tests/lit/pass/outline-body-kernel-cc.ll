; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; A kernel whose entry is only its check and whose body is a loop nest gets
; its body in a function of its own (align-guard-outline-body, the end of
; the plugin's clang pipeline): the check keeps the kernel's calling
; convention, the body, which it calls, takes the device functions'
; (spir_kernel: spir_func), since a kernel convention permits no calls.
; LLVM 22's verifier rejected the kernel-convention call ('calling
; convention does not permit calls'; clang's OpenCL for x86-64, found by
; tests/fuzz's clang check).
; RUN: env ALIGNGUARD_PIPELINE='align-guard<abort>' %opt-ag -passes='default<O2>,verify' -S %s | FileCheck %s
; RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %opt-ag -passes='default<O2>,verify' -S %s | FileCheck %s

; CHECK-LABEL: define spir_kernel void @blur(
; CHECK:         tail call spir_func void @blur.alignguard.body(
; CHECK:       define internal spir_func void @blur.alignguard.body(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
define spir_kernel void @blur(float* align 64 %out, float* %in, i64 %n, i64 %m) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %inext, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %jnext, %inner ]
  %k = mul i64 %i, %m
  %idx = add i64 %k, %j
  %p = getelementptr inbounds float, float* %in, i64 %idx
  %q = getelementptr inbounds float, float* %out, i64 %idx
  %v = load float, float* %p, align 4
  store float %v, float* %q, align 4
  %jnext = add i64 %j, 1
  %jd = icmp eq i64 %jnext, %m
  br i1 %jd, label %outer.latch, label %inner
outer.latch:
  %inext = add i64 %i, 1
  %id = icmp eq i64 %inext, %n
  br i1 %id, label %exit, label %outer
exit:
  ret void
}
