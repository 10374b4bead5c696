; The aligned path of an entry point pays the check and nothing else: no
; frame, no saved register, no argument moved for the failing side's call.
; tests/tools/aligned-path.py counts the entry's instructions up to the
; check's branch after default<O2> and llc, under abort, return=-1,
; fallback and recover, on every LLVM major, and fails on more than the
; limit or on any frame set-up there (push, %rsp, a callee-saved register).
; saxpy's two pointers have two alignments: a copy and an `and` per pointer,
; the `or` that sets the flags and the branch (6); both64's have one: k-1
; `or`s, the test and the branch, and one copy (4). Two pieces make it so:
; one call per place under a terminal action (here the table hook's, with
; both pointers: cold-side-select.ll), and that call made by a tail call of
; a thunk (align-guard-cold-exits, cold-exits.ll), so the failing side is a
; jump. Without the thunk, LLVM 14 began the entry with `pushq %rax` (abort)
; or three pushes and the arguments moved into callee-saved registers
; (fallback); LLVM 22 with `pushq %rax` under abort.
; RUN: %opt-ag -passes='align-guard<abort>,default<O2>' -S %s -o %t.abort.ll
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu %t.abort.ll -o %t.abort.s
; RUN: %python %tools/aligned-path.py %t.abort.s saxpy:6 both64:4
; RUN: FileCheck %s -DTHUNK=__alignguard_report_first_abort.thunk.i32 < %t.abort.s
; RUN: %opt-ag -passes='align-guard<return=-1>,default<O2>' -S %s -o %t.return.ll
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu %t.return.ll -o %t.return.s
; RUN: %python %tools/aligned-path.py %t.return.s saxpy:6 both64:4
; RUN: FileCheck %s -DTHUNK=__alignguard_report_first.thunk.i32.m1 < %t.return.s
; RUN: %opt-ag -passes='align-guard<fallback>,default<O2>' -S %s -o %t.fallback.ll
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu %t.fallback.ll -o %t.fallback.s
; RUN: %python %tools/aligned-path.py %t.fallback.s saxpy:6 both64:4
; RUN: FileCheck %s -DTHUNK=.Lsaxpy.alignguard.fallback < %t.fallback.s
; Recover reruns the call in its recover copy; saxpy's result is constant,
; which the optimiser folds into the `ret` after the call: the call goes
; into a thunk that returns it, so the failing side stays a jump.
; RUN: %opt-ag -passes='align-guard<recover>,default<O2>' -S %s -o %t.recover.ll
; RUN: %llc -O2 -mtriple=x86_64-unknown-linux-gnu %t.recover.ll -o %t.recover.s
; RUN: %python %tools/aligned-path.py %t.recover.s saxpy:6 both64:4
; RUN: FileCheck %s -DTHUNK=.Lsaxpy.alignguard.rerun < %t.recover.s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; The failing side leaves by a jump to the thunk (or, LLVM 22 under
; recover, the check's branch is that jump).
; CHECK-LABEL: saxpy:
; CHECK:         j{{mp|ne|e}} [[THUNK]]{{(@PLT)?}} # TAILCALL
; CHECK:       .Lfunc_end0:
define i32 @saxpy(float* %y, float* %x, float %a, i64 %n) "alignguard-entry" {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %x, i64 32), "align"(float* %y, i64 64) ]
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, float* %x, i64 %i
  %py = getelementptr inbounds float, float* %y, i64 %i
  %vx = load float, float* %px, align 4
  %vy = load float, float* %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, float* %py, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret i32 0
}

; Two pointers with one alignment: the check is one `or` of the pointers
; (copied first: x86's `or` overwrites its operand), the test and the
; branch, and the pointers stay in the registers they arrived in (the table
; hook takes them first, in the argument registers: with the table first,
; LLVM 14 moved both on the aligned path, `movq %rsi, %rcx; movq %rdi, %r9`,
; two instructions over the limit).
; CHECK-LABEL: both64:
; CHECK:         j{{mp|ne|e}} {{.*}} # TAILCALL
; CHECK:         .size both64,
define i32 @both64(float* %y, float* %x, i64 %n) "alignguard-entry" {
entry:
  call void @llvm.assume(i1 true) [ "align"(float* %x, i64 64), "align"(float* %y, i64 64) ]
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, float* %x, i64 %i
  %py = getelementptr inbounds float, float* %y, i64 %i
  %vx = load float, float* %px, align 4
  %vy = load float, float* %py, align 4
  %s = fadd float %vx, %vy
  store float %s, float* %py, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret i32 0
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
