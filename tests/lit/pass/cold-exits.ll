; align-guard-cold-exits (ColdExitsPass.h), which a build runs last: each
; failing side that leaves the function does so by one tail call of a
; thunk that does the rest, so that the aligned path sets up no frame for
; the call. The failing sides below are written as align-guard leaves them
; (its calls carry !nosanitize).
; RUN: %opt-ag -passes=align-guard-cold-exits,verify -S %s | FileCheck %s
; A second run finds nothing left to rewrite.
; RUN: %opt-ag -passes=align-guard-cold-exits,align-guard-cold-exits,verify -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@site = private constant i8 0

; abort: the hook does not return; the thunk returns for the optimiser only.
; CHECK-LABEL: define void @abort_void(
; CHECK:       alignguard.fail:
; CHECK-NEXT:    tail call void @__alignguard_report_abort.thunk.void({{i8\*|ptr}} @site, i64 %bits, i64 64, i64 0), !dbg [[LOC:![0-9]+]], !nosanitize
; CHECK-NEXT:    ret void
define void @abort_void(i8* %p) !dbg !5 {
entry:
  %bits = ptrtoint i8* %p to i64
  %low = and i64 %bits, 63
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report_abort(i8* @site, i64 %bits, i64 64, i64 0), !dbg !7, !nosanitize !2
  unreachable, !nosanitize !2

alignguard.ok:
  ret void
}

; The return value's extension is part of the thunk: its callers read it.
; CHECK-LABEL: define signext i8 @abort_sext(
; CHECK:         %[[R:.*]] = tail call signext i8 @__alignguard_report_abort.thunk.i8.sext(
; CHECK-NEXT:    ret i8 %[[R]]
define signext i8 @abort_sext(i8* %p) {
entry:
  %bits = ptrtoint i8* %p to i64
  %bad = icmp ne i64 %bits, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report_abort(i8* @site, i64 %bits, i64 16, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

alignguard.ok:
  ret i8 1
}

; return=-1, the `ret` in a block of its own.
; CHECK-LABEL: define i32 @return_n(
; CHECK:         %[[R:.*]] = tail call i32 @__alignguard_report.thunk.i32.m1({{i8\*|ptr}} @site, i64 %bits, i64 64, i64 0)
; CHECK-NEXT:    ret i32 %[[R]]
define i32 @return_n(i8* %p) {
entry:
  %bits = ptrtoint i8* %p to i64
  %bad = icmp ne i64 %bits, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report(i8* @site, i64 %bits, i64 64, i64 0), !nosanitize !2
  ret i32 -1, !nosanitize !2

alignguard.ok:
  ret i32 0
}

; return=7 through the block the optimiser merged the returns into: the
; value is the phi's for this block; the merged block loses it.
; CHECK-LABEL: define i32 @return_merged(
; CHECK:       alignguard.fail:
; CHECK-NEXT:    %[[R:.*]] = tail call i32 @__alignguard_report.thunk.i32.7(
; CHECK-NEXT:    ret i32 %[[R]]
; CHECK:       common.ret:
; CHECK-NEXT:    %v = phi i32 [ {{[01]}}, %{{other|alignguard.ok}} ], [ {{[01]}}, %{{other|alignguard.ok}} ]{{$}}
define i32 @return_merged(i8* %p, i1 %c) {
entry:
  %bits = ptrtoint i8* %p to i64
  %bad = icmp ne i64 %bits, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report(i8* @site, i64 %bits, i64 64, i64 0), !nosanitize !2
  br label %common.ret, !nosanitize !2

alignguard.ok:
  br i1 %c, label %common.ret, label %other

other:
  br label %common.ret

common.ret:
  %v = phi i32 [ 7, %alignguard.fail ], [ 0, %alignguard.ok ], [ 1, %other ]
  ret i32 %v
}

; fallback: the hook, then the copy; the thunk gets the copy's arguments
; (with their attributes) and the hook's that are not constants.
; CHECK-LABEL: define float @fallback(
; CHECK:         %[[R:.*]] = tail call float @fallback.alignguard.fallback({{float\*|ptr}} noalias %x, i64 %n, i64 %bits)
; CHECK-NEXT:    ret float %[[R]]
define float @fallback(float* noalias %x, i64 %n) {
entry:
  %bits = ptrtoint float* %x to i64
  %low = and i64 %bits, 15
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_fallback(i8* @site, i64 %bits, i64 16, i64 0), !nosanitize !2
  %slow = call float @fallback.alignguard.unaligned(float* noalias %x, i64 %n) #0, !nosanitize !2
  ret float %slow

alignguard.ok:
  ret float 0.0
}

define internal float @fallback.alignguard.unaligned(float* %x, i64 %n) #1 {
  %v = load float, float* %x, align 4
  ret float %v
}

; fallback whose copy the optimiser found to return 0 (IPSCCP): the copy
; is still called, for what it does, and the thunk returns the 0.
; CHECK-LABEL: define i32 @fallback_const(
; CHECK:         %[[R:.*]] = tail call i32 @fallback_const.alignguard.fallback({{i8\*|ptr}} %p, i64 %bits)
; CHECK-NEXT:    ret i32 %[[R]]
define i32 @fallback_const(i8* %p) {
entry:
  %bits = ptrtoint i8* %p to i64
  %bad = icmp ne i64 %bits, 0
  br i1 %bad, label %alignguard.fail, label %common.ret

alignguard.fail:
  call void @__alignguard_fallback(i8* @site, i64 %bits, i64 16, i64 0), !nosanitize !2
  call void @fallback_const.alignguard.unaligned(i8* %p), !nosanitize !2
  br label %common.ret

common.ret:
  ret i32 0
}

define internal void @fallback_const.alignguard.unaligned(i8* %p) #1 {
  store i8 0, i8* %p, align 1
  ret void
}

; Two failing sides whose calls of the copy the optimiser merged into one
; block (SimplifyCFG, dot at -O3), its arguments phis: each side gets its
; own tail call, and the shared block goes once nothing branches to it.
; CHECK-LABEL: define double @fallback_merged(
; CHECK:       fail.a:
; CHECK-NEXT:    %[[A:.*]] = tail call double @fallback_merged.alignguard.fallback({{i8\*|ptr}} %a, {{i8\*|ptr}} %b, i64 %bits.a)
; CHECK-NEXT:    ret double %[[A]]
; CHECK:       fail.b:
; CHECK-NEXT:    %[[B:.*]] = tail call double @fallback_merged.alignguard.fallback{{.*}}({{i8\*|ptr}} %a, {{i8\*|ptr}} %b, i64 %bits.b)
; CHECK-NEXT:    ret double %[[B]]
; CHECK-NOT:   slow:
; CHECK:       done:
; CHECK-NEXT:    ret double 1.000000e+00
define double @fallback_merged(i8* %a, i8* %b) {
entry:
  %bits.a = ptrtoint i8* %a to i64
  %bad.a = icmp ne i64 %bits.a, 0
  br i1 %bad.a, label %fail.a, label %ok.a

fail.a:
  call void @__alignguard_fallback(i8* @site, i64 %bits.a, i64 64, i64 0), !nosanitize !2
  br label %slow

ok.a:
  %bits.b = ptrtoint i8* %b to i64
  %bad.b = icmp ne i64 %bits.b, 0
  br i1 %bad.b, label %fail.b, label %ok.b

fail.b:
  call void @__alignguard_fallback(i8* @site, i64 %bits.b, i64 64, i64 0), !nosanitize !2
  br label %slow

ok.b:
  br label %done

slow:
  %x = phi i8* [ %a, %fail.a ], [ %a, %fail.b ]
  %s = call double @fallback_merged.alignguard.unaligned(i8* %x, i8* %b)
  br label %done

done:
  %r = phi double [ %s, %slow ], [ 1.0, %ok.b ]
  ret double %r
}

define internal double @fallback_merged.alignguard.unaligned(i8* %a, i8* %b) #1 {
  ret double 2.0
}

; Left alone: recover goes on after its report; a call in an EH funclet
; cannot be followed by a `ret`; a call that is not align-guard's (no
; !nosanitize) is the program's own.
; CHECK-LABEL: define void @left_alone(
; CHECK:         call void @__alignguard_report({{i8\*|ptr}} @site, i64 %bits, i64 64, i64 0), !nosanitize
; CHECK-NEXT:    br label %alignguard.ok
; CHECK:         call void @__alignguard_report_abort({{i8\*|ptr}} @site, i64 %bits, i64 64, i64 0) [ "funclet"(token %pad) ]
; CHECK-NEXT:    unreachable
; CHECK:         call void @__alignguard_report_abort({{i8\*|ptr}} @site, i64 0, i64 1, i64 0)
; CHECK-NEXT:    unreachable
define void @left_alone(i8* %p) personality i32 (...)* @__CxxFrameHandler3 {
entry:
  %bits = ptrtoint i8* %p to i64
  %bad = icmp ne i64 %bits, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report(i8* @site, i64 %bits, i64 64, i64 0), !nosanitize !2
  br label %alignguard.ok, !nosanitize !2

alignguard.ok:
  invoke void @may_throw() to label %done unwind label %cleanup

cleanup:
  %pad = cleanuppad within none []
  br i1 %bad, label %funclet.fail, label %funclet.ok

funclet.fail:
  call void @__alignguard_report_abort(i8* @site, i64 %bits, i64 64, i64 0) [ "funclet"(token %pad) ], !nosanitize !2
  unreachable, !nosanitize !2

funclet.ok:
  cleanupret from %pad unwind to caller

done:
  br i1 %bad, label %own, label %exit

own:
  call void @__alignguard_report_abort(i8* @site, i64 0, i64 1, i64 0)
  unreachable

exit:
  ret void
}

; A return type without a shared name gets a private thunk of the module.
; CHECK-LABEL: define { i64, i64 } @pair(
; CHECK:         %[[R:.*]] = tail call { i64, i64 } @__alignguard_report_abort.thunk(
; CHECK-NEXT:    ret { i64, i64 } %[[R]]
define { i64, i64 } @pair(i8* %p) {
entry:
  %bits = ptrtoint i8* %p to i64
  %bad = icmp ne i64 %bits, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report_abort(i8* @site, i64 %bits, i64 64, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

alignguard.ok:
  ret { i64, i64 } zeroinitializer
}

; The table hooks (a place of 2-4 pointers: cold-side-select.ll) leave the
; same way, with all their arguments.
; CHECK-LABEL: define void @abort_table(
; CHECK:       alignguard.fail:
; CHECK-NEXT:    tail call void @__alignguard_report_first_abort.thunk.void(i64 %a.bits, i64 %b.bits, i64 0, i64 0, {{i8\*|ptr}} @site, i64 2), !nosanitize
; CHECK-NEXT:    ret void
define void @abort_table(i8* %a, i8* %b) {
entry:
  %a.bits = ptrtoint i8* %a to i64
  %b.bits = ptrtoint i8* %b to i64
  %any = or i64 %a.bits, %b.bits
  %low = and i64 %any, 15
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_report_first_abort(i64 %a.bits, i64 %b.bits, i64 0, i64 0, i8* @site, i64 2), !nosanitize !2
  unreachable, !nosanitize !2

alignguard.ok:
  ret void
}

; CHECK-LABEL: define i32 @fallback_table(
; CHECK:         %[[R:.*]] = tail call i32 @fallback_table.alignguard.fallback({{i8\*|ptr}} %a, {{i8\*|ptr}} %b, i64 %a.bits, i64 %b.bits)
; CHECK-NEXT:    ret i32 %[[R]]
define i32 @fallback_table(i8* %a, i8* %b) {
entry:
  %a.bits = ptrtoint i8* %a to i64
  %b.bits = ptrtoint i8* %b to i64
  %any = or i64 %a.bits, %b.bits
  %low = and i64 %any, 15
  %bad = icmp ne i64 %low, 0
  br i1 %bad, label %alignguard.fail, label %alignguard.ok

alignguard.fail:
  call void @__alignguard_fallback_first(i64 %a.bits, i64 %b.bits, i64 0, i64 0, i8* @site, i64 2), !nosanitize !2
  %slow = call i32 @fallback_table.alignguard.unaligned(i8* %a, i8* %b) #0, !nosanitize !2
  ret i32 %slow

alignguard.ok:
  ret i32 0
}

define internal i32 @fallback_table.alignguard.unaligned(i8* %a, i8* %b) #1 {
  ret i32 1
}

; The thunks: shared ones once per module, linkonce_odr (one per program,
; opaque to the optimiser, so an LTO link cannot learn the abort thunk
; never returns), cold and not inlined.
; CHECK:      define linkonce_odr hidden void @__alignguard_report_abort.thunk.void({{i8\*|ptr}} %0, i64 %1, i64 %2, i64 %3) unnamed_addr #[[THUNK:[0-9]+]] comdat {
; CHECK-NEXT:   call void @__alignguard_report_abort({{i8\*|ptr}} %0, i64 %1, i64 %2, i64 %3)
; CHECK-NEXT:   unreachable
; CHECK:      define linkonce_odr hidden signext i8 @__alignguard_report_abort.thunk.i8.sext(
; CHECK-NEXT:   call void @__alignguard_report_abort(
; CHECK-NEXT:   unreachable
; CHECK:      define private { i64, i64 } @__alignguard_report_abort.thunk(
; CHECK-NEXT:   call void @__alignguard_report_abort(
; CHECK-NEXT:   unreachable
; CHECK:      define linkonce_odr hidden i32 @__alignguard_report.thunk.i32.m1(
; CHECK-NEXT:   call void @__alignguard_report(
; CHECK-NEXT:   ret i32 -1
; CHECK:      define linkonce_odr hidden i32 @__alignguard_report.thunk.i32.7(
; CHECK-NEXT:   call void @__alignguard_report(
; CHECK-NEXT:   ret i32 7
; CHECK:      define private float @fallback.alignguard.fallback({{float\*|ptr}} noalias %0, i64 %1, i64 %2) #[[THUNK]] {
; CHECK-NEXT:   call void @__alignguard_fallback({{i8\*|ptr}} @site, i64 %2, i64 16, i64 0)
; CHECK-NEXT:   %4 = tail call float @fallback.alignguard.unaligned({{float\*|ptr}} noalias %0, i64 %1)
; CHECK-NEXT:   ret float %4
; CHECK:      define private i32 @fallback_const.alignguard.fallback({{i8\*|ptr}} %0, i64 %1) #[[THUNK]] {
; CHECK-NEXT:   call void @__alignguard_fallback({{i8\*|ptr}} @site, i64 %1, i64 16, i64 0)
; CHECK-NEXT:   call void @fallback_const.alignguard.unaligned({{i8\*|ptr}} %0)
; CHECK-NEXT:   ret i32 0
; CHECK:      define linkonce_odr hidden void @__alignguard_report_first_abort.thunk.void(i64 %0, i64 %1, i64 %2, i64 %3, {{i8\*|ptr}} %4, i64 %5) unnamed_addr #[[THUNK]] comdat {
; CHECK-NEXT:   call void @__alignguard_report_first_abort(i64 %0, i64 %1, i64 %2, i64 %3, {{i8\*|ptr}} %4, i64 %5)
; CHECK-NEXT:   unreachable
; CHECK:      define private i32 @fallback_table.alignguard.fallback({{i8\*|ptr}} %0, {{i8\*|ptr}} %1, i64 %2, i64 %3) #[[THUNK]] {
; CHECK-NEXT:   call void @__alignguard_fallback_first(i64 %2, i64 %3, i64 0, i64 0, {{i8\*|ptr}} @site, i64 2)
; CHECK-NEXT:   %5 = tail call i32 @fallback_table.alignguard.unaligned({{i8\*|ptr}} %0, {{i8\*|ptr}} %1)
; CHECK-NEXT:   ret i32 %5
; CHECK-NOT:  define {{.*}}thunk
; CHECK:      attributes #[[THUNK]] = { cold noinline }

declare void @__alignguard_report_abort(i8*, i64, i64, i64) cold noreturn
declare void @__alignguard_report(i8*, i64, i64, i64) cold
declare void @__alignguard_fallback(i8*, i64, i64, i64) cold
declare void @__alignguard_report_first_abort(i64, i64, i64, i64, i8*, i64) cold noreturn
declare void @__alignguard_fallback_first(i64, i64, i64, i64, i8*, i64) cold
declare void @may_throw()
declare i32 @__CxxFrameHandler3(...)

attributes #0 = { noinline }
attributes #1 = { "no-align-guard" }

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!3}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{}
!3 = distinct !DICompileUnit(language: DW_LANG_C99, file: !4, emissionKind: FullDebug)
!4 = !DIFile(filename: "k.c", directory: "/")
!5 = distinct !DISubprogram(name: "abort_void", scope: !4, file: !4, line: 1, type: !6, unit: !3, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !{})
!7 = !DILocation(line: 2, column: 3, scope: !5)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
