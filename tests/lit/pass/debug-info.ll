; With debug info, the site names the source variable and its location;
; the check branch and the failure call carry the assumption's !dbg. The
; descriptor also says where the promise was written: the function's line
; for a parameter, the assume's own location, which for an assume inlined
; from a helper (kern.h:20:10) is not where the check is (the call in
; @kern2, kern.c:9:5).
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; CHECK-DAG: ; packed @[[SRC:__alignguard_site[.0-9]*]] = [{{.*}}, c"argument #0 'src'", c"kern.c", i32 7, i32 14, i64 64, i64 0, {{.*}}c"kern.c", i32 7, i32 14 }]
; CHECK-DAG: ; packed @[[DST:__alignguard_site[.0-9]*]] = [{{.*}}, c"argument #1 'dst'", c"kern.c", i32 3, i32 0, i64 32, i64 0, {{.*}}c"kern.c", i32 3, i32 0 }]
; CHECK-DAG: ; packed @[[INL:__alignguard_site[.0-9]*]] = [{{.*}}c"kern.c", i32 9, i32 5, i64 16, i64 0, {{.*}}c"kern.h", i32 20, i32 10 }]

define void @kern2(float* %p) !dbg !20 {
; CHECK-LABEL: define void @kern2(
; CHECK:         call void @__alignguard_report_abort({{.*}}@[[INL]]
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 16) ], !dbg !23
  ret void, !dbg !24
}

define void @kern(float* %0, float* align 32 %1) !dbg !5 {
; CHECK-LABEL: define void @kern(
; CHECK:         br i1 {{%.*}}, label {{.*}}!dbg [[FNLOC:![0-9]+]]
; CHECK:         call void @__alignguard_report_abort({{.*}}@[[DST]]{{.*}}!dbg [[FNLOC]]
; CHECK:         br i1 {{%.*}}, label {{.*}}!dbg [[ASSUMELOC:![0-9]+]]
; CHECK:         call void @__alignguard_report_abort({{.*}}@[[SRC]]{{.*}}!dbg [[ASSUMELOC]]
  %src.addr = alloca float*, align 8
  store float* %0, float** %src.addr, align 8
  call void @llvm.dbg.declare(metadata float** %src.addr, metadata !10, metadata !DIExpression()), !dbg !12
  call void @llvm.dbg.value(metadata float* %1, metadata !11, metadata !DIExpression()), !dbg !12
  %v = load float*, float** %src.addr, align 8, !dbg !13
  call void @llvm.assume(i1 true) [ "align"(float* %v, i64 64) ], !dbg !13
  ret void, !dbg !13
}
; CHECK-DAG: [[FNLOC]] = !DILocation(line: 3, scope: [[SP:![0-9]+]])
; CHECK-DAG: [[ASSUMELOC]] = !DILocation(line: 7, column: 14, scope: [[SP]])

declare void @llvm.assume(i1)
declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "kern.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "kern", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !8, !8}
!8 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !9, size: 64)
!9 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!10 = !DILocalVariable(name: "src", arg: 1, scope: !5, file: !1, line: 3, type: !8)
!11 = !DILocalVariable(name: "dst", arg: 2, scope: !5, file: !1, line: 3, type: !8)
!12 = !DILocation(line: 3, column: 1, scope: !5)
!13 = !DILocation(line: 7, column: 14, scope: !5)
!20 = distinct !DISubprogram(name: "kern2", scope: !1, file: !1, line: 8, type: !6, scopeLine: 8, spFlags: DISPFlagDefinition, unit: !0)
!21 = !DIFile(filename: "kern.h", directory: "/src")
!22 = distinct !DISubprogram(name: "as_aligned", scope: !21, file: !21, line: 19, type: !6, scopeLine: 19, spFlags: DISPFlagDefinition, unit: !0)
!23 = !DILocation(line: 20, column: 10, scope: !22, inlinedAt: !24)
!24 = !DILocation(line: 9, column: 5, scope: !20)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
