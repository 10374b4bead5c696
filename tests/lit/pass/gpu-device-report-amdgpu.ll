; On AMDGPU a failing check reports from the device through HIP's device
; stderr, the ROCm device libraries' __ockl_fprintf_* functions, where they
; will be there: in the module already, or linked after the pass
; (`device-libs-after`). The first failing thread of the launch (a flag
; holding the id of the launch that printed, exchanged) prints the runtime's report line, then traps; in a
; kernel every other failing thread returns, in another function it traps.
; Without the libraries the pass warns and traps (gpu-target-trap.ll).
;
; The kernels keep the hostcall buffer the libraries print through: the
; module gets the "amdgpu_hostcall" flag (LLVM 14), and each function that
; reports, and every function that may call it, loses the "amdgpu-no-*"
; facts inferred before the pass (LLVM 15+). The input's kernels carry those
; facts, as AMDGPUAttributor leaves them: compiled unchanged, they have no
; hostcall buffer (NO-BUFFER, the control); guarded, both do.
;
; RUN: %opt-ag -passes='align-guard<device-libs-after>,verify' -S %s 2>%t.err \
; RUN:   | FileCheck %s --implicit-check-not=__alignguard_report
; RUN: count 0 < %t.err
; RUN: sed -e 's/^;DECLARE //' %s | %opt-ag -passes='align-guard,verify' -S 2>%t.declared.err \
; RUN:   | FileCheck %s --check-prefix=DECLARED
; RUN: count 0 < %t.declared.err
; RUN: %opt-ag -passes='align-guard<recover;device-libs-after>,verify' -S %s 2>&1 >/dev/null \
; RUN:   | FileCheck %s --check-prefix=WARN
; RUN: %opt-ag -passes='align-guard<trap;device-libs-after>,verify' -S %s 2>%t.trap.err \
; RUN:   | FileCheck %s --check-prefix=TRAP
; RUN: count 0 < %t.trap.err
; RUN: %opt-ag -passes='align-guard<device-libs-after>,verify' %s -o %t.bc
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.bc -o %t.o
; RUN: llvm-readelf --notes %t.o | FileCheck %s --check-prefix=BUFFER
; RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=ISA
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %s -o %t.input.o
; RUN: llvm-readelf --notes %t.input.o | FileCheck %s --check-prefix=NO-BUFFER
; RUN: %opt-ag -passes='align-guard-audit<json;plan;device-libs-after>' -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PLAN
;
; Report and return (`return=N`): the kernel prints, then every failing
; thread returns; no trap. In @helper, no kernel, return=N is not there to
; take (it is no entry point): it reports and stops, with the warning.
; RUN: %opt-ag -passes='align-guard<return=0;device-libs-after>,verify' -S %s \
; RUN:   2>%t.ret.err | FileCheck %s --check-prefix=RETURN
; RUN: FileCheck %s --check-prefix=RETURN-WARN < %t.ret.err

; WARN: warning: align-guard: target 'amdgcn-amd-amdhsa' cannot link the AlignGuard runtime; failing checks in this module report from the device and stop instead of 'recover'

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
target triple = "amdgcn-amd-amdhsa"

; The formats are constants in the globals' address space (1).
; CHECK-DAG: @__alignguard_device_claim = internal addrspace(1) global i64 -1, align 8
; CHECK-DAG: @__alignguard_device_format{{[.0-9]*}} = private unnamed_addr addrspace(1) constant [155 x i8] c"alignguard: saxpy: argument #0 'x' = 0x%llx is %llu-byte aligned, not %llu-byte aligned (%llu bytes past a boundary) [block (%u,%u,%u) thread (%u,%u,%u)]\0A\00"
; CHECK-DAG: @__alignguard_device_format{{[.0-9]*}} = private unnamed_addr addrspace(1) constant [156 x i8] c"alignguard: helper: argument #0 'p' = 0x%llx is

