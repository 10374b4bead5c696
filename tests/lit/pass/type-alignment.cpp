// What counts as a promise (README, "What is checked"): on a C++
// translation unit with std::vector, references, `this`, a reference return
// and one __builtin_assume_aligned kernel, align-guard checks the kernel's
// promise only and the audit lists that one only; the `align alignof(T)
// dereferenceable(sizeof(T))` clang puts on every reference is the type's
// alignment, counted as `type` in the summary and listed only with `all`.
// `type-alignment` checks and lists the references too (UBSan-like), and
// `align 1` (a `const char &`) is neither checked nor listed either way.
//
// RUN: %clang -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: %clang -O2 -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.O2.ll
// RUN: grep -q '@_Z6lengthRK5Point(.* nonnull align 8 dereferenceable(16) ' %t.O0.ll
// RUN: grep -q '@_Z10first_charRKc(.* nonnull align 1 dereferenceable(1) ' %t.O0.ll
//
// The guard: one check, the kernel's.
// RUN: %opt-ag -passes='align-guard,verify' -pass-remarks=align-guard -S %t.O0.ll -o %t.g0.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK --implicit-check-not=checked
// RUN: %opt-ag -passes='align-guard,verify' -pass-remarks=align-guard -S %t.O2.ll -o %t.g2.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK --implicit-check-not=checked
// RUN: grep -c '^alignguard.fail' %t.g0.ll | FileCheck %s --check-prefix=ONE
// RUN: grep -c '^alignguard.fail' %t.g2.ll | FileCheck %s --check-prefix=ONE
// REMARK: remark: {{.*}}assume-bundle on {{.*}} checked at site 0
// ONE: {{^}}1{{$}}
//
// Through clang's pipeline at -O2 (the plugin runs at the pipeline start).
// RUN: env ALIGNGUARD_PIPELINE='align-guard' %clang-ag -O2 -S -emit-llvm %s -o %t.clang.ll
// RUN: grep -c 'call void @__alignguard_report_abort.thunk' %t.clang.ll | FileCheck %s --check-prefix=ONE
//
// The audit: the kernel's promise only; the references counted as `type`.
// RUN: %opt-ag -passes='align-guard-audit' -disable-output %t.O0.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUDIT
// RUN: %opt-ag -passes='align-guard-audit' -disable-output %t.O2.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUDIT
// AUDIT:      STATUS     KIND           FUNCTION
// AUDIT-NEXT: unchecked  assume-bundle  kernel  {{.*}}  64  {{.*}} nothing checks it
// AUDIT-NEXT: summary: [[N:[0-9]+]] assumptions: 1 unchecked, 0 guarded, 0 checked, 0 implied, 0 unsupported, 0 suppressed, {{[1-9][0-9]*}} type
//
// JSON, with `all`: the references listed as `type`, align 1 not at all.
// RUN: %opt-ag -passes='align-guard-audit<json;all>' -disable-output %t.O0.ll > %t.all.json
// RUN: %python %tools/audit-json.py %t.all.json
// RUN: FileCheck %s --check-prefix=ALL --implicit-check-not='"function": "first_char' < %t.all.json
// ALL:     "function": "length(Point const&)",
// ALL:     "subject": "argument #0{{.*}}",
// ALL:     "alignment": 8,
// ALL:     "status": "type",
// ALL-NEXT: "reason": "the alignment of a reference's type, not a kernel's promise; align-guard<type-alignment> checks it",
// ALL:     "type": {{[1-9][0-9]*}}
//
// type-alignment: the references are checked and listed as unchecked.
// RUN: %opt-ag -passes='align-guard<type-alignment>,verify' -S %t.O0.ll -o %t.t0.ll
// RUN: FileCheck %s --check-prefix=TYPE < %t.t0.ll
// RUN: %opt-ag -passes='align-guard-audit<json;type-alignment>' -disable-output %t.O0.ll \
// RUN:   | FileCheck %s --check-prefix=TYPEAUDIT --implicit-check-not='"function": "first_char'
// TYPE-LABEL: define {{.*}}@_Z6lengthRK5Point(
// TYPE:       alignguard.fail
// TYPE-LABEL: define {{.*}}@_Z10first_charRKc(
// TYPE-NOT:   alignguard.fail
// TYPE:       ret
// TYPE-LABEL: define {{.*}}@_ZN5Accum3addERK5Point(
// TYPE:       alignguard.fail
// TYPEAUDIT:  "function": "length(Point const&)",
// TYPEAUDIT:  "status": "unchecked",
// TYPEAUDIT:  "type": 0
#include <cstddef>
#include <vector>

struct Point {
  double x, y;
  double norm2() const { return x * x + y * y; }
};

double length(const Point &p) { return p.norm2(); }

double sum(const std::vector<float> &v) {
  double s = 0;
  for (float f : v)
    s += f;
  return s;
}

void scale(std::vector<Point> &ps, double k) {
  for (Point &p : ps) {
    p.x *= k;
    p.y *= k;
  }
}

const Point &pick(const std::vector<Point> &ps, std::size_t i) {
  return ps[i];
}

bool first_char(const char &c) { return c == 'a'; }

class Accum {
public:
  double total = 0;
  void add(const Point &p);
  double get() const { return total; }
};

void Accum::add(const Point &p) { total += p.x + get(); }

extern "C" void kernel(float *dst, const float *src, std::size_t n) {
  float *d = static_cast<float *>(__builtin_assume_aligned(dst, 64));
  for (std::size_t i = 0; i < n; ++i)
    d[i] = src[i] * 2;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
