; The shape of TVM's `rocm` target (CodeGenAMDGPU on CodeGenLLVM): a kernel
; with the amdgpu_kernel calling convention and its work-group size, buffer
; parameters in the global address space with `noalias` and their storage alignment
; (`align 64`), an "align" assume for a buffer whose alignment TVM derives,
; the workgroup and workitem ids, and loads and stores of float4 vectorised
; by 4, with what AMDGPUAttributor infers of a kernel that calls nothing
; (`amdgpu-no-hostcall-ptr`). Hand-written in that shape (TVM is no Debian
; package); see tests/lit/corpus/gpu-generators.test.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @default_function_kernel(float addrspace(1)* noalias align 64 %A, float addrspace(1)* noalias align 64 %B, float addrspace(1)* noalias %C) #0 {
entry:
  call void @llvm.assume(i1 true) [ "align"(float addrspace(1)* %C, i64 64) ]
  %bx = call i32 @llvm.amdgcn.workgroup.id.x()
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
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
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "target-cpu"="gfx90a" }

; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