; CHECK-LABEL: define amdgpu_kernel void @saxpy(
; CHECK-SAME:    #[[KERNEL:[0-9]+]]
; CHECK:         and i64 {{%.*}}, 15
; CHECK:       alignguard.fail:
; CHECK:         [[ID:%.*]] = call i64 @llvm.amdgcn.dispatch.id()
; CHECK-NEXT:    [[OLD:%.*]] = atomicrmw xchg {{.*}} @__alignguard_device_claim, i64 [[ID]] monotonic, align 8
; CHECK-NEXT:    %ag.first = icmp ne i64 [[OLD]], [[ID]]
; CHECK:         br i1 %ag.first, label %alignguard.report, label %alignguard.leave
; CHECK:       alignguard.report:
; CHECK:         call i32 @llvm.amdgcn.workgroup.id.x()
; CHECK:         call i32 @llvm.amdgcn.workitem.id.z()
; CHECK:         [[M0:%.*]] = call i64 @__ockl_fprintf_stderr_begin()
; The length counts the NUL: 155 bytes.
; CHECK-NEXT:    [[M1:%.*]] = call i64 @__ockl_fprintf_append_string_n(i64 [[M0]], {{.*}}@__alignguard_device_format{{.*}}, i64 155, i32 0)
; Pointer, actual and promised alignment, distance past, block x, y, z; then
; thread x, y, z, the last piece.
; CHECK:         [[M2:%.*]] = call i64 @__ockl_fprintf_append_args(i64 [[M1]], i32 7, i64 %ag.ptr, i64 {{%.*}}, i64 16, i64 {{%.*}}, i64 {{%.*}}, i64 {{%.*}}, i64 {{%.*}}, i32 0)
; CHECK:         call i64 @__ockl_fprintf_append_args(i64 [[M2]], i32 3, i64 {{%.*}}, i64 {{%.*}}, i64 {{%.*}}, i64 0, i64 0, i64 0, i64 0, i32 1)
; CHECK-NEXT:    call void @llvm.trap()
; CHECK-NEXT:    unreachable
; CHECK:       alignguard.leave:
; CHECK-NEXT:    ret void
; CHECK:         and i64 {{%.*}}, 31
; CHECK:         call i64 @__ockl_fprintf_stderr_begin()
define amdgpu_kernel void @saxpy(float addrspace(1)* align 16 %x, float* %y) #0 {
  call void @llvm.assume(i1 true) [ "align"(float* %y, i64 32) ]
  call void @helper(float* %y)
  ret void
}

; Outside a kernel the other failing threads cannot leave it: they trap.
; CHECK-LABEL: define void @helper(
; CHECK-SAME:    #[[KERNEL]]
; CHECK:       alignguard.report:
; CHECK:         call i64 @__ockl_fprintf_stderr_begin()
; CHECK:       alignguard.leave:
; CHECK-NEXT:    call void @llvm.trap()
; CHECK-NEXT:    unreachable
define void @helper(float* %p) #0 {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  ret void
}

; No check of its own, but it calls one that reports: it keeps the buffer.
; CHECK-LABEL: define amdgpu_kernel void @outer(
; CHECK-SAME:    #[[KERNEL]]
define amdgpu_kernel void @outer(float* %p) #0 {
  call void @helper(float* %p)
  ret void
}

; Nothing reports from here or below: what was inferred stays.
; CHECK-LABEL: define amdgpu_kernel void @unchecked(
; CHECK-SAME:    #[[KEPT:[0-9]+]]
define amdgpu_kernel void @unchecked(float* %p) #0 {
  ret void
}

; Kept for the linker: a listing, not a call, so no function is made to
; keep a buffer for it (@unchecked keeps what was inferred).
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (void (float*)* @helper to i8*)], section "llvm.metadata"

declare void @llvm.assume(i1)

;DECLARE declare i64 @__ockl_fprintf_stderr_begin()
;DECLARE declare i64 @__ockl_fprintf_append_string_n(i64, i8*, i64, i32)
;DECLARE declare i64 @__ockl_fprintf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32)

attributes #0 = { "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "amdgpu-no-workgroup-id-y" "amdgpu-agpr-alloc"="0" "uniform-work-group-size"="true" }

; CHECK-DAG: attributes #[[KERNEL]] = { "uniform-work-group-size"="true" }
; CHECK-DAG: attributes #[[KEPT]] = { "amdgpu-agpr-alloc"="0" "amdgpu-no-hostcall-ptr"
; CHECK-DAG: !{i32 4, !"amdgpu_hostcall", i32 1}

; Where the module declares the libraries' functions, they will be linked:
; the report needs no word.
; DECLARED: call i64 @__ockl_fprintf_stderr_begin()
; DECLARED: alignguard.leave:
; DECLARED-NEXT: ret void

; TRAP-NOT:  __ockl
; TRAP:      alignguard.fail:
; TRAP-NEXT:   call void @llvm.trap()
; TRAP-NOT:  __ockl

; BUFFER:      .value_kind: hidden_hostcall_buffer
; BUFFER:      .name: saxpy
; BUFFER:      .value_kind: hidden_hostcall_buffer
; BUFFER:      .name: outer
; BUFFER-NOT:  .value_kind: hidden_hostcall_buffer
; BUFFER:      .name: unchecked
; NO-BUFFER-NOT: hidden_hostcall_buffer

; ISA: global_atomic_swap_x2
; ISA: s_trap 2

; RETURN-LABEL: define amdgpu_kernel void @saxpy(
; RETURN:       alignguard.report:
; RETURN:         call i64 @__ockl_fprintf_append_args({{.*}}, i32 1)
; RETURN-NEXT:    br label %alignguard.return
; RETURN:       alignguard.return:
; RETURN-NEXT:    ret void
; RETURN-LABEL: define void @helper(
; RETURN:         call i64 @__ockl_fprintf_append_args({{.*}}, i32 1)
; RETURN-NEXT:    call void @llvm.trap()
; RETURN-WARN: warning: align-guard: in function 'helper': return cannot be used for the check of argument #0 'p': it is not an entry point; a violation there aborts

; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "at-promise",
; PLAN-NEXT:   "reason": null,
; PLAN-NEXT:   "deferred": false,
; PLAN-NEXT:   "report": "device"
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
