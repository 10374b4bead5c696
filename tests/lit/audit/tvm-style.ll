; A kernel in TVM's packed-function shape: the exported wrapper unpacks
; DLTensor arguments, asserts ndim like TVM does, promises the loaded data
; pointers are 64-byte aligned (an "align" assume), and calls an internal
; compute function whose parameters carry `align 64`.
; Before align-guard the wrapper's promises are unchecked, and so are the
; compute function's parameters that rest on them; after it, the wrapper's
; are guarded and the compute function's are implied.
; RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %s > %t.before.json
; RUN: %python %tools/audit-json.py %t.before.json | FileCheck %s --check-prefix=BEFORE
; RUN: %opt-ag -passes='align-guard,align-guard-audit<json;all>' -disable-output %s > %t.after.json
; RUN: %python %tools/audit-json.py %t.after.json | FileCheck %s --check-prefix=AFTER
; RUN: not %opt-ag -passes='align-guard-audit<fail-on-unchecked>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=GATE
; RUN: %opt-ag -passes='align-guard,align-guard-audit<fail-on-unchecked>' -disable-output %s

; BEFORE: unchecked assume-bundle default_function | A->data | arg=None align=64 offset=0 | - | nothing checks it
; BEFORE: unchecked assume-bundle default_function | B->data | arg=None align=64 offset=0 | - | nothing checks it
; BEFORE: unchecked param-attr default_function_compute_ | argument #0 'A' | arg=0 align=64 offset=0 | - | the call in 'default_function' passes A->data, which is unchecked (rests on an unchecked assume)
; BEFORE: unchecked param-attr default_function_compute_ | argument #1 'B' | arg=1 align=64 offset=0
; BEFORE: summary total=4 unchecked=4

; AFTER: guarded assume-bundle default_function | A->data | arg=None align=64 offset=0 | - | None
; AFTER: guarded assume-bundle default_function | B->data | arg=None align=64 offset=0 | - | None
; AFTER: implied param-attr default_function_compute_ | argument #0 'A' | arg=0 align=64 offset=0 | - | None
; AFTER: implied param-attr default_function_compute_ | argument #1 'B' | arg=1 align=64 offset=0 | - | None
; AFTER: summary total=4 unchecked=0 guarded=2 checked=0 implied=2 unsupported=0

; GATE: error: align-guard-audit: 4 unchecked alignment assumptions in '{{.*}}tvm-style.ll'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%0 = type { i8*, %1, i32, %2, i64*, i64*, i64 }
%1 = type { i32, i32 }
%2 = type { i8, i8, i16 }

@__TVMAPISetLastError = linkonce dllexport local_unnamed_addr global void (i8*)* null, align 8
@.str = private constant [29 x i8] c"Assert fail: num_args == 2, \00", align 1

define dllexport i32 @default_function(i8* noalias nocapture readonly %args, i32* noalias nocapture readonly %arg_type_ids, i32 %num_args, i8* noalias nocapture readnone %out_ret_value, i32* noalias nocapture readnone %out_ret_tcode, i8* noalias nocapture readnone %resource_handle) {
entry:
  %0 = icmp eq i32 %num_args, 2
  br i1 %0, label %assert_end, label %assert_fail, !prof !0

assert_fail:
  %1 = load void (i8*)*, void (i8*)** @__TVMAPISetLastError, align 8
  tail call void %1(i8* getelementptr inbounds ([29 x i8], [29 x i8]* @.str, i64 0, i64 0))
  ret i32 -1

assert_end:
  %2 = bitcast i8* %args to %0**
  %A = load %0*, %0** %2, align 8
  %3 = getelementptr inbounds i8, i8* %args, i64 8
  %4 = bitcast i8* %3 to %0**
  %B = load %0*, %0** %4, align 8
  %5 = getelementptr inbounds %0, %0* %A, i64 0, i32 0
  %6 = load i8*, i8** %5, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %6, i64 64) ]
  %7 = getelementptr inbounds %0, %0* %A, i64 0, i32 2
  %8 = load i32, i32* %7, align 4
  %9 = icmp eq i32 %8, 1
  br i1 %9, label %assert_end2, label %assert_fail, !prof !0

assert_end2:
  %10 = getelementptr inbounds %0, %0* %B, i64 0, i32 0
  %11 = load i8*, i8** %10, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %11, i64 64) ]
  %12 = bitcast i8* %6 to float*
  %13 = bitcast i8* %11 to float*
  %14 = tail call fastcc i32 @default_function_compute_(float* %12, float* %13)
  ret i32 %14
}

define internal fastcc i32 @default_function_compute_(float* noalias align 64 %A, float* noalias align 64 %B) {
entry:
  br label %for_body

for_body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %for_body ]
  %pa = getelementptr inbounds float, float* %A, i64 %i
  %va = bitcast float* %pa to <8 x float>*
  %x = load <8 x float>, <8 x float>* %va, align 32
  %pb = getelementptr inbounds float, float* %B, i64 %i
  %vb = bitcast float* %pb to <8 x float>*
  store <8 x float> %x, <8 x float>* %vb, align 32
  %i.next = add nuw nsw i64 %i, 8
  %done = icmp eq i64 %i.next, 1024
  br i1 %done, label %exit, label %for_body

exit:
  ret i32 0
}

declare void @llvm.assume(i1)

!0 = !{!"branch_weights", i32 1048576, i32 1}
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
