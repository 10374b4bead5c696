; Every finding is also an optimisation remark of pass align-guard-audit: missed
; for unchecked and unsupported, analysis for the others, so
; -pass-remarks-missed and -pass-remarks-output YAML work.
; RUN: %opt-ag -passes='align-guard-audit' -disable-output -pass-remarks-missed='^align-guard-audit$' %s 2>&1 | FileCheck %s --check-prefix=MISSED
; RUN: %opt-ag -passes='align-guard-audit' -disable-output -pass-remarks-output=%t.yaml %s 2>/dev/null
; RUN: FileCheck %s --check-prefix=YAML < %t.yaml

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @k(i8* %p, i8* %q) {
  call void @llvm.assume(i1 true) [ "align"(i8* %p, i64 64) ]
  %i = ptrtoint i8* %q to i64
  %low = and i64 %i, 15
  %ok = icmp eq i64 %low, 0
  br i1 %ok, label %good, label %bad
good:
  call void @llvm.assume(i1 true) [ "align"(i8* %q, i64 16) ]
  ret void
bad:
  ret void
}
declare void @llvm.assume(i1)

; MISSED: remark: {{.*}}assume-bundle on argument #0 'p' (64-byte): unchecked: nothing checks it
; MISSED-NOT: argument #1

; YAML:      --- !Missed
; YAML-NEXT: Pass: align-guard-audit
; YAML-NEXT: Name: Unchecked
; YAML-NEXT: Function: k
; YAML:      --- !Analysis
; YAML-NEXT: Pass: align-guard-audit
; YAML-NEXT: Name: Checked
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
