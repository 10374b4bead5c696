; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; `align` on a vector of pointers holds for each element: a deferred run
; (clang's) tests each element, read with extractelement, in its marker. A
; second run of the same pipeline (LTO, another tool) finds every element
; tested there and adds nothing; it used to add a second place for
; `argument #0 'agp1' element 0/1`. The output of each run, comments left
; out (the predecessors they list follow use-list order), is the same.
; RUN: %opt-ag -passes='align-guard<deferred>' -S < %s -o %t.1.ll
; RUN: %opt-ag -passes='align-guard<deferred>' -S < %t.1.ll -o %t.2.ll
; RUN: sed 's/;.*//' %t.1.ll > %t.1.txt && sed 's/;.*//' %t.2.ll > %t.2.txt && diff %t.1.txt %t.2.txt
; RUN: FileCheck %s < %t.2.ll
; RUN: %opt-ag -passes='align-guard<recover;deferred>' -S < %s -o %t.r1.ll
; RUN: %opt-ag -passes='align-guard<recover;deferred>' -S < %t.r1.ll -o %t.r2.ll
; RUN: sed 's/;.*//' %t.r1.ll > %t.r1.txt && sed 's/;.*//' %t.r2.ll > %t.r2.txt && diff %t.r1.txt %t.r2.txt
; A marker that tests one element only leaves the other to the next run.
; RUN: %opt-ag -passes='align-guard<deferred>' -S %S/Inputs/vector-param-one-lane.ll | FileCheck %s --check-prefix=ONE

define void @f(<2 x i8*> align 16 %agp1) {
  %p = extractelement <2 x i8*> %agp1, i32 0
  store i8 0, i8* %p, align 1
  ret void
}

; CHECK:     call void @alignguard.deferred.check(i32 0) {{.*}}"alignguard.checks"({{.*}} i64 16, {{.*}} i64 16,
; CHECK-NOT: call void @alignguard.deferred.check(
; ONE:       call void @alignguard.deferred.check(i32 0) {{.*}}"alignguard.checks"({{.*}} i64 16, {{.*}} i64 16,
; ONE:       call void @alignguard.deferred.check(i32 0) {{.*}}"alignguard.checks"({{.*}} %e0, i64 16,
