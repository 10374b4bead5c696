; The audit after a deferred run (a build's: ALIGNGUARD_PIPELINE=
; 'align-guard<accesses>,align-guard-audit' at pipeline start) says what it
; says after an immediate one: @by_ref's parameter %p keeps its `align 64`
; until the expansion, and the marker that tests it makes it guarded; %v's
; type alignment stays `type` although a marker tests %v (for its access,
; at 16, which is not a check of the parameter's promise as such).
; RUN: %opt-ag -passes='align-guard<accesses>,align-guard-audit<all>' -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt-ag -passes='align-guard<accesses;deferred>,align-guard-audit<all>' -disable-output %s 2>&1 | FileCheck %s
; A second deferred run adds nothing (one marker per place).
; RUN: %opt-ag -passes='align-guard<accesses;deferred>,align-guard<accesses;deferred>' -S %s | FileCheck %s --check-prefix=ONCE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK:      type     param-attr  by_ref    argument #0 'v'  16
; CHECK-NEXT: guarded  param-attr  by_ref    argument #1 'p'  64
; CHECK-NEXT: guarded  access      by_ref    argument #1 'p'  32
; CHECK-NEXT: guarded  access      by_ref    argument #0 'v'  16
; CHECK:      summary: 4 assumptions: 0 unchecked, 3 guarded, 0 checked, 0 implied, 0 unsupported, 0 suppressed, 1 type

; ONCE-COUNT-2: call void @alignguard.deferred.check(
; ONCE-NOT:     call void @alignguard.deferred.check(
define <4 x float> @by_ref(<4 x float>* noundef nonnull align 16 dereferenceable(16) %v, float* align 64 %p) {
  %q = bitcast float* %p to <8 x float>*
  %x = load <8 x float>, <8 x float>* %q, align 32
  %r = load <4 x float>, <4 x float>* %v, align 16
  ret <4 x float> %r
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
