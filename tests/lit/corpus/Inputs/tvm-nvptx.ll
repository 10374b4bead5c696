; The shape of TVM's `nvptx` target (CodeGenNVPTX on CodeGenLLVM): a kernel
; marked in !nvvm.annotations with its launch bound, buffer parameters in
; the global address space with `noalias` and their storage alignment
; (`align 64`), an "align" assume for a buffer whose alignment TVM derives,
; PTX special registers for the thread index, and loads and stores of
; float4 vectorised by 4. Hand-written in that shape (TVM is no Debian
; package); see tests/lit/corpus/gpu-generators.test.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @default_function_kernel(float addrspace(1)* noalias align 64 %A, float addrspace(1)* noalias align 64 %B, float addrspace(1)* noalias %C) #0 {
entry:
  call void @llvm.assume(i1 true) [ "align"(float addrspace(1)* %C, i64 64) ]
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = shl i32 %bx, 8
  %t = shl i32 %tx, 2
  %i = add nsw i32 %b, %t
  %idx = sext i32 %i to i64
  %pa = getelementptr inbounds float, float addrspace(1)* %A, i64 %idx
  %va = bitcast float addrspace(1)* %pa to <4 x float> addrspace(1)*
  %a = load <4 x float>, <4 x float> addrspace(1)* %va, align 16
  %pb = getelementptr inbounds float, float addrspace(1)* %B, i64 %idx
  %vb = bitcast float addrspace(1)* %pb to <4 x float> addrspace(1)*
  %bv = load <4 x float>, <4 x float> addrspace(1)* %vb, align 16
  %s = fadd <4 x float> %a, %bv
  %pc = getelementptr inbounds float, float addrspace(1)* %C, i64 %idx
  %vc = bitcast float addrspace(1)* %pc to <4 x float> addrspace(1)*
  store <4 x float> %s, <4 x float> addrspace(1)* %vc, align 16
  ret void
}

declare void @llvm.assume(i1)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_80" }

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(1)*)* @default_function_kernel, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(1)*)* @default_function_kernel, !"maxntidx", i32 64}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
