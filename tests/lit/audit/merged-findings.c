// Identical findings are one finding with its number of occurrences: at
// -O2 the vectoriser splits the loop's load and store of `o` into accesses
// of alignments 64, 16 and 32 (by the vector's place in the unrolled
// body), each one for the load and one for the store; the same row used
// to be listed twice for each. The summary still counts every promise.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cd %S && %clang -O2 -g -S -emit-llvm merged-findings.c -o %t/k.ll
// RUN: %opt-ag -passes='align-guard-audit<json>' -disable-output %t/k.ll > %t/k.json
// RUN: %python %tools/audit-json.py %t/k.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t/k.json
// RUN: %opt-ag -passes='align-guard-audit' -disable-output %t/k.ll 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: %alignguard --plugin %plugin audit --sarif %t/k.ll > %t/k.sarif
// RUN: %python %tools/check-sarif.py %t/k.sarif | FileCheck %s --check-prefix=SARIF
// RUN: FileCheck %s --check-prefix=SARIF-FIELDS < %t/k.sarif
// The SARIF results carry the JSON findings' fingerprints, in order.
// RUN: %python %tools/audit-json.py --fingerprints %t/k.json | cut -d' ' -f1 > %t/json.fp
// RUN: %python %tools/check-sarif.py --fingerprints %t/k.sarif | cut -d' ' -f1 > %t/sarif.fp
// RUN: diff %t/json.fp %t/sarif.fp
// RUN: FileCheck %s --check-prefix=FP < %t/json.fp

// CHECK: unchecked assume-bundle scale | argument #0 'out' | arg=0 align=64 offset=0 | merged-findings.c:[[@LINE+3]]:{{[0-9]+}} | nothing checks it{{$}}
// CHECK: unchecked access scale | argument #0 'out' | arg=0 align={{[0-9]+}} offset=0 | merged-findings.c:[[@LINE+4]]:{{[0-9]+}} | rests on an unchecked assume at merged-findings.c:[[@LINE+2]] | x2
void scale(float *out, int n) {
  float *o = __builtin_assume_aligned(out, 64);
  for (int i = 0; i < n; ++i)
    o[i] = o[i] * 2.0f;
}
// CHECK: summary total=[[TOTAL:[0-9]+]] unchecked=[[TOTAL]] {{.*}} system=0

// JSON: "alignguard_audit": 1,
// JSON-NEXT: "version": "{{[0-9]+\.[0-9]+\.[0-9]+}}",
// JSON: "kind": "access",
// JSON: "path": "{{/.*}}/merged-findings.c",
// JSON-NEXT: "system": false,
// JSON-NEXT: "listed_when": [],
// JSON-NEXT: "fingerprint": "{{([0-9a-f]{16})}}",
// JSON-NEXT: "occurrences": 2,
// JSON-NEXT: "rule": "alignguard/unchecked-assumption",
// JSON-NEXT: "message": "access in 'scale': argument #0 'out' is promised to be {{[0-9]+}}-byte aligned; unchecked: rests on an unchecked assume at merged-findings.c:{{[0-9]+}}"
// JSON: "rules": [
// JSON-NEXT: {
// JSON-NEXT: "defaultConfiguration": {
// JSON-NEXT: "level": "warning"
// JSON-NEXT: },
// JSON-NEXT: "fullDescription": {
// JSON: "helpUri": "file://{{.*}}/docs/audit.md#statuses",
// JSON-NEXT: "id": "alignguard/unchecked-assumption",
// JSON-NEXT: "name": "UncheckedAssumption",

// TABLE: unchecked  assume-bundle  scale  argument #0 'out'  64 {{.*}}merged-findings.c:{{[0-9]+}}:{{[0-9]+}}  {{ *}}nothing checks it
// TABLE: unchecked  access         scale  argument #0 'out'  {{[0-9]+}} {{.*}}merged-findings.c:{{[0-9]+}}:{{[0-9]+}} (x2)  rests on
// TABLE: summary: [[N:[0-9]+]] assumptions: [[N]] unchecked,

// SARIF: alignguard/unchecked-assumption warning file://{{.*}}/merged-findings.c:{{[0-9]+}}:{{[0-9]+}} | assume-bundle in 'scale': argument #0 'out' is promised to be 64-byte aligned; unchecked: nothing checks it{{$}}
// SARIF: alignguard/unchecked-assumption warning file://{{.*}}/merged-findings.c:{{[0-9]+}}:{{[0-9]+}} | access in 'scale': {{.*}} | x2

// SARIF-FIELDS: "name": "AlignGuard",
// SARIF-FIELDS-NEXT: "version": "{{[0-9]+\.[0-9]+\.[0-9]+}}",
// SARIF-FIELDS-NEXT: "semanticVersion": "{{[0-9]+\.[0-9]+\.[0-9]+}}",
// SARIF-FIELDS: "informationUri": "file://{{.*}}/docs/audit.md"
// SARIF-FIELDS: "invocations": [
// SARIF-FIELDS-NEXT: {
// SARIF-FIELDS-NEXT: "executionSuccessful": true
// SARIF-FIELDS: "partialFingerprints": {
// SARIF-FIELDS-NEXT: "alignguard/v1": "{{([0-9a-f]{16})}}"
// SARIF-FIELDS: "occurrenceCount": 2

// FP: {{^([0-9a-f]{16})$}}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
