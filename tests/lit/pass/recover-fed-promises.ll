; Recover: after a failed check the kernel continues, so the promise goes,
; and so do the promises it fed: an internal callee's `align` parameter
; receiving the same pointer (transitively), and call-site `align`s.
; A callee defined elsewhere keeps its declaration (only its call site
; changes). Abort keeps everything: a failed check never gets there.
; RECOVER is `recover;no-rerun`, recover in place: the callees' promises
; go for every caller. By default (COPY) a failing call reruns in the
; entry's recover copy, and the walk drops the promises in the copy's own
; clones of the callees it reaches: the callees the aligned path calls keep
; theirs.
; RUN: %opt-ag -passes='align-guard<recover;no-rerun>,verify' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefix=COPY
; RUN: %opt-ag -passes='align-guard<abort>,verify' -S %s | FileCheck %s --check-prefix=ABORT

; COPY-LABEL: define void @entry(
; COPY:         call void @compute({{float\*|ptr}} %p)
; COPY:         call void @compute_q({{i8\*|ptr}} align 32 %q.cast)
; COPY:         call void @external({{i8\*|ptr}} align 32 %q)
; COPY-LABEL: define internal void @entry.alignguard.recover(
; COPY:         call void @compute.alignguard.recover({{float\*|ptr}} %p)
; COPY:         call void @compute_q.alignguard.recover({{i8\*|ptr}} %q.cast)
; COPY:         call void @external({{i8\*|ptr}} %q)
; COPY:         call void @opted_out({{i8\*|ptr}} %q)
; COPY-LABEL: define internal void @opted_out({{i8\*|ptr}} align 32 %o)
; COPY-LABEL: define internal void @compute({{float\*|ptr}} align 64 %x)
; COPY:         call void @deeper({{float\*|ptr}} %x.next)
; COPY-LABEL: define internal void @compute.alignguard.recover({{float\*|ptr}} %x)
; COPY:         call void @deeper.alignguard.recover({{float\*|ptr}} %x.next)
; COPY-LABEL: define internal void @deeper({{float\*|ptr}} align 64 %y)
; COPY-LABEL: define internal void @deeper.alignguard.recover({{float\*|ptr}} %y)
; COPY-LABEL: define internal void @compute_q({{i8\*|ptr}} align 32 %z)
; COPY-LABEL: define internal void @compute_q.alignguard.recover({{i8\*|ptr}} %z)

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @entry(float* align 64 %p, i8* %q) {
; RECOVER-LABEL: define void @entry(
; RECOVER:         call void @compute({{float\*|ptr}} %p)
; RECOVER:         call void @compute_q({{i8\*|ptr}} %q.cast)
; RECOVER:         call void @external({{i8\*|ptr}} %q)
; ABORT-LABEL:   define void @entry(
; ABORT:           call void @compute({{float\*|ptr}} %p)
; ABORT:           call void @external({{i8\*|ptr}} align 32 %q)
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 32) ]
  call void @compute(float* %p)
  %q.cast = bitcast i8* %q to i8*
  call void @compute_q(i8* align 32 %q.cast)
  call void @external(i8* align 32 %q)
  call void @opted_out(i8* %q)
  ret void
}

; A function that opts out is left alone, even in recover mode.
; RECOVER-LABEL: define internal void @opted_out({{i8\*|ptr}} align 32 %o)
define internal void @opted_out(i8* align 32 %o) "no-align-guard" {
  ret void
}

; RECOVER-LABEL: define internal void @compute({{float\*|ptr}} %x)
; RECOVER:         call void @deeper({{float\*|ptr}} %x.next)
; ABORT-LABEL:   define internal void @compute({{float\*|ptr}} align 64 %x)
define internal void @compute(float* align 64 %x) {
  %x.next = getelementptr inbounds float, float* %x, i64 16
  call void @deeper(float* %x.next)
  ret void
}

; RECOVER-LABEL: define internal void @deeper({{float\*|ptr}} %y)
; ABORT-LABEL:   define internal void @deeper({{float\*|ptr}} align 64 %y)
define internal void @deeper(float* align 64 %y) {
  ret void
}

; RECOVER-LABEL: define internal void @compute_q({{i8\*|ptr}} %z)
define internal void @compute_q(i8* align 32 %z) {
  ret void
}

; RECOVER: declare void @external({{i8\*|ptr}} align 32)
declare void @external(i8* align 32)
declare void @llvm.assume(i1)

; Through a local variable, as clang emits `float *a =
; __builtin_assume_aligned(A->data, 64); compute(a)` before SROA.
define void @through_local(i8* %p) {
; RECOVER-LABEL: define void @through_local(
; RECOVER:         call void @compute_local({{i8\*|ptr}} %reload)
  %a = alloca i8*, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  store i8* %p, i8** %a, align 8
  %reload = load i8*, i8** %a, align 8
  call void @compute_local(i8* %reload)
  ret void
}
; RECOVER-LABEL: define internal void @compute_local({{i8\*|ptr}} %x)
define internal void @compute_local(i8* align 64 %x) {
  ret void
}

; Optimised IR: the optimiser raised the accesses' alignment from the
; promise (a vector load `align 32` through the pointer, one through a
; sibling address of the same object, and in an internal callee). Under
; recover they fall to their type's natural alignment, since the kernel
; continues with a misaligned pointer; a load that produced the pointer
; with `!align` loses it. Accesses through other pointers keep theirs,
; and abort keeps everything.
define void @vectorised(float* %v, float* %w, float** %slot) {
; RECOVER-LABEL: define void @vectorised(
; RECOVER:         %x = load <4 x float>, {{.*}} %vp, align 4{{$}}
; RECOVER:         store <4 x float> %x, {{.*}} %sib, align 4{{$}}
; RECOVER:         %y = load <4 x float>, {{.*}} %wp, align 32{{$}}
; RECOVER:         %loaded = load {{.*}} %slot, align 8{{$}}
; RECOVER:         %z = load <4 x float>, {{.*}} %lp, align 4{{$}}
; RECOVER:         call void @vector_callee({{float\*|ptr}} %v)
; ABORT-LABEL:   define void @vectorised(
; ABORT:           %x = load <4 x float>, {{.*}} %vp, align 32
; ABORT:           store <4 x float> %x, {{.*}} %sib, align 32
; ABORT:           %loaded = load {{.*}} %slot, align 8, !align
; ABORT:           %z = load <4 x float>, {{.*}} %lp, align 32
  %v.16 = getelementptr inbounds float, float* %v, i64 16
  call void @llvm.assume(i1 true) [ "align"(float* %v.16, i64 32) ]
  %vp = bitcast float* %v.16 to <4 x float>*
  %x = load <4 x float>, <4 x float>* %vp, align 32
  %v.8 = getelementptr inbounds float, float* %v, i64 8
  %sib = bitcast float* %v.8 to <4 x float>*
  store <4 x float> %x, <4 x float>* %sib, align 32
  %wp = bitcast float* %w to <4 x float>*
  %y = load <4 x float>, <4 x float>* %wp, align 32
  %loaded = load float*, float** %slot, align 8, !align !0
  call void @llvm.assume(i1 true) [ "align"(float* %loaded, i64 32) ]
  %lp = bitcast float* %loaded to <4 x float>*
  %z = load <4 x float>, <4 x float>* %lp, align 32
  call void @vector_callee(float* %v)
  ret void
}
; RECOVER-LABEL: define internal void @vector_callee({{float\*|ptr}} %c)
; RECOVER:         load <4 x float>, {{.*}}, align 4{{$}}
; ABORT-LABEL:   define internal void @vector_callee({{float\*|ptr}} align 32 %c)
; ABORT:           load <4 x float>, {{.*}}, align 32{{$}}
define internal void @vector_callee(float* align 32 %c) {
  %cp = bitcast float* %c to <4 x float>*
  %l = load <4 x float>, <4 x float>* %cp, align 32
  ret void
}

!0 = !{i64 32}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
