; Subjects on the IR kernel generators emit, which carries no debug info:
; the pointer is named by the argument it derives from and the field it was
; read from, as the generator's user knows it, never by a temporary's name.
; - MLIR expands each memref argument into allocated, aligned, offset,
;   sizes..., strides... and rebuilds the descriptor with insertvalue; after
;   -O2 the rebuilt descriptor is gone, and the C-interface wrapper
;   `_mlir_ciface_<name>` in the module says the function is MLIR's.
; - The wrapper receives a pointer to each descriptor and loads it whole;
;   after -O2, SROA splits the load: `%.unpack2` reads 8 bytes into it.
; - TVM's packed function reads its DLTensor* from its packed-argument array
;   (legacy: 8-byte TVMValues; tvm-ffi: 16-byte TVMFFIAny, the pointer at
;   8), and the data pointer from field 0 of the DLTensor.
; - Anything else: the bytes a pointer was read at, or its constant offset
;   from a named pointer.
; The audit and the guard name each promise the same way (the guard's site
; descriptors carry the name to the runtime's report).
; RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %s > %t.json
; RUN: %python %tools/audit-json.py %t.json | FileCheck %s
; RUN: %opt-ag -passes='align-guard,verify' -S %s | %python %tools/packed-sites.py | FileCheck %s --check-prefix=SITE

target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"

; DLPack's DLTensor, as TVM declares it (anonymous).
%0 = type { i8*, %1, i32, %2, i64*, i64*, i64 }
%1 = type { i32, i32 }
%2 = type { i8, i8, i16 }

; MLIR: two memrefs of rank 1 and an index between them.
; CHECK: unchecked assume-bundle expanded | argument #1 (aligned pointer of memref #0) | arg=1
; CHECK: unchecked assume-bundle expanded | argument #7 (aligned pointer of memref #1) | arg=7
; CHECK: unchecked assume-bundle expanded | argument #6 (allocated pointer of memref #1) | arg=6
; Each subject: a string global (a lone descriptor's) or a string of a
; packed table, as tests/tools/packed-sites.py decodes it.
; SITE-DAG: c"argument #7 (aligned pointer of memref #1){{(\\00)?}}"
define void @expanded(float* %0, float* %1, i64 %2, i64 %3, i64 %4, i64 %5, float* %6, float* %7, i64 %8, i64 %9, i64 %10) {
  %12 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } undef, float* %0, 0
  %13 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %12, float* %1, 1
  %14 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %13, i64 %2, 2
  %15 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %14, i64 %3, 3, 0
  %16 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %15, i64 %4, 4, 0
  %17 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } undef, float* %6, 0
  %18 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %17, float* %7, 1
  %19 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %18, i64 %8, 2
  %20 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %19, i64 %9, 3, 0
  %21 = insertvalue { float*, float*, i64, [1 x i64], [1 x i64] } %20, i64 %10, 4, 0
  %22 = extractvalue { float*, float*, i64, [1 x i64], [1 x i64] } %16, 1
  call void @llvm.assume(i1 true) [ "align"(float* %22, i64 32) ]
  %23 = extractvalue { float*, float*, i64, [1 x i64], [1 x i64] } %21, 1
  call void @llvm.assume(i1 true) [ "align"(float* %23, i64 32) ]
  %24 = extractvalue { float*, float*, i64, [1 x i64], [1 x i64] } %21, 0
  call void @llvm.assume(i1 true) [ "align"(float* %24, i64 16) ]
  ret void
}

; After -O2: the descriptors are gone; `_mlir_ciface_optimised` is MLIR's.
; CHECK: unchecked assume-bundle optimised | argument #1 (aligned pointer of memref #0) | arg=1
; CHECK: unchecked assume-bundle optimised | argument #6 (aligned pointer of memref #1) | arg=6
define void @optimised(float* %0, float* %1, i64 %2, i64 %3, i64 %4, float* %5, float* %6, i64 %7, i64 %8, i64 %9) {
  call void @llvm.assume(i1 true) [ "align"(float* %1, i64 32) ]
  call void @llvm.assume(i1 true) [ "align"(float* %6, i64 32) ]
  ret void
}

; The C interface, as MLIR emits it: the descriptor loaded whole.
; CHECK: unchecked assume-bundle _mlir_ciface_loaded | argument #0->aligned | arg=None
; CHECK: unchecked assume-bundle _mlir_ciface_loaded | argument #1->aligned | arg=None
; SITE-DAG: c"argument #1->aligned{{(\\00)?}}"
define void @_mlir_ciface_loaded({ float*, float*, i64, [1 x i64], [1 x i64] }* %0, { float*, float*, i64, [1 x i64], [1 x i64] }* %1) {
  %3 = load { float*, float*, i64, [1 x i64], [1 x i64] }, { float*, float*, i64, [1 x i64], [1 x i64] }* %0, align 8
  %4 = extractvalue { float*, float*, i64, [1 x i64], [1 x i64] } %3, 1
  %5 = load { float*, float*, i64, [1 x i64], [1 x i64] }, { float*, float*, i64, [1 x i64], [1 x i64] }* %1, align 8
  %6 = extractvalue { float*, float*, i64, [1 x i64], [1 x i64] } %5, 1
  call void @llvm.assume(i1 true) [ "align"(float* %4, i64 32) ]
  call void @llvm.assume(i1 true) [ "align"(float* %6, i64 32) ]
  ret void
}

