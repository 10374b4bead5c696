; `!align` on a load promises the loaded pointer's alignment (rustc puts it
; on every reference it loads). align-guard<loads> checks it right after
; the load; the metadata goes (or the optimiser would fold the check) and
; comes back as a guarded assume in the continuation. Without `loads` it is
; left alone; a reference's type alignment (`!nonnull`, `!align` <= 16) is
; not checked unless type-alignment; recover keeps no promise; the fallback
; copy has no `!align`.
; RUN: %opt-ag -passes='align-guard<loads>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<loads;recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefix=NOLOADS
; RUN: %opt-ag -passes='align-guard<loads;type-alignment>,verify' -S %s | FileCheck %s --check-prefix=TYPE
; RUN: %opt-ag -passes='align-guard<loads;fallback>,verify' -S %s | FileCheck %s --check-prefix=FALLBACK
; RUN: %opt-ag -passes='align-guard-audit<all>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=AUDIT
; RUN: %opt-ag -passes='align-guard<loads>,align-guard-audit<all>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=AFTER
; The check survives -O2.
; RUN: %opt-ag -passes='align-guard<loads>,default<O2>' -S %s | FileCheck %s --check-prefix=O2

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

declare void @use(i8*)

; CHECK-LABEL: define i32 @k(
; CHECK:         %block = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %pp, align 8{{$}}
; CHECK-NEXT:    %ag.ptr = ptrtoint {{i8\*|ptr}} %block to i64
; CHECK-NEXT:    [[M:%[0-9]+]] = and i64 %ag.ptr, 63
; CHECK-NEXT:    %ag.misaligned = icmp ne i64 [[M]], 0
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 %ag.ptr, i64 64, i64 0)
; RECOVER:       call void @__alignguard_report({{.*}}, i64 %ag.ptr, i64 64, i64 0)
; CHECK:       alignguard.ok:
; ABORT-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %block, i64 64) ], !alignguard.guarded ![[NOTE:[0-9]+]]
; RECOVER-NOT:   @llvm.assume
; The reference's type alignment stays as it is.
; CHECK:         %ref = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %pp, align 8, !nonnull !{{[0-9]+}}, !align
; CHECK-NOT:     alignguard.fail
; CHECK:         ret i32 0
; NOLOADS-LABEL: define i32 @k(
; NOLOADS:         %block = load {{.*}}, !align
; NOLOADS-NOT:     alignguard
; TYPE:            %ref = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %pp, align 8, !nonnull
; TYPE-NEXT:       %ag.ptr{{[0-9]*}} = ptrtoint {{i8\*|ptr}} %ref to i64
; The copy that runs on a misaligned call makes no promise.
; FALLBACK-LABEL: define internal i32 @k.alignguard.unaligned(
; FALLBACK-NOT:     !align
; FALLBACK:         ret i32 0
; O2-LABEL: define {{.*}}i32 @k(
; O2:         and i64 %{{.*}}, 63
; O2:         call void @__alignguard_report_abort(
define i32 @k(i8** %pp) {
  %block = load i8*, i8** %pp, align 8, !align !0
  call void @use(i8* %block)
  %ref = load i8*, i8** %pp, align 8, !nonnull !1, !align !2
  call void @use(i8* %ref)
  ret i32 0
}

; A loop-invariant load in a loop that writes no memory, run on every
; entry to the loop: checked once, before the loop, on the same pointer
; loaded again there without the promise; the load in the loop keeps its
; `!align`, marked guarded and hoisted (as a hoisted access check).
; CHECK-LABEL: define float @sum(
; CHECK:       entry:
; CHECK-NEXT:    %ag.reload = load {{float\*|ptr}}, {{float\*\*|ptr}} %pp, align 8, !nosanitize
; CHECK-NEXT:    %ag.ptr = ptrtoint {{float\*|ptr}} %ag.reload to i64
; CHECK-NEXT:    [[M:%[0-9]+]] = and i64 %ag.ptr, 63
; CHECK:       loop:
; ABORT:         %base = load {{float\*|ptr}}, {{float\*\*|ptr}} %pp, align 8, !align !{{[0-9]+}}, !alignguard.guarded ![[HOISTED:[0-9]+]]
; RECOVER:       %base = load {{float\*|ptr}}, {{float\*\*|ptr}} %pp, align 8{{$}}
; CHECK-NOT:     alignguard.fail
; CHECK:         ret float
define float @sum(float** %pp, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %base = load float*, float** %pp, align 8, !align !0
  %addr = getelementptr float, float* %base, i64 %i
  %x = load float, float* %addr, align 4
  %s.next = fadd float %s, %x
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %s.next
}

; The loop stores: the pointer may change between iterations, so the check
; stays at the load, in the loop.
; CHECK-LABEL: define void @writes(
; CHECK:       loop:
; CHECK:         %base = load {{float\*|ptr}}, {{float\*\*|ptr}} %pp, align 8{{$}}
; CHECK-NEXT:    %ag.ptr = ptrtoint {{float\*|ptr}} %base to i64
define void @writes(float** %pp, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %base = load float*, float** %pp, align 8, !align !0
  %addr = getelementptr float, float* %base, i64 %i
  store float 0.0, float* %addr, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; AUDIT: unchecked {{ *}}load-metadata {{ *}}k {{ *}}the pointer loaded from argument #0 'pp' {{ *}}64 {{.*}}promised by the load's !align; nothing checks the loaded pointer
; AUDIT: type {{ *}}load-metadata {{ *}}k {{ *}}the pointer loaded from argument #0 'pp' {{ *}}4
; AFTER: guarded {{ *}}load-metadata {{ *}}k {{ *}}the pointer loaded from argument #0 'pp' {{ *}}64
; AFTER: guarded {{ *}}load-metadata {{ *}}sum {{.*}}hoisted

!0 = !{i64 64}
!1 = !{}
!2 = !{i64 4}

; ABORT-DAG: ![[NOTE]] = !{!"load-metadata"}
; ABORT-DAG: ![[HOISTED]] = !{!"hoisted"}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
