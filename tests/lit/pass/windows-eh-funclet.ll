; A check inside a Windows EH funclet (a catch block or a cleanup): the
; report call carries the funclet's token, or WinEHPrepare would delete it.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<recover>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER
; RUN: %opt-ag -passes='align-guard<trap>,verify' -S %s | FileCheck %s --check-prefixes=CHECK,TRAP
; Deferred (a build's run), the expansion puts the funclet's token back.
; RUN: %opt-ag -passes='align-guard<deferred>,align-guard-expand,verify' -S %s | FileCheck %s --check-prefixes=CHECK,ABORT
; RUN: %opt-ag -passes='align-guard<deferred;recover>,align-guard-expand,verify' -S %s | FileCheck %s --check-prefixes=CHECK,RECOVER

target datalayout = "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-windows-msvc"

declare void @may_throw()
declare void @use(i8*)
declare i32 @__CxxFrameHandler3(...)
declare void @llvm.assume(i1)

define void @f(i8* align 16 %p, i8* %q) personality i32 (...)* @__CxxFrameHandler3 {
; CHECK-LABEL: define void @f(
; The parameter's check is in the entry block, in no funclet.
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 16, i64 0) #{{[0-9]+}}{{(, !nosanitize ![0-9]+)?$}}
; CHECK:       cleanup:
; CHECK-NEXT:    %cp = cleanuppad within none []
; ABORT:         call void @__alignguard_report_abort({{.*}}, i64 64, i64 0) #{{[0-9]+}} [ "funclet"(token %cp) ]
; RECOVER:       call void @__alignguard_report({{.*}}, i64 64, i64 0) [ "funclet"(token %cp) ]
; TRAP:          call void @llvm.trap() [ "funclet"(token %cp) ]
entry:
  invoke void @may_throw() to label %done unwind label %cleanup
cleanup:
  %cp = cleanuppad within none []
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 64) ]
  call void @use(i8* %q) [ "funclet"(token %cp) ]
  cleanupret from %cp unwind to caller
done:
  ret void
}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
