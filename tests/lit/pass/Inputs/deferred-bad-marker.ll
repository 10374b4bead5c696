; A call of align-guard's marker with operands it never writes (four per
; pointer, not five): align-guard-expand reports it (deferred.ll).
define void @f(i8* %p) {
  call void @alignguard.deferred.check(i32 0) [ "alignguard.checks"(i8* %p, i64 64, i64 0, i1 true) ]
  ret void
}

declare void @alignguard.deferred.check(i32)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
