; A suppressed function (fun:main in ignorelists/alignment.txt) with a
; reference's type alignment and a promise, for
; tests/lit/pass/type-and-ignorelist.test.
source_filename = "kernels/ref.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @main(float* align 16 dereferenceable(64) %r, float* %p) {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 64) ]
  store float 0.0, float* %p
  store float 0.0, float* %r
  ret void
}

declare void @llvm.assume(i1)
