; align-guard-outline-body (OutlineBodyPass.h), which a build runs last,
; after align-guard-cold-exits: a function whose entry is only a check and
; whose failing side leaves by a tail call gets the rest, the kernel with
; its loop nest, in a function of its own, which its aligned side jumps to
; with the function's own arguments. The body is then compiled as the
; unchecked kernel is, whatever the check does to the register allocator.
; The failing sides below are written as align-guard leaves them (its calls
; carry !nosanitize); cold-exits turns them into tail calls first.
; RUN: %opt-ag -passes=align-guard-cold-exits,align-guard-outline-body,verify -S %s | FileCheck %s
; A second run finds nothing left to do (the entry is not a check now).
; RUN: %opt-ag -passes=align-guard-cold-exits,align-guard-outline-body,align-guard-outline-body,verify -S %s | FileCheck %s
; Without the pass, nothing is outlined.
; RUN: %opt-ag -passes=align-guard-cold-exits,verify -S %s | FileCheck %s --check-prefix=NONE
; NONE-NOT: alignguard.body
; On x86-64 the entry is the check and its branch, which jumps to the body
; itself (a conditional tail call; the entry is optimised for size, without
; which LLVM before 22 adds a `jmp` to the body): a copy, an `or`, the test
; and the branch, nothing more and no frame (tests/tools/aligned-path.py);
; the body has no check. Debug info survives: the body has a subprogram of
; its own (llc verifies it).
; RUN: %opt-ag -passes=align-guard-cold-exits,align-guard-outline-body -S %s -o %t.ll
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu %t.ll -o %t.s
; RUN: %python %tools/aligned-path.py %t.s k:4
; RUN: FileCheck %s --check-prefix=ASM < %t.s
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu -filetype=obj %t.ll -o %t.o

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@site = private constant [64 x i8] zeroinitializer
; The function keeps its name and every use of it: a table of pointers to
; it and an alias still name the checking function, and what its symbol
; carries (CFI's !type) stays with it.
@table = global [1 x i32 (float*, float*, i64)*] [i32 (float*, float*, i64)* @k]
@k_alias = alias i32 (float*, float*, i64), i32 (float*, float*, i64)* @k
; CHECK: @table = global [1 x {{.*}}] [{{.*}} @k]
; CHECK: @k_alias = alias {{.*}} @k{{$}}

; CHECK-LABEL: define i32 @k(
; CHECK-SAME:    #[[WRAPPER:[0-9]+]]
; CHECK-SAME:    !dbg [[SP:![0-9]+]] !type [[TYPE:![0-9]+]]
; CHECK:       entry:
; CHECK-NOT:     call void @llvm.assume
; CHECK:         br i1 %bad, label %fail, label %alignguard.aligned
; CHECK:       fail:
; CHECK-NEXT:    tail call i32 @__alignguard_report_first_abort.thunk.i32(
; CHECK-NEXT:    ret i32
; CHECK:       alignguard.aligned:
; CHECK-NEXT:    [[R:%.*]] = tail call i32 @k.alignguard.body({{.*}} %y, {{.*}} %x, i64 %n), !dbg {{![0-9]+}}, !nosanitize
; CHECK-NEXT:    ret i32 [[R]]
; CHECK-NEXT:  }
; CHECK-LABEL: define internal i32 @k.alignguard.body(
; CHECK-SAME:    !dbg [[BODYSP:![0-9]+]] {
; CHECK-NOT:     ptrtoint
; CHECK-NOT:     @__alignguard
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{.*}} %x, i64 64), "align"({{.*}} %y, i64 64) ]
; CHECK-NOT:     @__alignguard
; CHECK:         br i1 %more, label %loop, label %latch
; CHECK:         ret i32 0
; CHECK-NEXT:  }
; ASM-LABEL: k:
; ASM:         k.alignguard.body # TAILCALL
; ASM-NOT:     .Lfunc_end
; ASM:         __alignguard_report_first_abort.thunk.i32 # TAILCALL
; ASM-LABEL: k.alignguard.body:
; ASM-NOT:     $63
; ASM:         .size k.alignguard.body
define i32 @k(float* %y, float* %x, i64 %n) !dbg !5 !type !9 {
entry:
  %xi = ptrtoint float* %x to i64, !dbg !7
  %yi = ptrtoint float* %y to i64, !dbg !7
  %o = or i64 %xi, %yi, !dbg !7, !nosanitize !2
  %m = and i64 %o, 63, !dbg !7, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !dbg !7, !nosanitize !2
  br i1 %bad, label %fail, label %body, !dbg !7, !nosanitize !2

fail:
  call void @__alignguard_report_first_abort(i64 %yi, i64 %xi, i64 0, i64 0, i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 2), !dbg !7, !nosanitize !2
  unreachable, !nosanitize !2

body:
  call void @llvm.assume(i1 true) [ "align"(float* %x, i64 64), "align"(float* %y, i64 64) ], !dbg !7
  %empty = icmp eq i64 %n, 0, !dbg !8
  br i1 %empty, label %done, label %outer, !dbg !8

outer:
  %j = phi i64 [ 0, %body ], [ %j.next, %latch ]
  br label %loop, !dbg !8

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, float* %x, i64 %i, !dbg !8
  %py = getelementptr inbounds float, float* %y, i64 %i, !dbg !8
  %vx = load float, float* %px, align 4, !dbg !8
  %vy = load float, float* %py, align 4, !dbg !8
  %s = fadd float %vx, %vy, !dbg !8
  store float %s, float* %py, align 4, !dbg !8
  %i.next = add nuw i64 %i, 1, !dbg !8
  %more = icmp ult i64 %i.next, %n, !dbg !8
  br i1 %more, label %loop, label %latch, !dbg !8

latch:
  %j.next = add nuw i64 %j, 1, !dbg !8
  %more.j = icmp ult i64 %j.next, 4, !dbg !8
  br i1 %more.j, label %outer, label %done, !dbg !8

done:
  ret i32 0, !dbg !8
}

