; The shape of Triton's AMD backend output for a vector add (@triton.jit
; add_kernel, BLOCK_SIZE=1024, 4 warps of 64): kernel parameters in the
; global address space with no alignment of their own, `inreg`, and its
; 16-byte divisibility specialisation spent on masked-off 128-bit accesses:
; `load <4 x float>, align 16` at the thread's offset from each parameter.
; The promise is in the accesses only (`accesses`). Hand-written in that
; shape (Triton is no Debian package); see
; tests/lit/corpus/gpu-generators.test.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @add_kernel(float addrspace(1)* inreg nocapture readonly %x, float addrspace(1)* inreg nocapture readonly %y, float addrspace(1)* inreg nocapture writeonly %out, i32 inreg %n) #0 {
entry:
  %pid = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %pid, 10
  %tid = tail call i32 @llvm.amdgcn.workitem.id.x()
  %lane = shl i32 %tid, 2
  %lanem = and i32 %lane, 1020
  %off = or i32 %lanem, %base
  %mask = icmp slt i32 %off, %n
  %idx = sext i32 %off to i64
  %px = getelementptr float, float addrspace(1)* %x, i64 %idx
  %py = getelementptr float, float addrspace(1)* %y, i64 %idx
  %po = getelementptr float, float addrspace(1)* %out, i64 %idx
  br i1 %mask, label %body, label %exit

body:
  %vx = bitcast float addrspace(1)* %px to <4 x float> addrspace(1)*
  %a = load <4 x float>, <4 x float> addrspace(1)* %vx, align 16
  %vy = bitcast float addrspace(1)* %py to <4 x float> addrspace(1)*
  %b = load <4 x float>, <4 x float> addrspace(1)* %vy, align 16
  %s = fadd <4 x float> %a, %b
  %vo = bitcast float addrspace(1)* %po to <4 x float> addrspace(1)*
  store <4 x float> %s, <4 x float> addrspace(1)* %vo, align 16
  br label %exit

exit:
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "target-cpu"="gfx90a" "uniform-work-group-size"="true" }
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
