; align-guard<accesses> on the IR shapes that real frontends and older LLVMs
; produce (from the Halide and Highway program tests, reduced): a loop with
; no preheader (clang -O2's `for (; i + N <= n; i += N)`), an unrolled
; offset written as `or` without a `disjoint` flag (LLVM 14's output read by
; a newer LLVM), 32-bit index arithmetic extended to 64 bits (Halide's
; tiles); none keeps a check in a loop. Straight-line accesses a multiple of
; the alignment apart share one check, recorded as `in-place`.
; RUN: %opt-ag -passes='align-guard<accesses>,verify' -S %s > %t.ll
; RUN: %python %tools/checks-outside-loops.py %t.ll --function no_preheader --function or_offset --function tiles | FileCheck %s --check-prefix=LOOPS
; RUN: FileCheck %s < %t.ll
; RUN: %opt-ag -passes='align-guard<accesses>,align-guard-audit<json;all>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT

; LOOPS: no_preheader: {{.*}}; 1 checks, 0 in loops; loop accesses: 2 guarded (2 hoisted, 0 in-loop), 0 unguarded
; LOOPS: or_offset: {{.*}}; 1 checks, 0 in loops; loop accesses: 3 guarded (3 hoisted, 0 in-loop), 0 unguarded
; LOOPS: tiles: {{.*}}; 1 checks, 0 in loops; loop accesses: 1 guarded (1 hoisted, 0 in-loop), 0 unguarded

; CHECK-LABEL: define <4 x float> @two(
; CHECK-COUNT-1: and i64 {{%.*}}, 15
; CHECK-NOT:     and i64 {{%.*}}, 15
; CHECK:         ret <4 x float>

; The two accesses of @two are one finding, identical but for their place.
; AUDIT: guarded access two | argument #0 'p' | arg=0 align=16 offset=0 | - | None | in-place | x2
; AUDIT-NOT: guarded access two
; AUDIT: guarded access straight | argument #0 'p' | arg=0 align=16 offset=0 | - | None | in-place

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @no_preheader(<4 x float>* %in, <4 x float>* %out, i64 %n) {
entry:
  %small = icmp ult i64 %n, 1
  br i1 %small, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds <4 x float>, <4 x float>* %in, i64 %i
  %x = load <4 x float>, <4 x float>* %pi, align 16
  %po = getelementptr inbounds <4 x float>, <4 x float>* %out, i64 %i
  store <4 x float> %x, <4 x float>* %po, align 16
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @or_offset(i8* %in, i8* %out, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %a = shl nuw nsw i64 %i, 4
  %pa = getelementptr inbounds i8, i8* %in, i64 %a
  %va = bitcast i8* %pa to <16 x i8>*
  %x = load <16 x i8>, <16 x i8>* %va, align 16
  %b = or i64 %a, 16
  %pb = getelementptr inbounds i8, i8* %in, i64 %b
  %vb = bitcast i8* %pb to <16 x i8>*
  %y = load <16 x i8>, <16 x i8>* %vb, align 16
  %s = add <16 x i8> %x, %y
  %po = getelementptr inbounds i8, i8* %out, i64 %b
  %vo = bitcast i8* %po to <16 x i8>*
  store <16 x i8> %s, <16 x i8>* %vo, align 16
  %i.next = add nuw nsw i64 %i, 2
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @tiles(i16* %in, i64 %stride, i64 %tiles, i64 %rows) {
entry:
  br label %tile
tile:
  %j = phi i64 [ 0, %entry ], [ %j.next, %tile.latch ]
  %x = shl i64 %j, 6
  %x32 = trunc i64 %x to i32
  %xs = sext i32 %x32 to i64
  br label %row
row:
  %r = phi i64 [ 0, %tile ], [ %r.next, %row ]
  %off = mul nsw i64 %r, %stride
  %idx = add nsw i64 %off, %xs
  %p = getelementptr inbounds i16, i16* %in, i64 %idx
  %v = bitcast i16* %p to <8 x i16>*
  %a = load <8 x i16>, <8 x i16>* %v, align 16
  %r.next = add nuw nsw i64 %r, 1
  %rdone = icmp eq i64 %r.next, %rows
  br i1 %rdone, label %tile.latch, label %row
tile.latch:
  %j.next = add nuw nsw i64 %j, 1
  %tdone = icmp eq i64 %j.next, %tiles
  br i1 %tdone, label %exit, label %tile
exit:
  ret void
}

define <4 x float> @two(<4 x float>* %p) {
  %a = load <4 x float>, <4 x float>* %p, align 16
  %q = getelementptr inbounds <4 x float>, <4 x float>* %p, i64 1
  %b = load <4 x float>, <4 x float>* %q, align 16
  %s = fadd <4 x float> %a, %b
  ret <4 x float> %s
}

define void @straight(<4 x float>* %p) {
  store <4 x float> zeroinitializer, <4 x float>* %p, align 16
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