; Recover's rerun in the recover copy leaves by a tail call of the copy,
; through the function's shared `ret`.
; CHECK-LABEL: define void @rerun(
; CHECK:         br i1 %bad, label %fail, label %alignguard.aligned
; CHECK:       alignguard.aligned:
; CHECK-NEXT:    tail call void @rerun.alignguard.body({{.*}} %x, i64 %n)
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @rerun.alignguard.body(
; CHECK-NOT:     @rerun.alignguard.recover
; CHECK:         ret void
; CHECK-NEXT:  }
define void @rerun(float* %x, i64 %n) {
entry:
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %outer, !nosanitize !2

fail:
  tail call void @rerun.alignguard.recover(float* %x, i64 %n), !nosanitize !2
  br label %done

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br label %loop

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  %i.next = add nuw i64 %i, 8
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %outer, label %done

done:
  ret void
}

define internal void @rerun.alignguard.recover(float* %x, i64 %n) {
  store float 0.0, float* %x, align 4
  ret void
}

; A single loop: the kernel is at the limit without a function of its
; own (bench/README.md), which would only cost compile time.
; CHECK-LABEL: define void @single_loop(
; CHECK-NOT:     alignguard.body
define void @single_loop(float* %x, i64 %n) {
entry:
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %loop, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %xi, i64 32, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  %i.next = add nuw i64 %i, 8
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; Two loops one after the other (a vectorised loop and its remainder):
; two back edges, no nest.
; CHECK-LABEL: define void @loops_in_sequence(
; CHECK-NOT:     alignguard.body
define void @loops_in_sequence(float* %x, i64 %n) {
entry:
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %vector, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %xi, i64 32, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

vector:
  %i = phi i64 [ 0, %entry ], [ %i.next, %vector.latch ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  br label %vector.latch

vector.latch:
  %i.next = add nuw i64 %i, 8
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %vector, label %rest

rest:
  %j = phi i64 [ %i.next, %vector.latch ], [ %j.next, %rest ]
  %q = getelementptr inbounds float, float* %x, i64 %j
  store float 1.0, float* %q, align 4
  %j.next = add nuw i64 %j, 1
  %again = icmp ult i64 %j.next, %n
  br i1 %again, label %rest, label %done

done:
  ret void
}

; No loop: a function of its own would only add a jump.
; CHECK-LABEL: define i32 @no_loop(
; CHECK-NOT:     alignguard.body
define i32 @no_loop(i32* %p) {
entry:
  %pi = ptrtoint i32* %p to i64
  %m = and i64 %pi, 15, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %body, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %pi, i64 16, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

body:
  %v = load i32, i32* %p, align 16
  ret i32 %v
}

; The entry reads memory (TVM's packed arguments): the body would read it
; again on the aligned path.
; CHECK-LABEL: define void @loads_first(
; CHECK-NOT:     alignguard.body
define void @loads_first(float** %args, i64 %n) {
entry:
  %x = load float*, float** %args, align 8
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %outer, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %xi, i64 32, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br label %loop

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  %i.next = add nuw i64 %i, 8
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %outer, label %done

done:
  ret void
}

; An argument a tail call cannot pass on as it is (byval), and a body that
; asks for its own frame: both stay.
; CHECK-LABEL: define void @by_value(
; CHECK-NOT:     alignguard.body
define void @by_value(float* %x, { i64, i64 }* byval({ i64, i64 }) %s) {
entry:
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %outer, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %xi, i64 32, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br label %loop

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  %i.next = add nuw i64 %i, 8
  %lim.p = getelementptr { i64, i64 }, { i64, i64 }* %s, i64 0, i32 0
  %lim = load i64, i64* %lim.p
  %more = icmp ult i64 %i.next, %lim
  br i1 %more, label %loop, label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %outer, label %done

done:
  ret void
}

; CHECK-LABEL: define {{.*}} @frame(
; CHECK-NOT:     alignguard.body
define i8* @frame(float* %x, i64 %n) {
entry:
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %outer, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %xi, i64 32, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br label %loop

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  %i.next = add nuw i64 %i, 8
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %outer, label %done

done:
  %fa = call i8* @llvm.returnaddress(i32 0)
  ret i8* %fa
}

; An available_externally function is not emitted here; its body would be.
; CHECK-LABEL: define available_externally void @elsewhere(
; CHECK-NOT:     alignguard.body
define available_externally void @elsewhere(float* %x, i64 %n) {
entry:
  %xi = ptrtoint float* %x to i64
  %m = and i64 %xi, 31, !nosanitize !2
  %bad = icmp ne i64 %m, 0, !nosanitize !2
  br i1 %bad, label %fail, label %outer, !nosanitize !2

fail:
  call void @__alignguard_report_abort(i8* getelementptr ([64 x i8], [64 x i8]* @site, i64 0, i64 0), i64 %xi, i64 32, i64 0), !nosanitize !2
  unreachable, !nosanitize !2

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br label %loop

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 32
  %i.next = add nuw i64 %i, 8
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %outer, label %done

done:
  ret void
}

; A failing side that is not a cold exit (the user's own branch to a call
; of their own) is not align-guard's: nothing moves.
; CHECK-LABEL: define void @not_a_check(
; CHECK-NOT:     alignguard.body
define void @not_a_check(float* %x, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %fail, label %outer

fail:
  tail call void @user_cold()
  ret void

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br label %loop

loop:
  %i = phi i64 [ 0, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, float* %x, i64 %i
  store float 0.0, float* %p, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %outer, label %done

done:
  ret void
}

; CHECK: attributes #[[WRAPPER]] = { {{.*}}optsize

declare void @__alignguard_report_abort(i8*, i64, i64, i64)
declare void @__alignguard_report_first_abort(i64, i64, i64, i64, i8*, i64)
declare void @user_cold() cold
declare void @llvm.assume(i1)
declare i8* @llvm.returnaddress(i32)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.c", directory: "/tmp")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !2)
!7 = !DILocation(line: 2, column: 3, scope: !5)
!8 = !DILocation(line: 3, column: 5, scope: !5)
!9 = !{i64 0, !"_ZTSFiPfS_lE"}
; CHECK-DAG: [[SP]] = distinct !DISubprogram(name: "k"
; CHECK-DAG: [[BODYSP]] = distinct !DISubprogram(name: "k"
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
