; A table hook (a place of 2 to 4 checks) declared with the one-check
; hooks' type: hook-name-clash.ll.
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

declare void @__alignguard_report_first_abort(i8*, i64, i64, i64)

define void @k(i8* align 16 %p, i8* align 16 %q) {
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
