; clang's __attribute__((annotate("no_align_guard"))) (an entry of
; @llvm.global.annotations) opts a function out: none of its promises gets
; a check (a NoCheck remark names the annotation and where it is written),
; and the audit lists them as `suppressed`, kind inSource. Another
; annotation, or the same one on another function, changes nothing.
; (tests/lit/corpus/agreement.test runs this file too: the audit's plan
; predicts the guard's remarks.)
; RUN: %opt-ag -passes='align-guard,verify' -pass-remarks=align-guard -pass-remarks-analysis=align-guard -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s < %t.ll
; RUN: %opt-ag -passes='align-guard-audit<json>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [15 x i8] c"no_align_guard\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [4 x i8] c"k.c\00", section "llvm.metadata"
@.str.2 = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { i8*, i8*, i8*, i32, i8* }] [
  { i8*, i8*, i8*, i32, i8* } { i8* bitcast (void (float*, float*)* @known to i8*), i8* getelementptr inbounds ([15 x i8], [15 x i8]* @.str, i32 0, i32 0), i8* getelementptr inbounds ([4 x i8], [4 x i8]* @.str.1, i32 0, i32 0), i32 3, i8* null },
  { i8*, i8*, i8*, i32, i8* } { i8* bitcast (void (float*, float*)* @other to i8*), i8* getelementptr inbounds ([6 x i8], [6 x i8]* @.str.2, i32 0, i32 0), i8* getelementptr inbounds ([4 x i8], [4 x i8]* @.str.1, i32 0, i32 0), i32 9, i8* null }
], section "llvm.metadata"

; REMARK-DAG: remark: <unknown>:0:0: assume-bundle on argument #0 'p' gets no check: suppressed by annotate("no_align_guard") at k.c:3{{$}}
; REMARK-DAG: remark: <unknown>:0:0: param-attr on argument #1 'q' gets no check: suppressed by annotate("no_align_guard") at k.c:3{{$}}
; REMARK-NOT: suppressed
; CHECK-LABEL: define void @known(
; CHECK-NOT:   alignguard.fail
; CHECK:       ret void
define void @known(float* %p, float* align 64 %q) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p
  store float 0.0, float* %q
  ret void
}

; CHECK-LABEL: define void @other(
; CHECK:       alignguard.fail
define void @other(float* %p, float* align 64 %q) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p
  store float 0.0, float* %q
  ret void
}

; AUDIT:      suppressed param-attr known | argument #1 'q' | {{.*}} | annotate("no_align_guard") at k.c:3 | inSource
; AUDIT-NEXT: suppressed assume-bundle known | argument #0 'p' | {{.*}} | annotate("no_align_guard") at k.c:3 | inSource
; AUDIT-NEXT: unchecked param-attr other |
; AUDIT-NEXT: unchecked assume-bundle other |
; AUDIT-NEXT: summary total=4 unchecked=2 guarded=0 checked=0 implied=0 unsupported=0 suppressed=2 type=0

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
