// The C library's own promise (aligned_alloc's result, which LLVM knows
// and relies on whatever the attributes say) is not the program's: the
// audit counts it as `system` and lists it only with `system`, with the
// reason align-guard leaves it alone; the program's own promise is listed.
// RUN: %clang -O2 -g -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %opt-ag -passes='align-guard-audit<json>' -disable-output %t.ll \
// RUN:   | %python %tools/audit-json.py | FileCheck %s --check-prefix=DEFAULT
// RUN: %opt-ag -passes='align-guard-audit<json;system>' -disable-output %t.ll \
// RUN:   | %python %tools/audit-json.py | FileCheck %s --check-prefix=SYSTEM
// RUN: %alignguard --plugin %plugin audit %t.ll | FileCheck %s --check-prefix=DRIVER
// DEFAULT-NOT: aligned_alloc
// DEFAULT: unchecked assume-bundle first | argument #0 'v'
// DEFAULT-NOT: aligned_alloc
// DEFAULT: summary total=1 unchecked=1 {{.*}} system=1
// SYSTEM: unchecked return-attr main | the pointer returned by 'aligned_alloc' | {{.*}} | the library's guarantee for 'aligned_alloc', which LLVM relies on whatever the attributes say: a check would be folded away | system
// DRIVER: total: 1 files, 1 assumptions: 1 unchecked, {{.*}}, 1 system (left out)
#include <stdlib.h>

static float first(float *v) {
  float *V = __builtin_assume_aligned(v, 32);
  return V[0];
}

int main(void) {
  float *p = aligned_alloc(64, 256);
  p[0] = 1;
  float r = first(p);
  free(p);
  return r != 1;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
