// Auditing a clang build: ALIGNGUARD_PIPELINE runs the audit in each
// compile; `%m` in output= names each translation unit's own file. The
// promises are clang's own: __builtin_assume_aligned (with and without an
// offset), an align_value parameter (an assume at -O0, see
// programs/align-value-param.c; an attribute from -O1 on), an assume_aligned function's result,
// and a struct field through debug info (b->data).
// RUN: rm -rf %t && mkdir -p %t
// RUN: cd %S && env ALIGNGUARD_PIPELINE='align-guard-audit<json;all;output=%t/%m.json>' %clang-ag -O1 -g -c clang-build.c -o %t/a.o
// RUN: cd %S && env ALIGNGUARD_PIPELINE='align-guard-audit<json;all;output=%t/%m.json>' %clang-ag -O0 -g -c Inputs/second-tu.c -o %t/b.o
// RUN: %python %tools/audit-json.py %t/clang-build.c.json | FileCheck %s
// RUN: %python %tools/audit-json.py %t/Inputs_second-tu.c.json | FileCheck %s --check-prefix=SECOND
// Instrumenting the same build: the assumes are guarded, the promise made
// by assume_aligned's callee stays unchecked.
// RUN: cd %S && env ALIGNGUARD_PIPELINE='align-guard,align-guard-audit<json;all;output=%t/guarded-%m.json>' %clang-ag -O1 -g -c clang-build.c -o %t/a2.o
// RUN: %python %tools/audit-json.py %t/guarded-clang-build.c.json | FileCheck %s --check-prefix=GUARDED

struct buf {
  int n;
  float *data;
};

void *aligned_scratch(void) __attribute__((assume_aligned(64)));
typedef float *__attribute__((align_value(32))) aligned_floats;

// CHECK: unchecked assume-bundle builtin | argument #0 'p' | arg=0 align=64 offset=0 | {{.*}}clang-build.c:[[@LINE+2]]:{{[0-9]+}} | nothing checks it
float builtin(float *p) {
  float *a = __builtin_assume_aligned(p, 64);
  return a[0];
}

// CHECK: unchecked assume-bundle with_offset | argument #0 'p' | arg=0 align=32 offset=4 | {{.*}}clang-build.c:[[@LINE+2]]
float with_offset(float *p) {
  float *a = __builtin_assume_aligned(p, 32, 4);
  return a[0];
}

// From -O1 on, clang states align_value as the parameter's `align` attribute.
// CHECK: unchecked param-attr value_param | argument #1 'y' | arg=1 align=32 offset=0 | {{.*}}clang-build.c:[[@LINE+1]]:None | promised by the callers of entry point 'value_param'
void value_param(int n, aligned_floats y) { y[n] = 0; }

// CHECK: unchecked return-attr returned | the pointer returned by 'aligned_scratch' | arg=None align=64 offset=0 | {{.*}}clang-build.c:[[@LINE+1]]
float returned(void) { return *(float *)aligned_scratch(); }

// The promise is on b->data (clang 14), or on the variable d that clang 22
// reloads it from; either names it for a reader.
// CHECK: unchecked assume-bundle field | {{b->data|'d'}} | arg=None align=16 offset=0 | {{.*}}clang-build.c:[[@LINE+2]]
float field(struct buf *b) {
  float *d = __builtin_assume_aligned(b->data, 16);
  return d[0];
}

// CHECK: summary total=5 unchecked=5
// SECOND: unchecked return-attr first | the pointer returned by 'scratch' | arg=None align=32
// SECOND: summary total=1 unchecked=1
// GUARDED: guarded assume-bundle builtin
// GUARDED: guarded assume-bundle with_offset
// GUARDED: guarded param-attr value_param
// GUARDED: guarded return-attr returned | the pointer returned by 'aligned_scratch'
// GUARDED: guarded assume-bundle field | {{b->data|'d'}}
// GUARDED: summary total=5 unchecked=0 guarded=5
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
