; The audit's plan says how each site is emitted, as the planner decided it
; (the emitter only carries it out): reported by one table of descriptors
; (2 to 4 pointers, a terminal action that reports), by each check's own
; descriptor, or by nothing (trap); deferred or not.
; RUN: %opt-ag -passes='align-guard-audit<json;plan;abort>' -disable-output %s \
; RUN:   | FileCheck %s --check-prefixes=AUDIT,ABORT
; RUN: %opt-ag -passes='align-guard-audit<json;plan;trap>' -disable-output %s \
; RUN:   | FileCheck %s --check-prefixes=AUDIT,TRAP
; RUN: %opt-ag -passes='align-guard-audit<json;plan;recover;no-rerun>' \
; RUN:   -disable-output %s | FileCheck %s --check-prefixes=AUDIT,RECOVER
; The guard does what the plan says: one table-hook call for @two, the
; one-check hook for @one.
; RUN: %opt-ag -passes='align-guard<abort>,verify' -S %s \
; RUN:   | FileCheck %s --check-prefix=GUARD
; RUN: %opt-ag -passes='align-guard<recover;no-rerun>,verify' -S %s \
; RUN:   | FileCheck %s --check-prefix=GUARD-RECOVER

; AUDIT:        "function": "one",
; AUDIT:        "plan": {
; AUDIT-NEXT:     "check": true,
; AUDIT-NEXT:     "site": 0,
; AUDIT:          "deferred": false,
; ABORT-NEXT:     "report": "each"
; TRAP-NEXT:      "report": null
; RECOVER-NEXT:   "report": "each"
; AUDIT:        "function": "two",
; AUDIT:        "plan": {
; AUDIT-NEXT:     "check": true,
; AUDIT-NEXT:     "site": 0,
; AUDIT:          "deferred": false,
; ABORT-NEXT:     "report": "table"
; TRAP-NEXT:      "report": null
; RECOVER-NEXT:   "report": "each"

; GUARD-LABEL:  define i32 @one(
; GUARD:          call void @__alignguard_report_abort(
; GUARD-LABEL:  define i32 @two(
; GUARD:          call void @__alignguard_report_first_abort{{[_a-z0-9]*}}(
; GUARD-NOT:      call void @__alignguard_report_abort(
; GUARD:        }
; GUARD-RECOVER-LABEL: define i32 @two(
; GUARD-RECOVER-COUNT-2: call void @__alignguard_report(
; GUARD-RECOVER-NOT:     call void @__alignguard_report_first

define i32 @one(float* align 64 %a) "alignguard-entry" {
  %v = load float, float* %a
  ret i32 0
}

define i32 @two(float* align 64 %a, float* align 32 %b) "alignguard-entry" {
  %v = load float, float* %a
  store float %v, float* %b
  ret i32 0
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
