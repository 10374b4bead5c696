// A legacy promise, __builtin_assume(p % 64 == 0) (an icmp assume, as
// older code and some generators write it), keeps its optimisation on the
// checked path: after align-guard the kept promise is an "align" bundle,
// which -O2 turns into the same aligned vector accesses as in the plain
// build. (Kept as the icmp, it folded to assume(true) against the check's
// own test and was gone before AlignmentFromAssumptions: align 4.)
// RUN: %clang -O2 -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='default<O2>' -S %t.ll | FileCheck %s --check-prefix=PLAIN
// RUN: %opt-ag -passes='align-guard,verify,default<O2>' -S %t.ll | FileCheck %s --check-prefix=GUARDED
// RUN: %opt-ag -passes='align-guard' -S %t.ll | FileCheck %s --check-prefix=KEPT
// PLAIN: load <4 x i32>, {{.*}}, align {{16|32|64}}
// GUARDED: call {{.*}}@__alignguard_report_abort.thunk{{[^(]*}}(
// GUARDED: load <4 x i32>, {{.*}}, align {{16|32|64}}
// KEPT: call void @llvm.assume(i1 true) [ "align"({{.*}} %{{.*}}, i64 64) ], !alignguard.guarded
#include <stdint.h>
void add_one(int *p, int n) {
  __builtin_assume(((uintptr_t)p % 64) == 0);
  for (int i = 0; i < n; ++i)
    p[i] += 1;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
