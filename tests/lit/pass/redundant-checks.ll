; A promise already checked by an earlier check of the same pointer (one
; that dominates it, with an equal or larger alignment and a compatible
; offset) is not checked again; its assume is still guarded.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @twice(i8* %p) {
; CHECK-LABEL: define void @twice(
; CHECK:         and i64 {{%.*}}, 63
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 64) ], !alignguard.guarded
; CHECK-NOT:     and i64 {{%.*}}, 31
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 32) ], !alignguard.guarded
; A stronger promise needs its own check.
; CHECK:         and i64 {{%.*}}, 127
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 128) ], !alignguard.guarded
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
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %reload, i64 16) ]
; CHECK:         [[ADDR:%.*]] = sub i64 {{%.*}}, 4
; CHECK-NEXT:    and i64 [[ADDR]], 15
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
