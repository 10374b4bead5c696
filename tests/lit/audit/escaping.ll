; Names with quotes, backslashes and control characters stay valid JSON and
; SARIF (escaped by the JSON writer), and one line in the table.
; RUN: %opt-ag -passes='align-guard-audit<json>' -disable-output %s > %t.json
; RUN: %python %tools/audit-json.py %t.json | FileCheck %s --check-prefix=JSON
; RUN: FileCheck %s --check-prefix=RAW < %t.json
; RUN: %alignguard --plugin %plugin audit --sarif %s > %t.sarif
; RUN: %python %tools/check-sarif.py %t.sarif | FileCheck %s --check-prefix=SARIF
; RUN: %opt-ag -passes='align-guard-audit' -disable-output %s 2>&1 | FileCheck %s --check-prefix=TABLE

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

define void @"we\22ird\5Cname\0Aline"(i8* %"q\22uote\09tab") {
  call void @llvm.assume(i1 true) [ "align"(i8* %"q\22uote\09tab", i64 64) ]
  ret void
}
declare void @llvm.assume(i1)

; RAW: "function": "we\"ird\\name\nline"
; RAW: "subject": "argument #0 'q\"uote\ttab'"
; JSON: unchecked assume-bundle we"ird\name
; SARIF: alignguard/unchecked-assumption warning - | assume-bundle in 'we"ird\name
; TABLE: unchecked {{ *}}assume-bundle {{ *}}we"ird\name\x0aline {{ *}}argument #0 'q"uote\x09tab'
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
