; align-guard followed by default<O2> in the same opt process must give what
; the instrumented module gives when it is written out and read back: no
; analysis result align-guard leaves behind (it adds, rebuilds and erases
; assumes; it splits blocks) may reach the pipeline after it. The module
; pass returns PreservedAnalyses::none() after a change, which clears every
; function analysis, the AssumptionCache included (that one ignores
; PreservedAnalyses: it tracks assumes through value handles). The shapes
; are those of the fuzzing that found LLVM 22's DropUnnecessaryAssumesPass
; reading freed memory (item 8 of issue 9): entry parameters with `align`,
; assumes mixing checked "align" bundles with other bundles, alignment 0, a
; run-time alignment, a loop. That read is LLVM's own (the pass iterates
; the cache's list while registerAssumption may grow it, llvm-project
; #203765) and reached by the input alone with other assume counts; glibc's
; tcache is turned off and freed memory perturbed so that any such read
; here crashes every time instead of now and then.
;
; RUN: rm -rf %t && mkdir -p %t
; RUN: env ALIGNGUARD_PIPELINE= GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
; RUN:   %opt-ag -passes='align-guard<abort>,default<O2>,verify,strip' -S %s -o %t/abort.same.ll
; RUN: %opt-ag -passes='align-guard<abort>' %s -o %t/abort.bc
; RUN: env ALIGNGUARD_PIPELINE= GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
; RUN:   %opt-ag -passes='default<O2>,verify,strip' -S %t/abort.bc -o %t/abort.read.ll
; RUN: sed -e '/^; ModuleID/d' -e '/^target datalayout/d' %t/abort.same.ll > %t/abort.same.txt
; RUN: sed -e '/^; ModuleID/d' -e '/^target datalayout/d' %t/abort.read.ll > %t/abort.read.txt
; RUN: diff %t/abort.same.txt %t/abort.read.txt
; RUN: FileCheck %s -DHOOK=__alignguard_report_abort < %t/abort.same.ll
;
; RUN: env ALIGNGUARD_PIPELINE= GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
; RUN:   %opt-ag -passes='align-guard<recover>,default<O2>,verify,strip' -S %s -o %t/recover.same.ll
; RUN: %opt-ag -passes='align-guard<recover>' %s -o %t/recover.bc
; RUN: env ALIGNGUARD_PIPELINE= GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
; RUN:   %opt-ag -passes='default<O2>,verify,strip' -S %t/recover.bc -o %t/recover.read.ll
; RUN: sed -e '/^; ModuleID/d' -e '/^target datalayout/d' %t/recover.same.ll > %t/recover.same.txt
; RUN: sed -e '/^; ModuleID/d' -e '/^target datalayout/d' %t/recover.read.ll > %t/recover.read.txt
; RUN: diff %t/recover.same.txt %t/recover.read.txt
; RUN: FileCheck %s -DHOOK=__alignguard_report < %t/recover.same.ll
;
; RUN: env ALIGNGUARD_PIPELINE= GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
; RUN:   %opt-ag -passes='align-guard<fallback>,default<O2>,verify,strip' -S %s -o %t/fallback.same.ll
; RUN: %opt-ag -passes='align-guard<fallback>' %s -o %t/fallback.bc
; RUN: env ALIGNGUARD_PIPELINE= GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
; RUN:   %opt-ag -passes='default<O2>,verify,strip' -S %t/fallback.bc -o %t/fallback.read.ll
; RUN: sed -e '/^; ModuleID/d' -e '/^target datalayout/d' %t/fallback.same.ll > %t/fallback.same.txt
; RUN: sed -e '/^; ModuleID/d' -e '/^target datalayout/d' %t/fallback.read.ll > %t/fallback.read.txt
; RUN: diff %t/fallback.same.txt %t/fallback.read.txt
; RUN: FileCheck %s -DHOOK=__alignguard_fallback < %t/fallback.same.ll

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-LABEL: define {{.*}}i32 @k(
; CHECK:         call void @[[HOOK]](
define i32 @k(float* align 64 %a, float* align 64 %b, i8* %p, i8* %q, i8* %r, i64 %al, i64 %n) {
entry:
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 16), "nonnull"(i8* %q) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %r, i64 0), "dereferenceable"(i8* %p, i64 64) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 %al) ]
  %g = getelementptr inbounds i8, i8* %p, i64 64
  call void @llvm.assume(i1 true) [ "align"(i8* %g, i64 16), "nonnull"(i8* %g) ]
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %s, %loop ]
  %pa = getelementptr inbounds float, float* %a, i64 %i
  %pb = getelementptr inbounds float, float* %b, i64 %i
  %x = load float, float* %pa, align 4
  %y = load float, float* %pb, align 4
  %m = fmul float %x, %y
  %s = fadd float %acc, %m
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %v = load i8, i8* %p, align 1
  %w = zext i8 %v to i32
  %f = fptosi float %s to i32
  %ret = add i32 %w, %f
  ret i32 %ret
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
