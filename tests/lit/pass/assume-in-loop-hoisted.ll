; An assume's promise in a loop, on an address affine in the loop (a row
; pointer `img + y*stride`), is checked before the loop, where an access's
; would be (AccessPlacement): the first address and, when the step is not
; known to be a multiple of the alignment, the second address guarded by
; "the loop runs twice"; a loop that tests first guards the first address
; by "it runs once". The assume stays in the loop, behind the check, marked
; `hoisted` (terminal actions, and recover, whose failing calls rerun in
; a recover copy that drops it). An assume that does not
; run on every iteration, or whose address is not affine, keeps its check
; in place. With every check before the loop, fallback is safe.
; RUN: %opt-ag -passes='align-guard<fallback>,verify' -S %s 2>%t.err | FileCheck %s --check-prefixes=CHECK,FALLBACK
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER
; RUN: %opt-ag -passes='align-guard,align-guard-audit<json;all>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT
; RUN: %opt-ag -passes='align-guard-audit<json;plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
; RUN: %opt-ag -passes='align-guard,align-guard,verify' -S %s | FileCheck %s --check-prefix=RERUN

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

declare void @llvm.assume(i1)

; Only the checks left in the loops cannot fall back.
; WARN-NOT:  warning: {{.*}} function '{{rows|rows_tested_first|step_multiple|nested}}'
; WARN:      warning: align-guard: in function 'conditional': fallback cannot be used {{.*}}fallback-unsafe
; WARN:      warning: align-guard: in function 'not_affine': fallback cannot be used {{.*}}fallback-unsafe
; WARN:      warning: align-guard: in function 'exits_early': fallback cannot be used {{.*}}fallback-unsafe
; WARN-NOT:  warning

