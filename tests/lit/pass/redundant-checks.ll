; A promise already checked by an earlier check of the same pointer (one
; that dominates it, with an equal or larger alignment and a compatible
; offset) is not checked again; its assume is still guarded.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @twice(i8* %p) {
; The three assumes are adjacent: one place, where 64 covers 32 and the
; stronger promise needs its own check.
; CHECK-LABEL: define void @twice(
; CHECK:         and i64 {{%.*}}, 63
; CHECK-NOT:     and i64 {{%.*}}, 31
; CHECK:         and i64 {{%.*}}, 127
; CHECK:       alignguard.ok:
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 64) ], !alignguard.guarded
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 32) ], !alignguard.guarded
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 128) ], !alignguard.guarded
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 32) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 128) ]
  ret void
}

; The parameter's check at the entry covers the later assume, also through
; clang -O0's spill slot; an offset that is not a multiple does not.
define void @param_covers(i8* align 64 %p) {
; CHECK-LABEL: define void @param_covers(
; CHECK:         and i64 {{%.*}}, 63
; CHECK-NOT:     and i64
; CHECK:         [[ADDR:%.*]] = sub i64 {{%.*}}, 4
; CHECK-NEXT:    and i64 [[ADDR]], 15
; CHECK-NOT:     and i64
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %reload, i64 16) ]
  %slot = alloca i8*
  store i8* %p, i8** %slot
  %reload = load i8*, i8** %slot
  call void @llvm.assume(i1 true) [ "align"(i8* %reload, i64 16) ]
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 16, i64 4) ]
  ret void
}

; A check on one path does not cover the join.
define void @one_path(i8* %p, i1 %c) {
; CHECK-LABEL: define void @one_path(
; CHECK:       then:
; CHECK:         and i64 {{%.*}}, 63
; CHECK:       join:
; CHECK:         and i64 {{%.*}}, 63
entry:
  br i1 %c, label %then, label %join
then:
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  br label %join
join:
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  ret void
}

declare void @llvm.assume(i1)

; A spill slot is the same pointer only while nothing else writes it: after
; a memcpy into the slot, the reload is another pointer and is checked.
define void @slot_overwritten(i8* %p, i8* %q) {
; CHECK-LABEL: define void @slot_overwritten(
; CHECK-COUNT-2: call void @__alignguard_report_abort(
entry:
  %slot = alloca i8*, align 8
  store i8* %p, i8** %slot, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  %raw = bitcast i8** %slot to i8*
  %qslot = alloca i8*, align 8
  store i8* %q, i8** %qslot, align 8
  %qraw = bitcast i8** %qslot to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %raw, i8* %qraw, i64 8, i1 false)
  %v = load i8*, i8** %slot, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %v, i64 64) ]
  ret void
}

; A store in a loop holds a different value each time round: a reload in
; a sibling block may read last iteration's pointer, which was never checked.
; (Both are tested at one place: only a reload separates the assumes.)
define void @slot_in_loop(i8** %ps, i64 %n) {
; CHECK-LABEL: define void @slot_in_loop(
; CHECK-DAG:     ptrtoint {{.*}}%x to i64
; CHECK-DAG:     ptrtoint {{.*}}%old to i64
; CHECK:         call void @__alignguard_report_first_abort(
entry:
  %slot = alloca i8*, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %st ]
  %gep = getelementptr i8*, i8** %ps, i64 %i
  %x = load i8*, i8** %gep
  call void @llvm.assume(i1 true) [ "align"(i8* %x, i64 64) ]
  %old = load i8*, i8** %slot
  call void @llvm.assume(i1 true) [ "align"(i8* %old, i64 64) ]
  br label %st
st:
  store i8* %x, i8** %slot
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
