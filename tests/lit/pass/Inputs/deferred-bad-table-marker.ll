; A marker whose checks name a packed table of two descriptors three times:
; the k-th check naming a table is its k-th element, and there is no third.
; align-guard-expand reports it (deferred.ll).
@__alignguard_site = private constant { [112 x i8], [4 x i8] } { [112 x i8] c"\03\00\00\00\02\00\00\00p\00\00\00r\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00@\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\03\00\00\00\02\00\00\008\00\00\00:\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00@\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", [4 x i8] c"f\00s\00" }, align 8

define void @f(i8* %p, i8* %q, i8* %r) {
  call void @alignguard.deferred.check(i32 0) [ "alignguard.checks"(i8* %p, i64 64, i64 0, i1 true, { [112 x i8], [4 x i8] }* @__alignguard_site, i8* %q, i64 64, i64 0, i1 true, { [112 x i8], [4 x i8] }* @__alignguard_site, i8* %r, i64 64, i64 0, i1 true, { [112 x i8], [4 x i8] }* @__alignguard_site) ]
  ret void
}

declare void @alignguard.deferred.check(i32)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
