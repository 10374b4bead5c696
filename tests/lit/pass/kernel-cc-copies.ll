; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; Functions with a kernel calling convention compiled for a host target
; (clang's OpenCL for x86-64 writes spir_kernel kernels; amdgpu_kernel and
; ptx_kernel can be met the same way): a kernel convention permits no calls,
; so the recover and fallback copies the kernel calls take the target's
; convention for device functions (spir_func; C for the others), and the
; calls match them. The verifier used to reject the result: `calling
; convention does not permit calls`.
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER
; RUN: %opt-ag -passes='align-guard<fallback>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,FALLBACK
; RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %opt-ag -passes='default<O2>,verify' -disable-output %s
; RUN: env ALIGNGUARD_PIPELINE='align-guard<fallback>' %opt-ag -passes='default<O2>,verify' -disable-output %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @spir(float* align 64 %out, float* %in) {
  %v = load float, float* %in, align 4
  store float %v, float* %out, align 4
  ret void
}

define amdgpu_kernel void @amdgpu(float* align 64 %out, float* %in) {
  %v = load float, float* %in, align 4
  store float %v, float* %out, align 4
  ret void
}

define ptx_kernel void @ptx(float* align 64 %out, float* %in) {
  %v = load float, float* %in, align 4
  store float %v, float* %out, align 4
  ret void
}

; CHECK-DAG:    define spir_kernel void @spir(
; CHECK-DAG:    define amdgpu_kernel void @amdgpu(
; CHECK-DAG:    define ptx_kernel void @ptx(
; RECOVER-DAG:  call spir_func void @spir.alignguard.recover(
; RECOVER-DAG:  call void @amdgpu.alignguard.recover(
; RECOVER-DAG:  call void @ptx.alignguard.recover(
; RECOVER-DAG:  define internal spir_func void @spir.alignguard.recover(
; RECOVER-DAG:  define internal void @amdgpu.alignguard.recover(
; RECOVER-DAG:  define internal void @ptx.alignguard.recover(
; FALLBACK-DAG: call spir_func void @spir.alignguard.unaligned(
; FALLBACK-DAG: call void @amdgpu.alignguard.unaligned(
; FALLBACK-DAG: call void @ptx.alignguard.unaligned(
; FALLBACK-DAG: define internal spir_func void @spir.alignguard.unaligned(
; FALLBACK-DAG: define internal void @amdgpu.alignguard.unaligned(
; FALLBACK-DAG: define internal void @ptx.alignguard.unaligned(
