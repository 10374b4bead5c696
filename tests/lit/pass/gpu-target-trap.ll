; Device code cannot link the host runtime. Where the device cannot report
; either (SPIR; AMDGPU without the ROCm device libraries, which print:
; gpu-device-report-amdgpu.ll), a failing check traps whatever the action,
; and the pass says so once per module; trap asked for is trap without a
; word, NVPTX included.
; RUN: %opt-ag -passes='align-guard,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s 2>&1 >/dev/null | count 0
; RUN: sed -e 's/amdgcn-amd-amdhsa/nvptx64-nvidia-cuda/' -e 's/amdgpu_kernel/ptx_kernel/' %s \
; RUN:   | %opt-ag -passes='align-guard<trap>,verify' -S 2>%t.nvptx.err | FileCheck %s
; RUN: count 0 < %t.nvptx.err

; WARN: warning: align-guard: target 'amdgcn-amd-amdhsa' cannot link the AlignGuard runtime and its device report needs the ROCm device libraries linked after align-guard ('device-libs-after'); failing checks in this module trap instead of 'abort'
; WARN-NOT: warning

target triple = "amdgcn-amd-amdhsa"

; CHECK-NOT: __alignguard
; CHECK-LABEL: define {{.*}}void @saxpy(
; CHECK-SAME:    %x, {{.*}} %y)
; CHECK:         and i64 {{%.*}}, 15
; CHECK:         call void @llvm.trap()
; CHECK-NEXT:    unreachable
; CHECK:         and i64 {{%.*}}, 31
; CHECK:         call void @llvm.trap()
define amdgpu_kernel void @saxpy(float addrspace(1)* align 16 %x, float* %y) {
  call void @llvm.assume(i1 true) [ "align"(float* %y, i64 32) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
