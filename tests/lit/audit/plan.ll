; align-guard-audit<plan> predicts align-guard on the IR align-guard plans
; on, and align-guard's remarks count promises, not checks
; (tests/lit/corpus/agreement.test compares the two on every test file).
;
; The loop in @no_preheader has no preheader: align-guard inserts one
; before planning, and hoists the checks there. The audit plans on a copy
; prepared the same way, so it predicts the hoisted placement (not
; in-loop), and a fallback that is safe (nothing has been stored yet).
; RUN: %opt-ag -passes='align-guard-audit<json;all;plan;fallback;accesses>' \
; RUN:   -disable-output %s | FileCheck %s --check-prefix=AUDIT
; RUN: %opt-ag -passes='align-guard<fallback;accesses>,verify' \
; RUN:   -pass-remarks=align-guard -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=GUARD --implicit-check-not=remark:
; The audit leaves the module as it was: the prepared copy is gone.
; RUN: %opt-ag -passes='align-guard-audit<plan;fallback;accesses>' \
; RUN:   -S %s 2>/dev/null | FileCheck %s --check-prefix=IR

; AUDIT:      "function": "no_preheader",
; AUDIT:      "subject": "argument #0 'in'",
; AUDIT:      "plan": {
; AUDIT-NEXT:   "check": true,
; AUDIT-NEXT:   "site": 0,
; AUDIT-NEXT:   "action": "fallback",
; AUDIT-NEXT:   "placement": "hoisted",
; AUDIT-NEXT:   "reason": null
; AUDIT:      "function": "no_preheader",
; AUDIT:      "subject": "argument #1 'out'",
; AUDIT:      "plan": {
; AUDIT-NEXT:   "check": true,
; AUDIT-NEXT:   "site": 0,
; AUDIT-NEXT:   "action": "fallback",
; AUDIT-NEXT:   "placement": "hoisted",
; The two accesses of %p are one finding (identical, plan included, but
; for their place) that stands for two promises.
; AUDIT:      "function": "two",
; AUDIT:      "plan": {
; AUDIT-NEXT:   "check": true,
; AUDIT-NEXT:   "site": 0,
; AUDIT:      "occurrences": 2,
; AUDIT-NOT:  "function": "two",
; AUDIT:      "summary": {
; AUDIT-NEXT:   "total": 4,

; GUARD: remark: {{.*}} access on argument #0 'in' checked at site 0 (fallback, hoisted)
; GUARD: remark: {{.*}} access on argument #1 'out' checked at site 0 (fallback, hoisted)
; One check of %p answers for both accesses: one remark for each.
; GUARD: remark: {{.*}} access on argument #0 'p' checked at site 0 (fallback, in-place)
; GUARD: remark: {{.*}} access on argument #0 'p' checked at site 0 (fallback, in-place)

; IR:     define void @no_preheader(
; IR:     define void @two(
; IR-NOT: define

define void @no_preheader(<4 x float>* %in, <4 x float>* %out, i64 %n) {
entry:
  %small = icmp ult i64 %n, 1
  br i1 %small, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds <4 x float>, <4 x float>* %in, i64 %i
  %x = load <4 x float>, <4 x float>* %pi, align 16
  %po = getelementptr inbounds <4 x float>, <4 x float>* %out, i64 %i
  store <4 x float> %x, <4 x float>* %po, align 16
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @two(<4 x float>* %p) {
  %x = load <4 x float>, <4 x float>* %p, align 16
  %y = fadd <4 x float> %x, %x
  store <4 x float> %y, <4 x float>* %p, align 16
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
