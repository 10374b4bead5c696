; Device code cannot link the host runtime: on GPU targets a failing check
; traps whatever the action, and the pass says so once per module.
; RUN: %opt-ag -passes='align-guard,verify' -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s 2>&1 >/dev/null | count 0

; WARN: warning: align-guard: target 'nvptx64-nvidia-cuda' cannot link the AlignGuard runtime; failing checks in this module trap instead of 'abort'
; WARN-NOT: warning

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: __alignguard_report
define ptx_kernel void @saxpy(float addrspace(1)* align 16 %x, float* %y) {
; CHECK-LABEL: define ptx_kernel void @saxpy(
; CHECK-SAME:    %x, {{.*}} %y)
; CHECK:         and i64 {{%.*}}, 15
; CHECK:         call void @llvm.trap()
; CHECK-NEXT:    unreachable
; CHECK:         and i64 {{%.*}}, 31
; CHECK:         call void @llvm.trap()
  call void @llvm.assume(i1 true) [ "align"(float* %y, i64 32) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
