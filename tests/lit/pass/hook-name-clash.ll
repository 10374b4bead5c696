; A module that already has something else named like a runtime hook cannot
; call the runtime: the pass says so with an error and changes nothing
; (trap needs no runtime and still works).
; RUN: not %opt-ag -passes='align-guard' -disable-output %s 2>&1 | FileCheck %s --check-prefix=ERR
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s | FileCheck %s --check-prefix=TRAP
; ERR: error: align-guard: cannot call the AlignGuard runtime: '__alignguard_report_abort' is declared with another type than the runtime's void(const alignguard_site *, uint64_t, uint64_t, int64_t)
; TRAP: call void @llvm.trap()
; The table hooks are checked the same way, against their own type.
; RUN: not %opt-ag -passes='align-guard' -disable-output %S/Inputs/hook-name-clash-table.ll 2>&1 | FileCheck %s --check-prefix=TABLE
; TABLE: error: align-guard: cannot call the AlignGuard runtime: '__alignguard_report_first_abort' is declared with another type than the runtime's void(uint64_t, uint64_t, uint64_t, uint64_t, const alignguard_site *, uint64_t)

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define i32 @__alignguard_report_abort(i32 %x) {
  ret i32 %x
}

define void @k(i8* align 16 %p) {
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
