; SiteDescriptors names each descriptor itself (freshName in RuntimeABI.cpp):
; __alignguard_site, then .1, .2, ... skipping every name the module already
; has, and never renaming a global it did not make.
; RUN: %opt-ag -passes=align-guard -S %s | %python %tools/packed-sites.py \
; RUN:   | FileCheck %s --implicit-check-not=@__alignguard_site.5

; CHECK-DAG: @__alignguard_site = global i32 1
; CHECK-DAG: @__alignguard_site.2 = global i32 2
; CHECK-DAG: @__alignguard_str = global i32 3
; CHECK-DAG: ; packed @__alignguard_site.1 = [{ i32 3, i32 0, c"one", c"argument #0 'p'",
; CHECK-DAG: ; packed @__alignguard_site.3 = [{ i32 3, i32 0, c"two", c"argument #0 'p'",
; CHECK-DAG: ; packed @__alignguard_site.4 = [{ i32 3, i32 0, c"three", c"argument #0 'p'",

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
