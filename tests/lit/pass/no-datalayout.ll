; Over-aligned means beyond the natural alignment: an access is a finding
; when its alignment exceeds both the ABI alignment of its scalar (or vector
; element) type and that type's store size. This module has no `target
; datalayout`: LLVM's default layout gives i64 an ABI alignment of 4, yet
; `load i64, align 8` and `load <2 x i64>, align 8` are natural (the store
; size of i64 is 8) and neither listed nor checked; `load <4 x i32>, align
; 16` and `load i64, align 16` state more than their element and are.
; When recover drops a checked access's alignment, it lowers it to what the
; element type can count on without a promise, the ABI's 4 for an i64 here,
; not its store size.
; RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AUDIT
; RUN: %opt-ag -passes='align-guard<accesses>,verify' -S %s | FileCheck %s
; RUN: %opt-ag -passes='align-guard<accesses;recover>,verify' -S %s | FileCheck %s --check-prefix=RECOVER
; RUN: %opt-ag -passes='align-guard<accesses>,align-guard-audit<json;all>' -disable-output %s | %python %tools/audit-json.py | FileCheck %s --check-prefix=AFTER

; AUDIT-NOT:  natural
; AUDIT:      unchecked access kernel | argument #2 'v' | arg=2 align=16 offset=0 | - | nothing checks it
; AUDIT-NEXT: unchecked access kernel | argument #3 'w' | arg=3 align=16 offset=0 | - | nothing checks it
; AUDIT-NOT:  access

; AFTER-NOT:  natural
; AFTER:      guarded access kernel | argument #2 'v' | arg=2 align=16 offset=0 | - | None | in-place
; AFTER-NEXT: guarded access kernel | argument #3 'w' | arg=3 align=16 offset=0 | - | None | in-place
; AFTER-NOT:  access

; CHECK-LABEL: define void @kernel(
; CHECK-NEXT:    load i64, {{.*}}%natural, align 8{{$}}
; CHECK-NEXT:    load <2 x i64>, {{.*}}%natural.v, align 8{{$}}
; CHECK-NEXT:    %ag.ptr = ptrtoint {{.*}}%v to i64
; CHECK-NEXT:    and i64 %ag.ptr, 15
; CHECK:         load <4 x i32>, {{.*}}%v, align 16, !alignguard.guarded
; CHECK-NEXT:    %ag.ptr1 = ptrtoint {{.*}}%w to i64
; CHECK-NEXT:    and i64 %ag.ptr1, 15
; CHECK:         load i64, {{.*}}%w, align 16, !alignguard.guarded
; CHECK-NOT:     %ag.ptr

; RECOVER-LABEL: define void @kernel(
; RECOVER:         load i64, {{.*}}%natural, align 8{{$}}
; RECOVER:         load <2 x i64>, {{.*}}%natural.v, align 8{{$}}
; RECOVER:         load <4 x i32>, {{.*}}%v, align 4{{$}}
; RECOVER:         load i64, {{.*}}%w, align 4{{$}}

define void @kernel(i64* %natural, <2 x i64>* %natural.v, <4 x i32>* %v, i64* %w) {
  %a = load i64, i64* %natural, align 8
  %b = load <2 x i64>, <2 x i64>* %natural.v, align 8
  %c = load <4 x i32>, <4 x i32>* %v, align 16
  %d = load i64, i64* %w, align 16
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