; A rotated row loop (as after -O2), entered when h > 0: the first row
; (img), and the second (img + 4*stride bytes) if the backedge is taken.
; CHECK-LABEL: define void @rows(
; CHECK:       ph:
; CHECK:         [[SECOND:%.*]] = getelementptr {{.*}}%img, i64 {{%stride|%.*}}
; CHECK:         [[TAKEN:%.*]] = add i64 %h, -1
; CHECK-NEXT:    [[ITER2:%.*]] = icmp uge i64 [[TAKEN]], 1
; CHECK-NEXT:    [[FIRSTI:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[SECONDI:%.*]] = ptrtoint {{.*}} to i64
; One test: the second address's mask is 0 unless the loop runs twice.
; CHECK-NEXT:    [[LOW1:%.*]] = and i64 [[FIRSTI]], 31
; CHECK-NEXT:    [[MASK2:%.*]] = select i1 [[ITER2]], i64 31, i64 0
; CHECK-NEXT:    [[LOW2:%.*]] = and i64 [[SECONDI]], [[MASK2]]
; CHECK-NEXT:    [[TERMS:%.*]] = or i64 [[LOW1]], [[LOW2]]
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[TERMS]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %alignguard.fail, label %alignguard.ok
; FALLBACK:      call void @__alignguard_fallback(
; FALLBACK:      call void @rows.alignguard.unaligned(
; RECOVER:       tail call void @rows.alignguard.recover(
; CHECK:       loop:
; CHECK-NOT:     __alignguard
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %{{rowi|row}}, i64 32) ], !alignguard.guarded [[HOISTED:![0-9]+]]
; CHECK:         store float
; CHECK:       exit:
; The recover copy a failing call reruns in reports each failing address
; and drops the promise.
; RECOVER-LABEL: define internal void @rows.alignguard.recover(
; RECOVER:       call void @__alignguard_report(
; RECOVER:       call void @__alignguard_report(
; RECOVER:       loop:
; RECOVER-NOT:   @llvm.assume
; RECOVER:       store float
define void @rows(float* %img, i64 %stride, i64 %h) {
entry:
  %none = icmp eq i64 %h, 0
  br i1 %none, label %exit, label %ph
ph:
  br label %loop
loop:
  %y = phi i64 [ 0, %ph ], [ %y.next, %loop ]
  %off = mul i64 %y, %stride
  %row = getelementptr inbounds float, float* %img, i64 %off
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  %y.next = add nuw i64 %y, 1
  %done = icmp eq i64 %y.next, %h
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A loop that tests first (clang's shape at pipeline start, once its
; variables are registers): h is the backedge-taken count.
; CHECK-LABEL: define void @rows_tested_first(
; CHECK:       entry:
; CHECK:         [[ONCE:%.*]] = icmp uge i64 %h, 1
; CHECK:         [[SECOND:%.*]] = getelementptr {{.*}}%img, i64 {{%stride|%.*}}
; CHECK:         [[ITER2:%.*]] = icmp uge i64 %h, 2
; CHECK-NEXT:    [[FIRSTI:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[SECONDI:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[MASK1:%.*]] = select i1 [[ONCE]], i64 31, i64 0
; CHECK-NEXT:    [[LOW1:%.*]] = and i64 [[FIRSTI]], [[MASK1]]
; CHECK-NEXT:    [[MASK2:%.*]] = select i1 [[ITER2]], i64 31, i64 0
; CHECK-NEXT:    [[LOW2:%.*]] = and i64 [[SECONDI]], [[MASK2]]
; CHECK-NEXT:    [[TERMS:%.*]] = or i64 [[LOW1]], [[LOW2]]
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[TERMS]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %alignguard.fail, label %alignguard.ok
; CHECK:       body:
; CHECK-NOT:     __alignguard
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %{{rowi|row}}, i64 32) ], !alignguard.guarded [[HOISTED]]
; CHECK:         store float
; CHECK:       exit:
; RECOVER-LABEL: define internal void @rows_tested_first.alignguard.recover(
; RECOVER:       body:
; RECOVER-NOT:   @llvm.assume
; RECOVER:       store float
define void @rows_tested_first(float* %img, i64 %stride, i64 %h) {
entry:
  br label %cond
cond:
  %y = phi i64 [ 0, %entry ], [ %y.next, %body ]
  %more = icmp ult i64 %y, %h
  br i1 %more, label %body, label %exit
body:
  %off = mul i64 %y, %stride
  %row = getelementptr inbounds float, float* %img, i64 %off
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  %y.next = add i64 %y, 1
  br label %cond
exit:
  ret void
}

; A step of 32 bytes: every row is aligned when the first is; one check.
; CHECK-LABEL: define void @step_multiple(
; CHECK:       entry:
; CHECK:         [[ONCE:%.*]] = icmp uge i64 %h, 1
; CHECK-NEXT:    [[FIRSTI:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[MASK1:%.*]] = select i1 [[ONCE]], i64 31, i64 0
; CHECK-NEXT:    [[LOW1:%.*]] = and i64 [[FIRSTI]], [[MASK1]]
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[LOW1]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %alignguard.fail, label %alignguard.ok
; CHECK:       body:
; CHECK-NOT:     __alignguard
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{.*}}, i64 32) ], !alignguard.guarded [[HOISTED]]
; CHECK:       exit:
define void @step_multiple(float* %img, i64 %h) {
entry:
  br label %cond
cond:
  %y = phi i64 [ 0, %entry ], [ %y.next, %body ]
  %more = icmp ult i64 %y, %h
  br i1 %more, label %body, label %exit
body:
  %off = mul i64 %y, 8
  %row = getelementptr inbounds float, float* %img, i64 %off
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  %y.next = add i64 %y, 1
  br label %cond
exit:
  ret void
}

; The promise in the inner loop is on the row pointer, invariant there and
; affine in the row loop: checked before both, while the inner loop runs.
; CHECK-LABEL: define void @nested(
; CHECK:       entry:
; CHECK:         [[XRUNS:%.*]] = icmp uge i64 %w, 1
; CHECK-NEXT:    [[YRUNS:%.*]] = icmp uge i64 %h, 1
; CHECK-NEXT:    [[ONCE:%.*]] = and i1 [[XRUNS]], [[YRUNS]]
; CHECK:         [[XRUNS2:%.*]] = icmp uge i64 %w, 1
; CHECK-NEXT:    [[YTWICE:%.*]] = icmp uge i64 %h, 2
; CHECK-NEXT:    [[ITER2:%.*]] = and i1 [[XRUNS2]], [[YTWICE]]
; CHECK:         select i1 [[ONCE]], i64 31, i64 0
; CHECK:         select i1 [[ITER2]], i64 31, i64 0
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok
; CHECK:       ycond:
; CHECK-NOT:     __alignguard
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{.*}}, i64 32) ], !alignguard.guarded [[HOISTED]]
; CHECK:       exit:
define void @nested(float* %img, i64 %stride, i64 %h, i64 %w) {
entry:
  br label %ycond
ycond:
  %y = phi i64 [ 0, %entry ], [ %y.next, %ylatch ]
  %ymore = icmp ult i64 %y, %h
  br i1 %ymore, label %ybody, label %exit
ybody:
  %off = mul i64 %y, %stride
  %row = getelementptr inbounds float, float* %img, i64 %off
  br label %xcond
xcond:
  %x = phi i64 [ 0, %ybody ], [ %x.next, %xbody ]
  %xmore = icmp ult i64 %x, %w
  br i1 %xmore, label %xbody, label %ylatch
xbody:
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  %p = getelementptr inbounds float, float* %row, i64 %x
  store float 0.0, float* %p, align 4
  %x.next = add i64 %x, 1
  br label %xcond
ylatch:
  %y.next = add i64 %y, 1
  br label %ycond
exit:
  ret void
}

; Made only on some iterations: checked at the assume, in the loop.
; CHECK-LABEL: define void @conditional(
; CHECK:       entry:
; CHECK-NEXT:    br label %cond
; CHECK:       then:
; CHECK:         ptrtoint
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok
; FALLBACK:      call void @__alignguard_report_abort(
; CHECK:       alignguard.ok:
; FALLBACK-NEXT: call void @llvm.assume(i1 true) [ "align"({{.*}}, i64 32) ], !alignguard.guarded [[UNSAFE:![0-9]+]]
define void @conditional(float* %img, i64 %stride, i64 %h, i1 %c) {
entry:
  br label %cond
cond:
  %y = phi i64 [ 0, %entry ], [ %y.next, %latch ]
  %more = icmp ult i64 %y, %h
  br i1 %more, label %body, label %exit
body:
  br i1 %c, label %then, label %latch
then:
  %off = mul i64 %y, %stride
  %row = getelementptr inbounds float, float* %img, i64 %off
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  br label %latch
latch:
  %y.next = add i64 %y, 1
  br label %cond
exit:
  ret void
}

; Not affine (a row table): checked at the assume, in the loop.
; CHECK-LABEL: define void @not_affine(
; CHECK:       entry:
; CHECK-NEXT:    br label %cond
; CHECK:       body:
; CHECK:         %row = load
; CHECK:         ptrtoint
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok
; FALLBACK:      call void @__alignguard_report_abort(
; CHECK:       alignguard.ok:
; FALLBACK-NEXT: call void @llvm.assume(i1 true) [ "align"({{.*}}, i64 32) ], !alignguard.guarded [[UNSAFE]]
define void @not_affine(float** %rows, i64 %h) {
entry:
  br label %cond
cond:
  %y = phi i64 [ 0, %entry ], [ %y.next, %body ]
  %more = icmp ult i64 %y, %h
  br i1 %more, label %body, label %exit
body:
  %pp = getelementptr inbounds float*, float** %rows, i64 %y
  %row = load float*, float** %pp, align 8
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  %y.next = add i64 %y, 1
  br label %cond
exit:
  ret void
}

; A loop that may end the program before the promise (an iteration that
; calls exit(1) first): a check before the loop would report a promise the
; program never makes. Checked at the assume.
; CHECK-LABEL: define void @exits_early(
; CHECK:       entry:
; CHECK-NEXT:    br label %cond
; CHECK:       body:
; CHECK:         ptrtoint
; CHECK:         br i1 {{%.*}}, label %alignguard.fail, label %alignguard.ok
define void @exits_early(float* %img, i64 %stride, i64 %h, i1 %bad) {
entry:
  br label %cond
cond:
  %y = phi i64 [ 0, %entry ], [ %y.next, %body ]
  %more = icmp ult i64 %y, %h
  br i1 %more, label %check, label %exit
check:
  br i1 %bad, label %die, label %body
die:
  call void @exit(i32 1)
  unreachable
body:
  %off = mul i64 %y, %stride
  %row = getelementptr inbounds float, float* %img, i64 %off
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  %y.next = add i64 %y, 1
  br label %cond
exit:
  ret void
}

declare void @exit(i32) noreturn nounwind

; CHECK: [[HOISTED]] = !{!"hoisted"}
; FALLBACK: [[UNSAFE]] = !{!"fallback-unsafe: a store can run before the check, so running the copy would repeat it"}

; AUDIT: guarded assume-bundle rows | {{.*}} | hoisted
; AUDIT: guarded assume-bundle rows_tested_first | {{.*}} | hoisted
; AUDIT: guarded assume-bundle step_multiple | {{.*}} | hoisted
; AUDIT: guarded assume-bundle nested | {{.*}} | hoisted
; AUDIT: guarded assume-bundle conditional | {{.*}} | None
; AUDIT: guarded assume-bundle not_affine | {{.*}} | None
; AUDIT: guarded assume-bundle exits_early | {{.*}} | None

; The audit's plan (before align-guard) says the same.
; PLAN:      "function": "rows",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "hoisted",
; PLAN:      "function": "rows_tested_first",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "hoisted",
; PLAN:      "function": "step_multiple",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "hoisted",
; PLAN:      "function": "nested",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "hoisted",
; PLAN:      "function": "conditional",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "at-promise",
; PLAN:      "function": "not_affine",
; PLAN:      "plan": {
; PLAN-NEXT:   "check": true,
; PLAN-NEXT:   "site": 0,
; PLAN-NEXT:   "action": "abort",
; PLAN-NEXT:   "placement": "at-promise",

; A second run checks nothing twice.
; RERUN-COUNT-7: call void @__alignguard_report_abort(
; RERUN-NOT:     call void @__alignguard_report_abort(
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
