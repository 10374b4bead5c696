// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The pipeline on the clang command line, on every major: `-mllvm
// -alignguard-pipeline=...` is used, and wins over $ALIGNGUARD_PIPELINE;
// empty runs nothing; a bad one fails the compile naming the option. LLVM 22's
// clang loads -fpass-plugin plugins before it reads -mllvm; before 22 it reads
// -mllvm first and rejects the option as unknown unless -fplugin= has loaded
// the plugin already. %clang-mllvm loads the plugin with the arguments
// alignguard-clang --alignguard-print-plugin-args gives (plugin-args.test).
// RUN: %clang-mllvm -O1 -S -emit-llvm %s -o - \
// RUN:   -mllvm -alignguard-pipeline='align-guard<trap>' | FileCheck %s --check-prefix=TRAP
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-mllvm -O1 -S -emit-llvm %s -o - \
// RUN:   -mllvm -alignguard-pipeline='align-guard<trap>' | FileCheck %s --check-prefix=TRAP
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-mllvm -O1 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=RECOVER
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %clang-mllvm -O1 -S -emit-llvm %s -o - \
// RUN:   -mllvm -alignguard-pipeline= | FileCheck %s --check-prefix=NONE
// RUN: not %clang-mllvm -O1 -S -emit-llvm %s -o /dev/null \
// RUN:   -mllvm -alignguard-pipeline='align-guard<trapp>' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %clang-mllvm -O1 -S -emit-llvm %s -o /dev/null \
// RUN:   -mllvm -alignguard-pipeline='align-gaurd' 2>&1 | FileCheck %s --check-prefix=BAD-NAME
//
// The wrapper passes its flags the same way, and so does its launcher mode
// (alignguard_instrument()'s launcher), whatever the environment says.
// RUN: env ALIGNGUARD_PLUGIN=%plugin ALIGNGUARD_PIPELINE='align-guard<recover>' \
// RUN:   %alignguard-clang --alignguard=trap -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=TRAP
// RUN: env ALIGNGUARD_PIPELINE='align-guard<recover>' %alignguard-clang --alignguard-launch \
// RUN:   %clang-ag --alignguard=trap -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=TRAP
// RUN: env ALIGNGUARD_PIPELINE='align-guard<trap>' %alignguard-clang --alignguard-launch \
// RUN:   %clang-ag --alignguard=recover -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=RECOVER

// TRAP-LABEL: define {{.*}}@first(
// TRAP: call void @llvm.trap()
// TRAP-NOT: __alignguard_report
// RECOVER-LABEL: define {{.*}}@first(
// RECOVER: call void @__alignguard_report(
// NONE-LABEL: define {{.*}}@first(
// NONE-NOT: alignguard
// BAD: error: invalid align-guard pass parameter 'trapp'
// BAD-NAME: error: -alignguard-pipeline='align-gaurd': unknown pass name 'align-gaurd'
float first(float *v) {
  float *V = __builtin_assume_aligned(v, 32);
  return V[0];
}
