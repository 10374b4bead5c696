; Three functions, each with one assume-bundle promise that align-guard
; checks, for tests/lit/pass/ignorelist.test and audit/suppressed.test.
source_filename = "kernels/blur.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @main(float* %p) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p
  ret void
}

define void @vadd(float* %p) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p
  ret void
}

; blur::kernel(float*)
define void @_ZN4blur6kernelEPf(float* %p) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p
  ret void
}

declare void @llvm.assume(i1)
