//===- AlignGuardAuditPass.h - List alignment promises and their checks ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `align-guard-audit` module pass changes nothing. For every alignment
// promise of the module (assume bundles, legacy icmp assumes, `align` on
// parameters and returns, over-aligned accesses on an entry's arguments) it
// reports whether anything checks it first:
//
//   guarded      a check align-guard inserted dominates it
//   checked      the code's own low-bits test dominates it (Halide asserts)
//   implied      an internal function's parameter that every call passes a
//                guarded, checked or implied pointer of at least that
//                alignment (TVM's compute function behind its wrapper)
//   unchecked    nothing does: the optimiser trusts the caller
//   unsupported  an odd promise, with the reason
//
// What is listed is decided once (AuditReport.h, decideListing and
// listedWhen): promises in system headers left out unless `system`,
// verified ones unless `all`, type alignments unless `all` or `type`,
// identical findings merged into one with its number of occurrences, each
// with its fingerprint and the parameters that list it (`listed_when`, which
// the alignguard driver applies to merged audits).
//
//   opt -load-pass-plugin=AlignGuard.so -passes='align-guard-audit<json;all>'
//       -disable-output kernel.ll
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ALIGNGUARDAUDITPASS_H
#define ALIGNGUARD_ALIGNGUARDAUDITPASS_H

#include "InlinedCopy.h"
#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace alignguard {

class AlignGuardAuditPass : public llvm::PassInfoMixin<AlignGuardAuditPass> {
public:
  /// Extend: what a build of Opts.Guard adds to the inliner's pipeline
  /// (Plugin.cpp), for the audit's copy of the module (InlinedCopy.h).
  explicit AlignGuardAuditPass(AuditOptions Opts, BuildExtensions Extend = {})
      : Opts(std::move(Opts)), Extend(std::move(Extend)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  /// Prints `align-guard-audit<...>` for -print-pipeline-passes, in the
  /// form the pipeline parser reads back (the class name is no pass name to
  /// it).
  void printPipeline(
      llvm::raw_ostream &OS,
      llvm::function_ref<llvm::StringRef(llvm::StringRef)> /*MapClassName*/) {
    OS << "align-guard-audit<";
    printAuditOptions(OS, Opts);
    OS << '>';
  }

private:
  AuditOptions Opts;
  BuildExtensions Extend;
};

} // namespace alignguard

#endif // ALIGNGUARD_ALIGNGUARDAUDITPASS_H
