; align-guard<accesses>: the alignment an over-aligned access promises
; itself is checked as early as is valid. An affine address whose step is a
; multiple of the alignment is checked once, as its first address, before
; the loop (merged with the other checks there, one branch); a loop that
; tests before its body guards the hoisted check with "it takes an
; iteration"; an address that is not affine keeps its check in the loop.
; Memory intrinsics are checked too. Accesses promise nothing without
; `accesses`.
; RUN: %opt-ag -passes='align-guard<accesses>,verify' -S %s | FileCheck %s
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt-ag -passes='align-guard<accesses;recover>,verify' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: %opt-ag -passes='align-guard<accesses>,align-guard-audit<json;all>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT
; RUN: %opt-ag -passes='align-guard<accesses>,align-guard<accesses>,verify' -S %s | FileCheck %s --check-prefix=TWICE

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; OFF-NOT: __alignguard

; A vectorised loop (rotated, as after -O2): in and out checked once, by one
; branch, before the loop; nothing in the loop.
define void @copy(float* %in, float* %out, i64 %n) {
; CHECK-LABEL: define void @copy(
; CHECK:       entry:
; CHECK:         [[IN:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[OUT:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[ANY:%.*]] = or i64 [[OUT]], [[IN]]
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[ANY]], 31
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 [[BAD]], label %alignguard.fail, label %alignguard.ok
; One call of the table hook: the runtime reports in if in fails, else out.
; CHECK:       alignguard.fail:
; CHECK-NEXT:    call void @__alignguard_report_first_abort(i64 [[IN]], i64 [[OUT]], i64 0, i64 0, {{.*}}@__alignguard_site{{.*}}, i64 2)
; CHECK:       loop:
; CHECK-NOT:     __alignguard
; CHECK:         load <8 x float>, {{.*}}, align 32, !alignguard.guarded [[HOISTED:![0-9]+]]
; CHECK-NOT:     __alignguard
; CHECK:         store <8 x float> {{.*}}, align 32, !alignguard.guarded [[HOISTED]]
; CHECK:       exit:
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds float, float* %in, i64 %i
  %vi = bitcast float* %pi to <8 x float>*
  %x = load <8 x float>, <8 x float>* %vi, align 32
  %po = getelementptr inbounds float, float* %out, i64 %i
  %vo = bitcast float* %po to <8 x float>*
  store <8 x float> %x, <8 x float>* %vo, align 32
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Two accesses of one buffer a multiple of the alignment apart: one check.
; A strided access (3 floats per element, 48 floats a step) is affine too.
define void @unrolled(float* %in, float* %odd, i64 %n) {
; CHECK-LABEL: define void @unrolled(
; CHECK:       entry:
; CHECK:         [[IN:%.*]] = ptrtoint {{.*}}%in{{.*}} to i64
; CHECK-NEXT:    [[ODD:%.*]] = ptrtoint {{.*}}%odd{{.*}} to i64
; CHECK-NEXT:    [[INL:%.*]] = and i64 [[IN]], 31
; CHECK-NEXT:    [[ODDL:%.*]] = and i64 [[ODD]], 15
; CHECK-NEXT:    or i64 [[INL]], [[ODDL]]
; CHECK-NOT:     ptrtoint
; CHECK:       loop:
; CHECK-NOT:     __alignguard
; CHECK:         load <8 x float>, {{.*}} %vi, align 32, !alignguard.guarded [[HOISTED]]
; CHECK:         load <8 x float>, {{.*}} %vj, align 32, !alignguard.guarded [[HOISTED]]
; CHECK:         load <4 x float>, {{.*}} %vk, align 16, !alignguard.guarded [[HOISTED]]
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds float, float* %in, i64 %i
  %vi = bitcast float* %pi to <8 x float>*
  %x = load <8 x float>, <8 x float>* %vi, align 32
  %j = add i64 %i, 8
  %pj = getelementptr inbounds float, float* %in, i64 %j
  %vj = bitcast float* %pj to <8 x float>*
  %y = load <8 x float>, <8 x float>* %vj, align 32
  %k = mul i64 %i, 3
  %pk = getelementptr inbounds float, float* %odd, i64 %k
  %vk = bitcast float* %pk to <4 x float>*
  %z = load <4 x float>, <4 x float>* %vk, align 16
  %i.next = add nuw i64 %i, 16
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A step not known to be a multiple of the alignment (3 floats here; a row
; stride read at run time in Halide's code): the first address, and the
; second if the loop runs a second time, checked before the loop. Every
; address is then first + k * (second - first).
define void @odd_step(float* %in, i64 %n) {
; CHECK-LABEL: define void @odd_step(
; CHECK:       entry:
; CHECK:         [[SECOND:%.*]] = getelementptr {{i8, ptr %in, i64 12|float, float\* %in, i64 3}}
; CHECK:         [[ITER2:%.*]] = icmp uge i64 {{%.*}}, 1
; CHECK:         [[FIRSTI:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[SECONDI:%.*]] = ptrtoint {{.*}} to i64
; CHECK:         [[MASK2:%.*]] = select i1 [[ITER2]], i64 15, i64 0
; CHECK-NEXT:    and i64 [[SECONDI]], [[MASK2]]
; CHECK:       loop:
; CHECK-NOT:     __alignguard
; CHECK:         load <4 x float>, {{.*}} %vi, align 16, !alignguard.guarded [[HOISTED]]
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds float, float* %in, i64 %i
  %vi = bitcast float* %pi to <4 x float>*
  %x = load <4 x float>, <4 x float>* %vi, align 16
  %i.next = add nuw i64 %i, 3
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A loop that tests first (as clang emits it before -O2): the hoisted check
; fails only if the loop takes an iteration.
define void @tested_first(float* %out, i64 %n) {
; CHECK-LABEL: define void @tested_first(
; CHECK:       entry:
; CHECK:         [[RUNS:%.*]] = icmp uge i64 {{%.*}}, 1
; CHECK:         [[PTR:%.*]] = ptrtoint {{.*}} to i64
; CHECK-NEXT:    [[MASK:%.*]] = select i1 [[RUNS]], i64 31, i64 0
; CHECK-NEXT:    [[LOW:%.*]] = and i64 [[PTR]], [[MASK]]
; CHECK-NEXT:    [[BAD:%.*]] = icmp ne i64 [[LOW]], 0
; CHECK-NEXT:    br i1 [[BAD]]
; CHECK:       body:
; CHECK-NOT:     __alignguard
; CHECK:         store <8 x float> zeroinitializer, {{.*}}, align 32, !alignguard.guarded [[HOISTED]]
entry:
  br label %cond
cond:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %p = getelementptr inbounds float, float* %out, i64 %i
  %v = bitcast float* %p to <8 x float>*
  store <8 x float> zeroinitializer, <8 x float>* %v, align 32
  %i.next = add nuw i64 %i, 8
  br label %cond
exit:
  ret void
}

; A gather through an index array is not affine: the check stays before
; the access, in the loop.
define void @gather(float* %in, i64* %idx, i64 %n) {
; CHECK-LABEL: define void @gather(
; CHECK:       loop:
; CHECK:         %k = load i64
; CHECK:         [[P:%.*]] = ptrtoint {{.*}} %vk to i64
; CHECK-NEXT:    and i64 [[P]], 15
; CHECK:         load <4 x float>, {{.*}} %vk, align 16, !alignguard.guarded [[INLOOP:![0-9]+]]
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pk = getelementptr inbounds i64, i64* %idx, i64 %i
  %k = load i64, i64* %pk
  %pi = getelementptr inbounds float, float* %in, i64 %k
  %vk = bitcast float* %pi to <4 x float>*
  %x = load <4 x float>, <4 x float>* %vk, align 16
  %i.next = add nuw i64 %i, 1
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Memory intrinsics promise their operands' alignment too.
define void @clear(i8* %dst, i8* %src) {
; CHECK-LABEL: define void @clear(
; CHECK:         and i64 {{%.*}}, 63
; CHECK:         call void @llvm.memcpy.{{.*}}({{i8\*|ptr}} align 64 %dst, {{i8\*|ptr}} align 16 %src, {{.*}}), !alignguard.guarded
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 64 %dst, i8* align 16 %src, i64 256, i1 false)
  ret void
}

; Recover drops the promise of an access it checked: the kernel goes on
; with the pointer, so the access falls back to its natural alignment.
; RECOVER-LABEL: define void @copy(
; RECOVER:         call void @__alignguard_report(
; RECOVER:         load <8 x float>, {{.*}}, align 4{{$}}
; RECOVER:         store <8 x float> {{.*}}, align 4{{$}}

; AUDIT: guarded access copy | argument #0 'in' | arg=0 align=32 offset=0 | - | None | hoisted
; AUDIT: guarded access copy | argument #1 'out' | arg=1 align=32 offset=0 | - | None | hoisted
; AUDIT: guarded access unrolled | argument #1 'odd' | arg=1 align=16 offset=0 | - | None | hoisted
; AUDIT: guarded access odd_step | argument #0 'in' | arg=0 align=16 offset=0 | - | None | hoisted
; AUDIT: guarded access gather | argument #0 'in' | arg=0 align=16 offset=0 | - | None | in-loop

; A second run checks nothing twice.
; TWICE-LABEL: define void @copy(
; TWICE-COUNT-2: call void @__alignguard_report_abort(
; TWICE-NOT:     call void @__alignguard_report_abort(
; TWICE:       exit:

; CHECK-DAG: [[HOISTED]] = !{!"hoisted"}
; CHECK-DAG: [[INLOOP]] = !{!"in-loop"}

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