; The C interface after -O2 (opaque pointers: a byte GEP; typed: a struct
; GEP), and the wrapper of @optimised.
; CHECK: unchecked assume-bundle _mlir_ciface_optimised | argument #0->aligned | arg=None
; CHECK: unchecked assume-bundle _mlir_ciface_optimised | argument #1->aligned | arg=None
; CHECK: unchecked assume-bundle _mlir_ciface_optimised | argument #1->allocated | arg=None
; SITE-DAG: c"argument #0->aligned{{(\\00)?}}"
define void @_mlir_ciface_optimised(i8* %0, { float*, float*, i64, [1 x i64], [1 x i64] }* %1) {
  %.elt1 = getelementptr inbounds i8, i8* %0, i64 8
  %3 = bitcast i8* %.elt1 to float**
  %.unpack2 = load float*, float** %3, align 8
  call void @llvm.assume(i1 true) [ "align"(float* %.unpack2, i64 32) ]
  %.elt12 = getelementptr inbounds { float*, float*, i64, [1 x i64], [1 x i64] }, { float*, float*, i64, [1 x i64], [1 x i64] }* %1, i64 0, i32 1
  %.unpack13 = load float*, float** %.elt12, align 8
  call void @llvm.assume(i1 true) [ "align"(float* %.unpack13, i64 32) ]
  %4 = bitcast { float*, float*, i64, [1 x i64], [1 x i64] }* %1 to float**
  %.unpack = load float*, float** %4, align 8
  call void @llvm.assume(i1 true) [ "align"(float* %.unpack, i64 16) ]
  ret void
}

; A descriptor passed by value.
; CHECK: unchecked assume-bundle by_value | argument #0.aligned | arg=None
define void @by_value({ float*, float*, i64, [1 x i64], [1 x i64] } %0) {
  %p = extractvalue { float*, float*, i64, [1 x i64], [1 x i64] } %0, 1
  call void @llvm.assume(i1 true) [ "align"(float* %p, i64 32) ]
  ret void
}

; TVM's legacy packed function: the DLTensor* of packed argument 0 has
; TVM's positional name `arg1`, and argument 1's is unnamed and read
; without a struct GEP, as optimised opaque-pointer IR reads it.
; CHECK: unchecked assume-bundle default_function | args[0]->data | arg=None
; CHECK: unchecked assume-bundle default_function | args[1]->data | arg=None
; CHECK: unchecked assume-bundle default_function | args[1]->shape | arg=None
; SITE-DAG: c"args[0]->data{{(\\00)?}}"
define i32 @default_function(i8* %args, i32* %arg_type_ids, i32 %num_args, i8* %out_ret_value, i32* %out_ret_tcode, i8* %resource_handle) {
  %1 = bitcast i8* %args to %0**
  %arg1 = load %0*, %0** %1, align 8
  %2 = getelementptr inbounds %0, %0* %arg1, i64 0, i32 0
  %3 = load i8*, i8** %2, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %3, i64 64) ]
  %4 = getelementptr inbounds i8, i8* %args, i64 8
  %5 = bitcast i8* %4 to i8**
  %6 = load i8*, i8** %5, align 8
  %7 = bitcast i8* %6 to i8**
  %8 = load i8*, i8** %7, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %8, i64 64) ]
  %9 = getelementptr inbounds i8, i8* %6, i64 24
  %10 = bitcast i8* %9 to i8**
  %11 = load i8*, i8** %10, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %11, i64 8) ]
  ret i32 0
}

; tvm-ffi's packed function: 16-byte TVMFFIAny, the DLTensor* at 8.
; CHECK: unchecked assume-bundle __tvm_ffi_vadd | args[1]->data | arg=None
define i32 @__tvm_ffi_vadd(i8* %self, i8* %args, i32 %num_args, i8* %result) {
  %1 = getelementptr inbounds i8, i8* %args, i64 24
  %2 = bitcast i8* %1 to i8**
  %3 = load i8*, i8** %2, align 8
  %4 = bitcast i8* %3 to i8**
  %5 = load i8*, i8** %4, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %5, i64 64) ]
  ret i32 0
}

; No known layout: the bytes it was read at; a constant offset from an
; argument. (The instruction's kind, last, is in subject-names.ll.)
; CHECK: unchecked assume-bundle unknown | *(argument #0 + 16) | arg=None
; CHECK: unchecked assume-bundle unknown | *(argument #0) | arg=None
; CHECK: unchecked assume-bundle unknown | argument #1 'q' + 8 | arg=None
define void @unknown(i8* %0, i8* %q) {
entry:
  %1 = getelementptr inbounds i8, i8* %0, i64 16
  %2 = bitcast i8* %1 to i8**
  %.unpack = load i8*, i8** %2, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %.unpack, i64 16) ]
  %3 = bitcast i8* %0 to i8**
  %4 = load i8*, i8** %3, align 8
  call void @llvm.assume(i1 true) [ "align"(i8* %4, i64 16) ]
  %5 = getelementptr inbounds i8, i8* %q, i64 8
  call void @llvm.assume(i1 true) [ "align"(i8* %5, i64 16) ]
  ret void
}

declare void @llvm.assume(i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
