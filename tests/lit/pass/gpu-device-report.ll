; On NVPTX a failing check reports from the device, under the default action
; (abort): the runtime's report line, printed with vprintf by the first
; failing thread of the launch (the first to exchange the launch's %gridid
; into a flag), with where on
; the device, then __assertfail (the launch fails with the driver's assert
; error) and a trap. Every other failing thread leaves (`exit;`) without
; the kernel's work. No runtime is called, no warning given; other actions
; do the same, with a warning. The PTX compiles for sm_80 (and, where
; ptxas is installed, cuda-nvptx-ptxas.test assembles it).
; RUN: %opt-ag -passes='align-guard,verify' -S %s 2>%t.err \
; RUN:   | FileCheck %s --implicit-check-not=__alignguard_report
; RUN: count 0 < %t.err
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
; RUN: %opt-ag -passes='align-guard,verify' %s -o %t.bc
; RUN: %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.bc -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt-ag -passes='align-guard-audit<json;plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
;
; Report and return (`return=N`; a kernel returns nothing): the first failing
; thread prints, then every failing thread returns without the kernel's
; work; nothing stops the launch (no assert, no trap, no exit), and no
; warning is given: it is the action asked for.
; RUN: %opt-ag -passes='align-guard<return=0>,verify' -S %s 2>%t.ret.err \
; RUN:   | FileCheck %s --check-prefix=RETURN --implicit-check-not=__assertfail \
; RUN:       --implicit-check-not='"exit;"' --implicit-check-not=@llvm.trap
; RUN: count 0 < %t.ret.err
; A device function that is no kernel, made an entry point, cannot return
; in a kernel's stead: it returns nothing its caller could tell from its
; work, so return=N keeps its host rule there, with its warning.
; RUN: %opt-ag -passes='align-guard<return=0;entry=devfn>,verify' -S %s 2>%t.devfn.err \
; RUN:   | FileCheck %s --check-prefix=DEVFN
; RUN: FileCheck %s --check-prefix=DEVFN-WARN < %t.devfn.err
; RUN: %opt-ag -passes='align-guard<return=0>' %s -o %t.ret.bc
; RUN: %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %t.ret.bc -o - | FileCheck %s --check-prefix=RETURN-PTX

; WARN: warning: align-guard: target 'nvptx64-nvidia-cuda' cannot link the AlignGuard runtime; failing checks in this module report from the device and stop instead of 'recover'

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-DAG: @__alignguard_device_claim = internal addrspace(1) global i64 -1, align 8
; CHECK-DAG: @__alignguard_device_format{{[.0-9]*}} = private unnamed_addr constant [{{[0-9]+}} x i8] c"alignguard: saxpy: argument #0 'x' = 0x%llx is %llu-byte aligned, not %llu-byte aligned (%llu bytes past a boundary) [block (%u,%u,%u) thread (%u,%u,%u)]\0A\00"
; CHECK-DAG: @__alignguard_device_format{{[.0-9]*}} = private unnamed_addr constant [{{[0-9]+}} x i8] c"alignguard: saxpy: argument #1 'y' = 0x%llx is %llu-byte aligned, not %llu-byte aligned (%llu bytes past a boundary) [block (%u,%u,%u) thread (%u,%u,%u)]\0A\00"
; A `%` of the IR's names is a literal in the format: a value's subject
; (`'%row'`) cannot become a conversion.
; CHECK-DAG: @__alignguard_device_format{{[.0-9]*}} = private unnamed_addr constant [{{[0-9]+}} x i8] c"alignguard: rows: '%%row' = 0x%llx is

; CHECK-LABEL: define ptx_kernel void @saxpy(
; CHECK:         alloca { i64, i64, i64, i64, i32, i32, i32, i32, i32, i32 }, align 8
; CHECK:         and i64 {{%.*}}, 15
; CHECK:       alignguard.fail:
; PTX's %gridid, which LLVM reads as 32 bits (widened for the flag).
; CHECK:         call {{i32|i64}} @llvm.nvvm.read.ptx.sreg.gridid()
; CHECK:         [[OLD:%.*]] = atomicrmw xchg {{.*}} @__alignguard_device_claim, i64 [[ID:%[0-9a-z.]+]] monotonic, align 8
; CHECK-NEXT:    %ag.first = icmp ne i64 [[OLD]], [[ID]]
; CHECK:         br i1 %ag.first, label %alignguard.report, label %alignguard.leave
; CHECK:       alignguard.report:
; CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
; CHECK:         call i32 @vprintf({{.*}}@__alignguard_device_format
; CHECK:         call void @__assertfail(
; CHECK-NEXT:    call void @llvm.trap()
; CHECK-NEXT:    unreachable
; CHECK:       alignguard.leave:
; CHECK-NEXT:    call void asm sideeffect "exit;", ""()
; CHECK-NEXT:    unreachable
; CHECK:         and i64 {{%.*}}, 31
; CHECK:         call i32 @vprintf(
define ptx_kernel void @saxpy(float addrspace(1)* align 16 %x, float* %y) {
  call void @llvm.assume(i1 true) [ "align"(float* %y, i64 32) ]
  ret void
}

define ptx_kernel void @rows(float** %t, i64 %i) {
  %p = getelementptr float*, float** %t, i64 %i
  %row = load float*, float** %p
  call void @llvm.assume(i1 true) [ "align"(float* %row, i64 16) ]
  ret void
}

; PTX: .extern .func  (.param .b32 func_retval0) vprintf
; PTX: .extern .func __assertfail
; PTX: .global .align 8 .u64 __alignguard_device_claim = -1;
; PTX: .entry saxpy(
; PTX-DAG: %gridid
; PTX-DAG: atom{{.*}}.global.exch.b64
; PTX-DAG: exit;
; PTX-DAG: call.uni (retval0),{{[[:space:]]*}}vprintf,
; PTX-DAG: call.uni{{[[:space:]]*}}__assertfail,
; PTX-DAG: trap;

; RETURN-LABEL: define ptx_kernel void @saxpy(
; RETURN:       alignguard.fail:
; RETURN:         atomicrmw xchg {{.*}} @__alignguard_device_claim
; RETURN:         br i1 %ag.first, label %alignguard.report, label %alignguard.return
; RETURN:       alignguard.report:
; RETURN:         call i32 @vprintf(
; RETURN-NEXT:    br label %alignguard.return
; RETURN:       alignguard.return:
; RETURN-NEXT:    ret void

; DEVFN-LABEL: define void @devfn(
; DEVFN:         call void @__assertfail(
; DEVFN-WARN: warning: align-guard: in function 'devfn': return cannot be used for the check of argument #0 'p': it does not return an integer; a violation there aborts

; RETURN-PTX:     .entry saxpy(
; RETURN-PTX:     vprintf,
; RETURN-PTX-NOT: trap;
; RETURN-PTX-NOT: __assertfail

; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "at-promise",
; PLAN-NEXT:   "reason": null,
; PLAN-NEXT:   "deferred": false,
; PLAN-NEXT:   "report": "device"

define void @devfn(float* align 16 %p) {
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
