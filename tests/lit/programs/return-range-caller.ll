; TVM's shape for align-guard<return=N>: a packed function that declares
; range(i32 -1, 1) on its return (tvm-ffi's 0 or -1), called by a function
; of the same module that tests for N. With return=-24 the kernel's failing
; check returns -24; had the range stayed [-1, 1), default<O2> would fold
; the caller's `rc == -24` to false and the misaligned call would come back
; as a success. The instrumented module goes through opt's default<O2>;
; the caller's test must survive, and a misaligned buffer must make the
; program say so and exit with -24 (232).
; REQUIRES: llvm-at-least-19
; RUN: %opt-ag -passes='align-guard<return=-24;entry=scale>' %s -o %t.ag.bc
; RUN: %opt -passes='default<O2>' %t.ag.bc -o %t.o2.bc
; RUN: %opt -S %t.o2.bc | FileCheck %s --check-prefix=IR
; RUN: %clang -Wno-override-module %t.o2.bc %rt -o %t.exe
; RUN: sh -c '%t.exe 0; echo "exit status $?"' 2>&1 | FileCheck %s --check-prefix=ALIGNED
; RUN: sh -c '%t.exe 4; echo "exit status $?"' 2>&1 | FileCheck %s --check-prefix=MISALIGNED

; The kernel may be inlined into the caller; either way the caller's
; refused path (its message) must still be there.
; IR-LABEL: define {{.*}}range(i32 -24, 1) i32 @scale(
; IR-LABEL: define {{.*}}i32 @run(
; IR:         @refused
; IR-LABEL: define {{.*}}i32 @main(

; ALIGNED:      run: rc 0
; ALIGNED-NEXT: exit status 0

; MISALIGNED:      alignguard: scale: argument #0 'data' = 0x{{[0-9a-f]+}} is 4-byte aligned, not 64-byte aligned (4 bytes past a boundary)
; MISALIGNED-NEXT: run: scale refused the buffer, rc -24
; MISALIGNED-NEXT: exit status 232

@refused = private constant [38 x i8] c"run: scale refused the buffer, rc -24\00"
@ok = private constant [10 x i8] c"run: rc 0\00"

; data[i] *= 2 for i < n; -1 (TVM's error code) for a negative n.
define noundef range(i32 -1, 1) i32 @scale(ptr noalias align 64 %data, i64 %n) {
entry:
  %bad.n = icmp slt i64 %n, 0
  br i1 %bad.n, label %error, label %loop.check

error:
  ret i32 -1

loop.check:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %loop.check ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr %data, i64 %i
  %x = load float, ptr %p, align 4
  %y = fmul float %x, 2.0
  store float %y, ptr %p, align 4
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret i32 0
}

; The host side of the same module: TVM's own callers test the code.
define i32 @run(ptr %buf, i64 %offset) {
entry:
  %data = getelementptr inbounds i8, ptr %buf, i64 %offset
  %rc = call i32 @scale(ptr %data, i64 16)
  %is.refused = icmp eq i32 %rc, -24
  br i1 %is.refused, label %refused, label %ran

refused:
  %r1 = call i32 @puts(ptr @refused)
  ret i32 -24

ran:
  %r2 = call i32 @puts(ptr @ok)
  ret i32 %rc
}

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %buf = alloca [128 x i8], align 64
  call void @llvm.memset.p0.i64(ptr align 64 %buf, i8 0, i64 128, i1 false)
  %arg1.slot = getelementptr inbounds ptr, ptr %argv, i64 1
  %arg1 = load ptr, ptr %arg1.slot, align 8
  %offset32 = call i32 @atoi(ptr %arg1)
  %offset = sext i32 %offset32 to i64
  %r = call i32 @run(ptr %buf, i64 %offset)
  ret i32 %r
}

declare i32 @puts(ptr)
declare i32 @atoi(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
; SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
