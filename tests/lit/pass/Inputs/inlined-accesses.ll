; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; The input of inlined-accesses.test.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

define void @k(<8 x float>* %out, float* %in, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds float, float* %in, i64 %i
  %srcv = bitcast float* %src to <8 x float>*
  %v = load <8 x float>, <8 x float>* %srcv, align 32
  %dst = getelementptr inbounds <8 x float>, <8 x float>* %out, i64 %i
  store <8 x float> %v, <8 x float>* %dst, align 32
  %i.next = add nuw i64 %i, 8
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define internal <8 x float> @helper(<8 x float>* %p) {
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret <8 x float> %v
}

define <8 x float> @opted(<8 x float>* %p) #0 {
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret <8 x float> %v
}

define <8 x float> @r(<8 x float>* %p) {
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret <8 x float> %v
}

define internal <8 x float> @r.alignguard.recover(<8 x float>* %p) {
  %v = load <8 x float>, <8 x float>* %p, align 4
  ret <8 x float> %v
}

define i32 @main() {
  %a = alloca [64 x float], align 32
  %p = getelementptr inbounds [64 x float], [64 x float]* %a, i64 0, i64 1
  %q = bitcast float* %p to <8 x float>*
  call void @k(<8 x float>* %q, float* %p, i64 32)
  ret i32 0
}

attributes #0 = { "no-align-guard" }
