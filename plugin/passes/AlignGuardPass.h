//===- AlignGuardPass.h - Turn alignment promises into checks ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `align-guard` module pass. Before:
//
//   define void @k(ptr align 64 %b) {
//     call void @llvm.assume(i1 true) ["align"(ptr %a, i64 32)]
//
// After (action abort):
//
//   define void @k(ptr %b) {                    ; attribute becomes a check
//     %bad = icmp ne (and (ptrtoint %b), 63), 0
//     br i1 %bad, label %fail, label %ok, !prof !unlikely
//   fail:
//     call void @__alignguard_report_abort(ptr @site, i64 %bi, i64 64, i64 0)
//     unreachable
//   ok:                                         ; the promise, now guarded
//     call void @llvm.assume(i1 true) ["align"(ptr %b, i64 64)]
//
// The assumption moves below its check so the optimiser cannot fold the check
// away with the very promise it guards; the aligned path keeps the promise.
// Actions: abort, trap, recover, return=N, fallback (Options.h); with
// `accesses`, over-aligned accesses are checked too (AccessPlacement.h).
//
//   opt -load-pass-plugin=AlignGuard.so -passes='align-guard<abort>,verify'
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ALIGNGUARDPASS_H
#define ALIGNGUARD_ALIGNGUARDPASS_H

#include "CheckPlan.h"
#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace llvm {
class OptimizationRemarkEmitter;
} // namespace llvm

namespace alignguard {

class AlignGuardPass : public llvm::PassInfoMixin<AlignGuardPass> {
public:
  explicit AlignGuardPass(AlignGuardOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  /// Instrument optnone functions too: clang -O0 marks every function so.
  static bool isRequired() { return true; }
  /// Prints `align-guard<...>` for -print-pipeline-passes, in the form the
  /// pipeline parser reads back (the class name is no pass name to it).
  void printPipeline(
      llvm::raw_ostream &OS,
      llvm::function_ref<llvm::StringRef(llvm::StringRef)> /*MapClassName*/) {
    OS << "align-guard<";
    printAlignGuardOptions(OS, Opts);
    OS << '>';
  }

private:
  AlignGuardOptions Opts;
};

/// Tells the user what Plan leaves out and where it could not use the
/// Requested action: warnings for what needs attention, remarks for the
/// rest (-pass-remarks=align-guard).
void reportPlan(const CheckPlan &Plan, llvm::OptimizationRemarkEmitter &ORE,
                FailureAction Requested);

} // namespace alignguard

#endif // ALIGNGUARD_ALIGNGUARDPASS_H
