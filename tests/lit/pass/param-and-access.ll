; One pointer, one check: an entry point's `align` parameter and an
; over-aligned access of the same pointer checked at the same place (rustc's
; kernels: `align 32` on the reference, `align 32` vector loads hoisted to
; the entry) are one check, so that a violation is reported once. An access
; the parameter's check covers (the same or a weaker alignment) is left out,
; covered by that site; one that needs more raises the parameter's check to
; its alignment, when its own check would run wherever the parameter's does
; (the report names the parameter, with the raised alignment). An access
; check that runs only when a loop does stays a check of its own.
; RUN: %opt-ag -passes='align-guard<accesses>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<accesses;recover>,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefixes=CHECK,RECOVER
; RUN: %opt-ag -passes='align-guard<accesses;recover>' -pass-remarks=align-guard -pass-remarks-analysis=align-guard -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; A remark file carries each promise's plan after the message, the fields of
; the audit's `plan` object (docs/guide.md).
; RUN: %opt-ag -passes='align-guard<accesses;recover>' -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML < %t.yaml
; RUN: %opt-ag -passes='align-guard-audit<json;all;plan;accesses;recover>' -disable-output %s | FileCheck %s --check-prefix=PLAN

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-DAG: ; packed @[[SAME:__alignguard_site[.0-9]*]] = [{ i32 3, i32 2, {{.*}}, i64 32, i64 0, null, i32 0, i32 0 }]
; CHECK-DAG: ; packed @[[STRONGER:__alignguard_site[.0-9]*]] = [{ i32 3, i32 2, {{.*}}, i64 32, i64 0, null, i32 0, i32 0 }]

