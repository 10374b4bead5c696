; Each kind of promise a GPU kernel carries reports from the device under
; the default action, on NVPTX and on AMDGPU (with the ROCm device libraries
; linked after the pass): a parameter's `align` and an assume bundle
; (gpu-device-report.ll, gpu-device-report-amdgpu.ll), and here the
; `ld.global.v4`-style vector accesses on kernel arguments (`accesses`), a
; loaded pointer's `!align` (`loads`) and a callee's `align` return, checked
; after the call. Both targets' code generators take the result.
; RUN: %opt-ag -passes='align-guard<accesses;loads>,verify' -S %s 2>%t.ptx.err \
; RUN:   | FileCheck %s --check-prefixes=CHECK,PTX
; RUN: count 0 < %t.ptx.err
; RUN: sed -e 's/nvptx64-nvidia-cuda/amdgcn-amd-amdhsa/' -e 's/ptx_kernel/amdgpu_kernel/' %s \
; RUN:   | %opt-ag -passes='align-guard<accesses;loads;device-libs-after>,verify' -S 2>%t.hip.err \
; RUN:   | FileCheck %s --check-prefixes=CHECK,HIP
; RUN: count 0 < %t.hip.err
; RUN: %opt-ag -passes='align-guard<accesses;loads>' %s -o %t.ptx.bc
; RUN: %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ptx.bc -o - | FileCheck %s --check-prefix=PTX-ASM
; RUN: sed -e 's/nvptx64-nvidia-cuda/amdgcn-amd-amdhsa/' -e 's/ptx_kernel/amdgpu_kernel/' %s \
; RUN:   | %opt-ag -passes='align-guard<accesses;loads;device-libs-after>' -o %t.hip.bc
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.hip.bc -o %t.hip.o
; RUN: llvm-readelf --notes %t.hip.o | FileCheck %s --check-prefix=HIP-NOTES
; The control: the kernels as the input has them (without a hostcall, as
; AMDGPUAttributor infers, and on LLVM 14 without the module flag) get none.
; RUN: sed -e 's/nvptx64-nvidia-cuda/amdgcn-amd-amdhsa/' -e 's/ptx_kernel/amdgpu_kernel/' %s \
; RUN:   | %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj -o %t.hip.input.o
; RUN: llvm-readelf --notes %t.hip.input.o | FileCheck %s --check-prefix=NO-BUFFER

target triple = "nvptx64-nvidia-cuda"

; CHECK-DAG: c"alignguard: vec: argument #0 'in' = 0x%llx is %llu-byte aligned, not %llu-byte aligned (%llu bytes past a boundary) [block (%u,%u,%u) thread (%u,%u,%u)]\0A\00"
; CHECK-DAG: c"alignguard: vec: argument #1 'out' = 0x%llx is
; CHECK-DAG: c"alignguard: rows: the pointer loaded from argument #0 't' = 0x%llx is
; CHECK-DAG: c"alignguard: caller: the pointer returned by 'pick' = 0x%llx is

; CHECK-LABEL: define {{.*}}_kernel void @vec(
; CHECK:         and i64 {{%.*}}, 15
; PTX:           call i32 @vprintf(
; HIP:           call i64 @__ockl_fprintf_stderr_begin()
; CHECK:         load <4 x float>
define ptx_kernel void @vec(<4 x float> addrspace(1)* %in, <4 x float> addrspace(1)* %out) #0 {
  %v = load <4 x float>, <4 x float> addrspace(1)* %in, align 16
  store <4 x float> %v, <4 x float> addrspace(1)* %out, align 16
  ret void
}

; CHECK-LABEL: define {{.*}}_kernel void @rows(
; CHECK:         %row = load
; CHECK:         and i64 {{%.*}}, 63
; PTX:           call i32 @vprintf(
; HIP:           call i64 @__ockl_fprintf_stderr_begin()
define ptx_kernel void @rows(float* addrspace(1)* %t) #0 {
  %row = load float*, float* addrspace(1)* %t, align 8, !align !0
  store float 0.0, float* %row
  ret void
}

define align 16 float* @pick(float* %a) #0 {
  ret float* %a
}

; CHECK-LABEL: define {{.*}}_kernel void @caller(
; CHECK:         %q = call {{.*}} @pick(
; CHECK:         and i64 {{%.*}}, 15
; PTX:           call i32 @vprintf(
; HIP:           call i64 @__ockl_fprintf_stderr_begin()
define ptx_kernel void @caller(float* %a) #0 {
  %q = call float* @pick(float* %a)
  store float 0.0, float* %q
  ret void
}

!0 = !{i64 64}

; What AMDGPUAttributor infers of functions that call nothing (no meaning
; on NVPTX).
attributes #0 = { "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" }

; PTX-ASM: .entry vec(
; PTX-ASM: vprintf
; PTX-ASM: .entry rows(
; PTX-ASM: vprintf
; PTX-ASM: .entry caller(
; PTX-ASM: vprintf

; NO-BUFFER-NOT: hidden_hostcall_buffer

; HIP-NOTES: .value_kind: hidden_hostcall_buffer
; HIP-NOTES: .name: vec
; HIP-NOTES: .value_kind: hidden_hostcall_buffer
; HIP-NOTES: .name: rows
; HIP-NOTES: .value_kind: hidden_hostcall_buffer
; HIP-NOTES: .name: caller
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
