; `align N` on an entry point's parameter is the caller's promise: the
; attribute goes, and a guarded assume after the allocas keeps the fact.
; Internal functions are not entry points: their attributes stay.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT,REPORT
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,TRAP
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RECOVER,REPORT

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

%struct.big = type { [8 x i64] }

; Each subject: a string global (a lone descriptor's) or a string of a
; packed table, as tests/tools/packed-sites.py decodes it.
; REPORT-DAG: c"argument #1 'b'{{(\\00)?}}"
; REPORT-DAG: c"argument #2 'c'{{(\\00)?}}"
; REPORT-DAG: c"argument #0 'v' element 1{{(\\00)?}}"

define void @vadd(float* %a, float* align 64 %b, float* align 32 %c) {
; CHECK-LABEL: define void @vadd({{float\*|ptr}} %a, {{float\*|ptr}} %b, {{float\*|ptr}} %c)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %slot = alloca float, align 4
; CHECK-NEXT:    [[B:%.*]] = ptrtoint {{float\*|ptr}} %b to i64
; CHECK-NEXT:    [[C:%.*]] = ptrtoint {{float\*|ptr}} %c to i64
; CHECK-NEXT:    [[BL:%.*]] = and i64 [[B]], 63
; CHECK-NEXT:    [[CL:%.*]] = and i64 [[C]], 31
; CHECK-NEXT:    [[TERMS:%.*]] = or i64 [[BL]], [[CL]]
; CHECK-NEXT:    [[ANY:%.*]] = icmp ne i64 [[TERMS]], 0
; CHECK-NEXT:    br i1 [[ANY]], label %alignguard.fail, label %alignguard.ok, !prof
; CHECK:       alignguard.fail:
; TRAP-NEXT:     call void @llvm.trap()
; Abort: one call of the table hook (the runtime reports b if b fails,
; else c).
; ABORT-NEXT:    call void @__alignguard_report_first_abort(i64 [[B]], i64 [[C]], i64 0, i64 0, {{.*}}@__alignguard_site{{.*}}, i64 2)
; ABORT-NEXT:    unreachable
; Recover: the call reruns in the recover copy; the aligned path keeps the
; promises.
; RECOVER-NEXT:  tail call void @vadd.alignguard.recover({{float\*|ptr}} %a, {{float\*|ptr}} %b, {{float\*|ptr}} %c)
; RECOVER-NEXT:  ret void
; CHECK:       alignguard.ok:
; ABORT-NEXT:    call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %b, i64 64), "align"({{float\*|ptr}} %c, i64 32) ], !alignguard.guarded [[ORIGIN:![0-9]+]]
; TRAP-NEXT:     call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %b, i64 64), "align"({{float\*|ptr}} %c, i64 32) ], !alignguard.guarded
; RECOVER-NEXT:  call void @llvm.assume(i1 true) [ "align"({{float\*|ptr}} %b, i64 64), "align"({{float\*|ptr}} %c, i64 32) ], !alignguard.guarded
; CHECK-NEXT:    store float 1.0
; The copy, without the attributes: each failing pointer, one by one, and
; no promise after.
; RECOVER-LABEL: define internal void @vadd.alignguard.recover({{float\*|ptr}} %a, {{float\*|ptr}} %b, {{float\*|ptr}} %c)
; RECOVER:       [[CB:%.*]] = ptrtoint {{float\*|ptr}} %b to i64
; RECOVER:       [[CC:%.*]] = ptrtoint {{float\*|ptr}} %c to i64
; RECOVER:       call void @__alignguard_report({{.*}}, i64 [[CB]], i64 64, i64 0)
; RECOVER:       call void @__alignguard_report({{.*}}, i64 [[CC]], i64 32, i64 0)
; RECOVER:       alignguard.ok:
; RECOVER-NOT:   @llvm.assume
; RECOVER-NEXT:  store float 1.0
entry:
  %slot = alloca float, align 4
  store float 1.0, float* %slot, align 4
  ret void
}

; Not an entry point (internal): the promise is its callers' business.
define internal void @helper(float* align 64 %p) {
; CHECK-LABEL: define internal void @helper({{float\*|ptr}} align 64 %p)
; CHECK-NEXT:    ret void
  ret void
}

; byval's `align` is the alignment of the callee's own copy, which the ABI
; makes: not a caller's promise, not checked. sret's is, and is checked.
define void @abi(%struct.big* byval(%struct.big) align 64 %copy, %struct.big* sret(%struct.big) align 16 %out) {
; CHECK-LABEL: define void @abi(
; CHECK-SAME:    byval(%struct.big) align 64 %copy, {{.*}} sret(%struct.big) %out)
; CHECK:         and i64 {{%.*}}, 15
; CHECK-NOT:     and i64 {{%.*}}, 63
; CHECK:         ret void
  ret void
}

; align on a vector of pointers holds for each element (LangRef).
define void @lanes(<2 x i8*> align 16 %v) {
; CHECK-LABEL: define void @lanes(<2 x {{i8\*|ptr}}> %v)
; CHECK:         [[L0:%.*]] = extractelement <2 x {{i8\*|ptr}}> %v, i64 0
; CHECK:         [[L1:%.*]] = extractelement <2 x {{i8\*|ptr}}> %v, i64 1
; CHECK:         ptrtoint {{i8\*|ptr}} [[L0]] to i64
; CHECK:         ptrtoint {{i8\*|ptr}} [[L1]] to i64
; ABORT:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} [[L0]], i64 16), "align"({{i8\*|ptr}} [[L1]], i64 16) ]
  ret void
}

; The guarded assume remembers it was a parameter attribute (for the audit).
; ABORT: [[ORIGIN]] = !{!"param-attr"}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