; The same alignment: the parameter's check, nothing for the accesses.
; REMARK: access on argument #0 'x' gets no check: covered by the check of site 0{{$}}
; REMARK-NEXT: access on argument #0 'x' gets no check: covered by the check of site 0{{$}}
; REMARK-NEXT: param-attr on argument #0 'x' checked at site 0 (recover, at-promise)
define void @same(float* align 32 %x, i64 %n) {
; CHECK-LABEL: define void @same(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ag.ptr = ptrtoint {{.*}} %x to i64
; CHECK-NEXT:    [[LOW:%.*]] = and i64 %ag.ptr, 31
; CHECK-NEXT:    %ag.misaligned = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; CHECK-COUNT-1: call void @__alignguard_report{{.*}}(
; ABORT:         @llvm.assume(i1 true) [ "align"({{.*}} %x, i64 32) ]
; CHECK-NOT:     {{^}}alignguard.fail
; ABORT:         load <8 x float>, {{.*}}, align 32, !alignguard.guarded
; ABORT:         store <8 x float> {{.*}}, align 32, !alignguard.guarded
; RECOVER:       load <8 x float>, {{.*}}, align 4{{$}}
; RECOVER:       store <8 x float> {{.*}}, align 4{{$}}
; CHECK:         ret void
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %e = getelementptr inbounds float, float* %x, i64 %i
  %p = bitcast float* %e to <8 x float>*
  %v = load <8 x float>, <8 x float>* %p, align 32
  %w = fadd <8 x float> %v, %v
  store <8 x float> %w, <8 x float>* %p, align 32
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The accesses need 32, the parameter promises 16: the parameter's check
; tests 32 (and reports it), the assume keeps the parameter's 16.
; The load raises the check; the store is then covered as it is.
; REMARK: access on argument #0 'x' gets no check: covered by the check of site 0, raised to 32 bytes for it
; REMARK-NEXT: access on argument #0 'x' gets no check: covered by the check of site 0{{$}}
; REMARK: param-attr on argument #0 'x' checked at site 0 (recover, at-promise)
; YAML-LABEL: Function: stronger
; YAML:       - String: covered by the check of site 0, raised to 32 bytes for it
; YAML-NEXT:  - Check: 'false'
; YAML-NEXT:  - Site: '0'
; YAML-NEXT:  - Action: recover
; YAML-NEXT:  - Placement: at-promise
; YAML-NEXT:  - Reason: covered by the check of site 0, raised to 32 bytes for it
; YAML-NEXT:  - Deferred: 'false'
; YAML-NEXT:  - Report: each
; YAML:       Function: stronger
; YAML:       Function: stronger
; YAML:       - String: ')'
; YAML-NEXT:  - Check: 'true'
; YAML-NEXT:  - Site: '0'
; YAML-NEXT:  - Action: recover
; YAML-NEXT:  - Placement: at-promise
; YAML-NEXT:  - Reason: ''
; YAML-NEXT:  - Deferred: 'false'
; YAML-NEXT:  - Report: each
; PLAN:      "function": "stronger",
; PLAN-NEXT: "kind": "param-attr",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "recover",
; PLAN-NEXT:   "placement": "at-promise",
; PLAN-NEXT:   "reason": null,
; PLAN-NEXT:   "deferred": false,
; PLAN-NEXT:   "report": "each"
; PLAN:      "function": "stronger",
; PLAN-NEXT: "kind": "access",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": false,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "recover",
; PLAN-NEXT:   "placement": "at-promise",
; PLAN-NEXT:   "reason": "covered by the check of site 0, raised to 32 bytes for it",
; PLAN-NEXT:   "deferred": false,
; PLAN-NEXT:   "report": "each"
define void @stronger(float* align 16 %x, i64 %n) {
; CHECK-LABEL: define void @stronger(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ag.ptr = ptrtoint {{.*}} %x to i64
; CHECK-NEXT:    [[LOW:%.*]] = and i64 %ag.ptr, 31
; CHECK-NEXT:    %ag.misaligned = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 %ag.misaligned, label %alignguard.fail, label %alignguard.ok
; ABORT:         call void @__alignguard_report_abort({{.*}}@[[STRONGER]]{{.*}}, i64 %ag.ptr, i64 32, i64 0)
; RECOVER:       call void @__alignguard_report({{.*}}@[[STRONGER]]{{.*}}, i64 %ag.ptr, i64 32, i64 0)
; ABORT:         @llvm.assume(i1 true) [ "align"({{.*}} %x, i64 16) ]
; CHECK-NOT:     {{^}}alignguard.fail
; ABORT:         load <8 x float>, {{.*}}, align 32, !alignguard.guarded
; ABORT:         store <8 x float> {{.*}}, align 32, !alignguard.guarded
; RECOVER:       load <8 x float>, {{.*}}, align 4{{$}}
; RECOVER:       store <8 x float> {{.*}}, align 4{{$}}
; CHECK:         ret void
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %e = getelementptr inbounds float, float* %x, i64 %i
  %p = bitcast float* %e to <8 x float>*
  %v = load <8 x float>, <8 x float>* %p, align 32
  %w = fadd <8 x float> %v, %v
  store <8 x float> %w, <8 x float>* %p, align 32
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A loop that tests first: the access check runs only when the loop does,
; where testing 32 for the parameter could fail a call that accesses
; nothing. Two checks.
; REMARK: param-attr on argument #0 'x' checked at site 0 (recover, at-promise)
; REMARK: access on argument #0 'x' checked at site 1 (recover, hoisted)
define void @test_first(float* align 16 %x, i64 %n) {
; CHECK-LABEL: define void @test_first(
; CHECK:         and i64 %ag.ptr, 15
; CHECK:         call void @__alignguard_report{{.*}}, i64 %ag.ptr, i64 16, i64 0)
; CHECK:         %ag.guarded.mask = select i1 %ag.loop.runs, i64 31, i64 0
; CHECK-NEXT:    and i64 %ag.ptr{{[0-9]+}}, %ag.guarded.mask
; CHECK:         call void @__alignguard_report{{.*}}, i64 %ag.ptr{{[0-9]+}}, i64 32, i64 0)
; CHECK-NOT:     {{^}}alignguard.fail
; CHECK:         ret void
entry:
  br label %header
header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %e = getelementptr inbounds float, float* %x, i64 %i
  %p = bitcast float* %e to <8 x float>*
  %v = load <8 x float>, <8 x float>* %p, align 32
  %i.next = add nuw nsw i64 %i, 8
  br label %header
exit:
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
