// The 7-line C++ example of the audit gate: a kernel that promises
// alignment with __builtin_assume_aligned and uses std::vector and
// std::accumulate. Its IR holds dozens of promises of libstdc++'s inline
// functions and reference parameters (type alignments, system headers);
// the audit lists the kernel's own promise only, and a build with the
// plugin checks that promise only.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -x c++ -std=c++17 -O2 -g -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t/k.ll
// RUN: %alignguard --plugin %plugin audit %t/k.ll | FileCheck %s --check-prefix=AUDIT
// RUN: %alignguard --plugin %plugin audit --all --include-type --include-system %t/k.ll \
// RUN:   | FileCheck %s --check-prefix=EVERYTHING
// RUN: %clang-ag -x c++ -std=c++17 -O2 -g -S -emit-llvm %s -o %t/k.checked.ll
// RUN: FileCheck %s --check-prefix=BUILD < %t/k.checked.ll
// AUDIT:      FILE {{.*}}REASON
// AUDIT-NEXT: {{.*}}k.ll {{ *}}unchecked {{ *}}assume-bundle {{ *}}kernel(std::
// AUDIT-EMPTY:
// AUDIT:      total: 1 files, {{[0-9]+}} assumptions: 1 unchecked, 0 guarded, 0 checked, 0 implied, 0 unsupported, 0 suppressed
// EVERYTHING: type {{ *}}param-attr
// BUILD-COUNT-1: call void @__alignguard_report_abort(
// BUILD-NOT: call void @__alignguard_report_abort(
#include <numeric>
#include <vector>
float kernel(std::vector<float> &v, float k) {
  float *p = static_cast<float *>(__builtin_assume_aligned(v.data(), 64));
  for (std::size_t i = 0; i < v.size(); ++i) p[i] *= k;
  return std::accumulate(v.begin(), v.end(), 0.0f);
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
