; SiteDescriptors names each descriptor and string itself (freshName in
; RuntimeABI.cpp): __alignguard_site, then .1, .2, ... skipping every name
; the module already has, and never renaming a global it did not make.
; RUN: %opt-ag -passes=align-guard -S %s | FileCheck %s \
; RUN:   --implicit-check-not=@__alignguard_site.5 --implicit-check-not=@__alignguard_str.5

; CHECK-DAG: @__alignguard_site = global i32 1
; CHECK-DAG: @__alignguard_site.2 = global i32 2
; CHECK-DAG: @__alignguard_str = global i32 3
; CHECK-DAG: @__alignguard_site.1 = private {{.*}}@__alignguard_str.1{{.*}}@__alignguard_str.2
; CHECK-DAG: @__alignguard_site.3 = private {{.*}}@__alignguard_str.3{{.*}}@__alignguard_str.2
; CHECK-DAG: @__alignguard_site.4 = private {{.*}}@__alignguard_str.4{{.*}}@__alignguard_str.2
; CHECK-DAG: @__alignguard_str.1 = private {{.*}}c"one\00"
; CHECK-DAG: @__alignguard_str.2 = private {{.*}}c"argument #0 'p'\00"
; CHECK-DAG: @__alignguard_str.3 = private {{.*}}c"two\00"
; CHECK-DAG: @__alignguard_str.4 = private {{.*}}c"three\00"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@__alignguard_site = global i32 1
@__alignguard_site.2 = global i32 2
@__alignguard_str = global i32 3

define void @one(float* %p) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  ret void
}

define void @two(float* %p) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  ret void
}

define void @three(float* %p) {
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
