; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
; A promise above the largest alignment LLVM represents (2^32) is checked
; as written, and kept on the aligned path as 2^32: AlignmentFromAssumptions
; writes a bundle's alignment onto the accesses it covers as it is, and
; the verifier rejects an access above 2^32 ('huge alignment values are
; unsupported', LLVM 14 and 22; found by tests/fuzz, seed 168 on LLVM 14).
; RUN: %opt-ag -passes='align-guard<abort>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -passes='default<O2>,verify' -S %t.ll | FileCheck %s --check-prefix=O2
; RUN: %opt-ag -passes='align-guard<trap;deferred>' -S %s | %opt -passes='default<O2>,verify' -disable-output
; The legacy form, kept as a bundle, is capped the same way.
; RUN: %opt-ag -passes='align-guard<abort>,verify' -S %s | FileCheck %s --check-prefix=LEGACY

define void @f(<8 x double>* %p) {
  call void @llvm.assume(i1 true) [ "align"(<8 x double>* %p, i64 1099511627776) ]
  store <8 x double> zeroinitializer, <8 x double>* %p, align 8
  ret void
}

; CHECK-LABEL: define void @f(
; CHECK:         and i64 %ag.ptr, 1099511627775
; CHECK:         call void @llvm.assume(i1 true) [ "align"({{.*}} %p, i64 4294967296) ]
; O2-LABEL:    define void @f(
; O2:            store <8 x double> zeroinitializer, {{.*}} %p, align 4294967296

define void @g(i8* %q) {
  %i = ptrtoint i8* %q to i64
  %m = and i64 %i, 1099511627775
  %c = icmp eq i64 %m, 0
  call void @llvm.assume(i1 %c)
  store i8 0, i8* %q, align 1
  ret void
}

; LEGACY-LABEL: define void @g(
; LEGACY:         call void @llvm.assume(i1 true) [ "align"({{.*}} %q, i64 4294967296) ]

declare void @llvm.assume(i1)
