; align-guard-cold-exits also puts each `or` of a check's addresses back in
; the order the emitter wrote: the new address first, the running value
; second. InstCombine puts the running value (the more complex operand)
; first; x86's code generator then copies the new address when it stays
; live, one instruction over the per-place limit
; (programs/check-or-chain.test). Only align-guard's own `or`s (!nosanitize)
; in a function with a check are turned; nothing else changes.
; RUN: %opt-ag -passes=align-guard-cold-exits,verify -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@site = private constant i8 0

; CHECK-LABEL: define void @three(
; CHECK:         %ab = or i64 %b, %a, !nosanitize
; CHECK-NEXT:    %abc = or i64 %c, %ab, !nosanitize
; CHECK-NEXT:    %own = or i64 %abc, %c{{$}}
define void @three(i8* %p, i8* %q, i8* %r) {
entry:
  %a = ptrtoint i8* %p to i64
  %b = ptrtoint i8* %q to i64
  %c = ptrtoint i8* %r to i64
  %ab = or i64 %b, %a, !nosanitize !0
  %abc = or i64 %ab, %c, !nosanitize !0
  %own = or i64 %abc, %c
  %low = and i64 %own, 63, !nosanitize !0
  %bad = icmp ne i64 %low, 0, !nosanitize !0
  br i1 %bad, label %fail, label %ok

fail:
  call void @__alignguard_report_abort(i8* @site, i64 %a, i64 64, i64 0), !nosanitize !0
  unreachable, !nosanitize !0

ok:
  ret void
}

; No check in the function: left as it is.
; CHECK-LABEL: define i64 @unchecked(
; CHECK:         %abc = or i64 %ab, %c, !nosanitize
define i64 @unchecked(i64 %a, i64 %b, i64 %c) {
  %ab = or i64 %b, %a, !nosanitize !0
  %abc = or i64 %ab, %c, !nosanitize !0
  ret i64 %abc
}

declare void @__alignguard_report_abort(i8*, i64, i64, i64)

!0 = !{}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
