; align-guard-inlined-accesses (InlinedAccessesPass.h) on one function, as
; the inliner's walk leaves it: @k holds the aligned accesses its wrapper's
; inlining put there, on its arguments %out and %in.
;
; With `accesses`: a deferred marker per place, out of the loop, that
; align-guard-expand turns into the check; nothing for @helper (not an
; entry point) or @opted (no-align-guard).
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<accesses>),align-guard-expand,verify' -S %s | FileCheck %s --check-prefix=CHECKED
; Without: one warning per entry point, naming the switch; the IR unchanged.
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<abort>)' -S %s -o %t.warn.ll 2>&1 | FileCheck %s --check-prefix=WARN
; RUN: %opt -S %s | diff - %t.warn.ll
; Fallback needs a copy, which the module-level run makes: @k stays out of
; its callers (noinline), unchecked here. So does a function pipeline
; start made a recover copy of (@r).
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<fallback;accesses>)' -S %s | FileCheck %s --check-prefix=FALLBACK
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<recover;accesses>)' -S %s | FileCheck %s --check-prefix=RECOVER
; Run twice, the second run changes nothing.
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<accesses>)' -S < %s -o %t.once.ll
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<accesses>)' -S < %t.once.ll | diff %t.once.ll -
; It prints as it parses, and a bad parameter is one error.
; RUN: %opt-ag -passes='function(align-guard-inlined-accesses<trap;accesses>)' -print-pipeline-passes -disable-verify -disable-output %s | FileCheck %s --check-prefix=PRINT
; RUN: not %opt-ag -passes='function(align-guard-inlined-accesses<bogus>)' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

define void @k(<8 x float>* %out, float* %in, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds float, float* %in, i64 %i
  %srcv = bitcast float* %src to <8 x float>*
  %v = load <8 x float>, <8 x float>* %srcv, align 32
  %dst = getelementptr inbounds <8 x float>, <8 x float>* %out, i64 %i
  store <8 x float> %v, <8 x float>* %dst, align 32
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define internal <8 x float> @helper(<8 x float>* %p) {
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret <8 x float> %v
}

define <8 x float> @opted(<8 x float>* %p) #0 {
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret <8 x float> %v
}

define <8 x float> @r(<8 x float>* %p) {
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret <8 x float> %v
}

define internal <8 x float> @r.alignguard.recover(<8 x float>* %p) {
  %v = load <8 x float>, <8 x float>* %p, align 4
  ret <8 x float> %v
}

define i32 @main() {
  %a = alloca [64 x float], align 32
  %p = getelementptr inbounds [64 x float], [64 x float]* %a, i64 0, i64 1
  %q = bitcast float* %p to <8 x float>*
  call void @k(<8 x float>* %q, float* %p, i64 32)
  ret i32 0
}

attributes #0 = { "no-align-guard" }

; CHECKED-LABEL: define void @k(
; CHECKED:         call void @__alignguard_report_first_abort_v3(
; CHECKED-LABEL: loop:
; CHECKED-NOT:     __alignguard_report
; CHECKED:         load <8 x float>, {{.*}} align 32, !alignguard.guarded
; CHECKED-LABEL: define internal <8 x float> @helper(
; CHECKED-NOT:     __alignguard_report
; CHECKED-LABEL: define <8 x float> @opted(
; CHECKED-NOT:     __alignguard_report
; CHECKED-LABEL: define <8 x float> @r(
; CHECKED-NOT:     __alignguard_report
; CHECKED-LABEL: define i32 @main(

; WARN: warning: align-guard: in function 'k': over-aligned accesses to argument #{{[01]}} '{{out|in}}' and 1 more are not checked; add the 'accesses' option to check them (align-guard<ACTION;accesses>, --alignguard=ACTION,accesses, alignguard_instrument(... ACCESSES))
; WARN: warning: align-guard: in function 'r': over-aligned accesses to argument #0 'p' are not checked
; WARN-NOT: warning:

; FALLBACK: define void @k({{.*}}) #[[NOINLINE:[0-9]+]]
; FALLBACK-NOT: __alignguard
; FALLBACK: attributes #[[NOINLINE]] = { noinline }

; RECOVER: define void @k(
; RECOVER:   call void @alignguard.deferred.check(
; RECOVER:   load <8 x float>, {{.*}}, align 4
; RECOVER: define <8 x float> @r({{.*}}) #[[NOINLINE:[0-9]+]]
; RECOVER-NOT: call void @alignguard.deferred.check
; RECOVER: attributes #[[NOINLINE]] = { noinline }

; PRINT: function(align-guard-inlined-accesses<trap;accesses>)
; BAD: error: {{.*}}bogus
