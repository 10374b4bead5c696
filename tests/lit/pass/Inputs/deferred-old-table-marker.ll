; A marker whose two checks name a table of two descriptors in the layout
; before packed tables (an array of version 2 structs, what align-guard
; wrote before descriptor version 3): neither a table nor one descriptor
; now. align-guard-expand reports it (deferred.ll).
@__alignguard_site = private constant [2 x { i32, i32, i8*, i8*, i8*, i32, i32, i64, i64, i8*, i32, i32 }] [{ i32, i32, i8*, i8*, i8*, i32, i32, i64, i64, i8*, i32, i32 } { i32 2, i32 2, i8* null, i8* null, i8* null, i32 0, i32 0, i64 64, i64 0, i8* null, i32 0, i32 0 }, { i32, i32, i8*, i8*, i8*, i32, i32, i64, i64, i8*, i32, i32 } { i32 2, i32 2, i8* null, i8* null, i8* null, i32 0, i32 0, i64 64, i64 0, i8* null, i32 0, i32 0 }]

define void @f(i8* %p, i8* %q) {
  call void @alignguard.deferred.check(i32 0) [ "alignguard.checks"(i8* %p, i64 64, i64 0, i1 true, [2 x { i32, i32, i8*, i8*, i8*, i32, i32, i64, i64, i8*, i32, i32 }]* @__alignguard_site, i8* %q, i64 64, i64 0, i1 true, [2 x { i32, i32, i8*, i8*, i8*, i32, i32, i64, i64, i8*, i32, i32 }]* @__alignguard_site) ]
  ret void
}

declare void @alignguard.deferred.check(i32)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
