// Promises in system headers (libstdc++'s std::vector and std::accumulate
// here) are left out of the listing and counted as `system` in the
// summary; `system` lists them. Whether a finding is a system header's is
// decided by the absolute path of its location's or its function's file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cd %S && %clang -O2 -g -Xclang -disable-llvm-passes -S -emit-llvm system-headers.cpp -o %t/nopasses.ll
// RUN: cd %S && %clang -O2 -g -S -emit-llvm system-headers.cpp -o %t/O2.ll
// RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %t/nopasses.ll | %python %tools/audit-json.py | FileCheck %s --check-prefixes=OWN,NOPASSES --implicit-check-not='{{^[a-z]+ [a-z-]+ ([a-z]+\*? )?(std|__gnu_cxx)::}}' --implicit-check-not='| system{{$}}'
// RUN: %opt-ag -passes='align-guard-audit<json>' -disable-output %t/nopasses.ll | %python %tools/audit-json.py | FileCheck %s --check-prefix=OWN --implicit-check-not='{{^[a-z]+ [a-z-]+ ([a-z]+\*? )?(std|__gnu_cxx)::}}' --implicit-check-not='| system{{$}}'
// RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %t/O2.ll | %python %tools/audit-json.py | FileCheck %s --check-prefixes=OWN,O2 --implicit-check-not='{{^[a-z]+ [a-z-]+ ([a-z]+\*? )?(std|__gnu_cxx)::}}' --implicit-check-not='| system{{$}}'
// RUN: %opt-ag -passes='align-guard-audit<all>' -disable-output %t/nopasses.ll 2>&1 | FileCheck %s --check-prefix=TABLE
// With `system`, libstdc++'s promises are listed (type alignments: with all).
// RUN: %opt-ag -passes='align-guard-audit<json;all;system>' -disable-output %t/nopasses.ll | %python %tools/audit-json.py | FileCheck %s --check-prefix=SYSTEM
// RUN: %opt-ag -passes='align-guard-audit<all;system>' -disable-output %t/nopasses.ll 2>&1 | FileCheck %s --check-prefix=SYSTEM-TABLE
// system-prefix=DIR: the vendored header's promise is a system one too.
// RUN: %opt-ag -passes='align-guard-audit<json;all;system-prefix=%S/Inputs/vendor>' -disable-output %t/nopasses.ll | %python %tools/audit-json.py | FileCheck %s --check-prefix=PREFIX --implicit-check-not=vendor_first
// RUN: %opt-ag -passes='align-guard-audit<json;all;system-prefix=%S/Inputs/vendor/;system>' -disable-output %t/nopasses.ll | %python %tools/audit-json.py | FileCheck %s --check-prefix=PREFIX-LISTED
// -print-pipeline-passes prints both back, and they parse again.
// RUN: %opt-ag -passes='align-guard-audit<system-prefix=/opt/sdk;json;system;system-prefix=/opt/b>' -print-pipeline-passes -disable-verify -disable-output %t/O2.ll > %t/pipeline.1
// RUN: %opt-ag -passes="$(cat %t/pipeline.1)" -print-pipeline-passes -disable-verify -disable-output %t/O2.ll > %t/pipeline.2
// RUN: diff %t/pipeline.1 %t/pipeline.2
// RUN: FileCheck %s --check-prefix=PIPELINE < %t/pipeline.1

#include <numeric>
#include <vector>

#include "Inputs/vendor/vendor.h"

// OWN: unchecked assume-bundle kernel(float const*, int) | argument #0 'p' | arg=0 align=64 offset=0 | system-headers.cpp:[[@LINE+2]]:
float kernel(const float *p, int n) {
  const float *a = static_cast<const float *>(__builtin_assume_aligned(p, 64));
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s + vendor_first(p);
}

// The vendored header is not a system one by default.
// NOPASSES: unchecked assume-bundle vendor_first(float const*) | argument #0 'p' | arg=0 align=32 offset=0 | {{.*}}vendor.h:
// The vector's reference: a type alignment, listed with `all`.
// NOPASSES: type param-attr total(std::vector<float, std::allocator<float>{{ ?}}> const&) | argument #0 'v'
float total(const std::vector<float> &v) {
  return std::accumulate(v.begin(), v.end(), 0.0f) + kernel(v.data(), 4);
}

// NOPASSES: summary total={{[0-9]+}} unchecked=2 {{.*}} system={{[1-9][0-9]*}}{{$}}
// O2: summary {{.*}} system=0

// TABLE: summary: {{[0-9]+}} assumptions: {{.*}} type; {{[1-9][0-9]*}} in system headers, not listed{{$}}

// SYSTEM: type {{.*}}std::accumulate{{.*}} | system
// SYSTEM: type param-attr std::vector<float, std::allocator<float>{{ ?}}>::begin() const | argument #0 'this' | {{.*}}/include/c++/{{.*}}stl_vector.h:{{[0-9]+}}:None | {{.*}} | system
// SYSTEM: summary total={{[1-9][0-9]+}} unchecked=2 {{.*}} system={{[1-9][0-9]*}}{{$}}
// SYSTEM-TABLE: summary: {{.*}} type; {{[1-9][0-9]*}} in system headers{{$}}

// PREFIX: unchecked assume-bundle kernel(float const*, int)
// PREFIX: summary {{.*}} unchecked=1 {{.*}} system={{[1-9][0-9]*}}
// PREFIX-LISTED: unchecked assume-bundle vendor_first(float const*) | {{.*}} | system
// PIPELINE: align-guard-audit<json;system;system-prefix=/opt/sdk;system-prefix=/opt/b>
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
