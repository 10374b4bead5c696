; With a marker in the module (here the "alignguard-entry" attribute), only
; marked functions and entry=GLOB matches are entry points; exclude=GLOB
; removes; "no-align-guard" opts a function out of everything, assumes too.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefixes=CHECK,MARKED
; RUN: %opt-ag -passes='align-guard<entry=ext_*>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,GLOB
; RUN: %opt-ag -passes='align-guard<entry=ext_*;exclude=*_two>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,EXCL

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @marked(i8* align 64 %p) "alignguard-entry" {
; CHECK-LABEL: define void @marked({{i8\*|ptr}} %p)
; CHECK:         and i64 {{%.*}}, 63
  ret void
}

define void @ext_one(i8* align 64 %p) {
; MARKED-LABEL: define void @ext_one({{i8\*|ptr}} align 64 %p)
; MARKED-NEXT:    ret void
; GLOB-LABEL:   define void @ext_one({{i8\*|ptr}} %p)
; GLOB:           and i64 {{%.*}}, 63
; EXCL-LABEL:   define void @ext_one({{i8\*|ptr}} %p)
; EXCL:           and i64 {{%.*}}, 63
  ret void
}

define void @ext_two(i8* align 64 %p) {
; MARKED-LABEL: define void @ext_two({{i8\*|ptr}} align 64 %p)
; GLOB-LABEL:   define void @ext_two({{i8\*|ptr}} %p)
; EXCL-LABEL:   define void @ext_two({{i8\*|ptr}} align 64 %p)
; EXCL-NEXT:      ret void
  ret void
}

; Assumes are promises wherever they are, entry point or not.
define internal void @inner(i8* %p) {
; CHECK-LABEL: define internal void @inner(
; CHECK:         and i64 {{%.*}}, 15
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 16) ]
  ret void
}

define void @optout(i8* align 64 %p) "alignguard-entry" "no-align-guard" {
; CHECK-LABEL: define void @optout({{i8\*|ptr}} align 64 %p)
; CHECK-NEXT:    call void @llvm.assume(i1 true) [ "align"({{i8\*|ptr}} %p, i64 16) ]{{$}}
; CHECK-NEXT:    ret void
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 16) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
