; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; The input of idempotent-vector-param.ll: a deferred marker that tests
; element 0 of %agp1 only.
define void @f(<2 x i8*> align 16 %agp1) {
  %e0 = extractelement <2 x i8*> %agp1, i64 0
  call void @alignguard.deferred.check(i32 0) #0 [ "alignguard.checks"(i8* %e0, i64 16, i64 0, i1 true, i8* null) ]
  ret void
}

declare void @alignguard.deferred.check(i32) #0

attributes #0 = { nobuiltin nomerge nounwind readonly }
