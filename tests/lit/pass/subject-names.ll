; Reports name the pointer so a user can find it: debug variable, then IR
; name, then a description; through spill slots back to the argument; a
; pointer loaded from a struct argument's field; a constant offset from an
; argument (generated IR: subject-names-generated.ll); functions demangled;
; the kind of instruction last, with its article.
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

%struct.DLTensor = type { i8*, i32, i64* }
; TVM's DLTensor: an anonymous type, recognised by its shape.
%0 = type { i8*, %1, i32, %2, i64*, i64*, i64 }
%1 = type { i32, i32 }
%2 = type { i8, i8, i16 }
%pair = type { i8*, i8* }

; Each subject: a string global (a lone descriptor's) or a string of a
; packed table, as tests/tools/packed-sites.py decodes it.
; CHECK-DAG: c"argument #0{{(\\00)?}}"
; CHECK-DAG: c"tensor->data{{(\\00)?}}"
; CHECK-DAG: c"arg.B->data{{(\\00)?}}"
; CHECK-DAG: c"pair->field1{{(\\00)?}}"
; CHECK-DAG: c"'%local'{{(\\00)?}}"
; CHECK-DAG: c"argument #0 'p' + 8{{(\\00)?}}"
; CHECK-DAG: c"the result of an extractvalue{{(\\00)?}}"
; CHECK-DAG: c"the result of an inttoptr{{(\\00)?}}"
; CHECK-DAG: c"the result of a getelementptr{{(\\00)?}}"
; CHECK-DAG: c"Particle::step(float){{(\\00)?}}"
; CHECK-DAG: c"argument #1 'self'{{(\\00)?}}"

; SIMDe's load macro: the parameter goes through two spill slots.
define void @two_slots(float* %0) {
  %2 = alloca float*, align 8
  %3 = alloca i8*, align 8
  store float* %0, float** %2, align 8
  %4 = load float*, float** %2, align 8
  %5 = bitcast float* %4 to i8*
  store i8* %5, i8** %3, align 8
  %6 = load i8*, i8** %3, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %6, i64 16) ]
  ret void
}

define void @field(%struct.DLTensor* %tensor) {
  %slot = getelementptr inbounds %struct.DLTensor, %struct.DLTensor* %tensor, i32 0, i32 0
  %data = load i8*, i8** %slot, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %data, i64 64) ]
  ret void
}

define void @tvm_style(i8** %args) {
  %arg.B = load %0*, %0** bitcast (i8** @slot to %0**), align 8
  %field = getelementptr inbounds %0, %0* %arg.B, i64 0, i32 0
  %1 = load i8*, i8** %field, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %1, i64 64) ]
  ret void
}
@slot = external global i8*

define void @generic_field(%pair* %pair) {
  %f = getelementptr inbounds %pair, %pair* %pair, i32 0, i32 1
  %second = load i8*, i8** %f
  call void @llvm.assume(i1 true) [ "align"(i8* %second, i64 16) ]
  ret void
}

define void @named(i8* %p) {
  %local = getelementptr i8, i8* %p, i64 4
  call void @llvm.assume(i1 true) [ "align"(i8* %local, i64 8) ]
  %1 = getelementptr i8, i8* %p, i64 8
  call void @llvm.assume(i1 true) [ "align"(i8* %1, i64 8) ]
  ret void
}

define void @article(i64 %n) {
  %pair = call { i8*, i64 } @make()
  %1 = extractvalue { i8*, i64 } %pair, 0
  call void @llvm.assume(i1 true) [ "align"(i8* %1, i64 16) ]
  %2 = inttoptr i64 %n to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %2, i64 16) ]
  %3 = getelementptr i8, i8* %2, i64 %n
  call void @llvm.assume(i1 true) [ "align"(i8* %3, i64 16) ]
  ret void
}
declare { i8*, i64 } @make()

define void @_ZN8Particle4stepEf(i8* %this, i8* align 32 %self) {
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
