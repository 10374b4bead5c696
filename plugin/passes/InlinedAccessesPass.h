//===- InlinedAccessesPass.h - Accesses checked before inlining -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// In clang's pipeline the over-aligned accesses of SIMD wrappers
// (_mm256_load_ps, Eigen's pload, Highway's Load, xsimd's load_aligned)
// reach an entry point only once the inliner has put them there; at
// pipeline start they are calls. The inliner then goes on to inline that
// entry point into its callers in the same translation unit (a test's
// main, a dispatcher), where its pointers are no longer arguments. This
// function pass runs at the scalar-optimizer-late extension point, the end
// of the function simplification pipeline that the inliner's walk of the
// call graph runs on a function once it has inlined into it (the
// arguments' pointers are values again, not stack slots of inlined
// wrappers), and before any of its callers is visited:
//
//   - with `accesses`, it checks the over-aligned accesses on an entry
//     point's arguments there (deferred, as align-guard<accesses-only>),
//     so that every copy the inliner makes afterwards carries the check;
//     where the checks go with a copy of the function (fallback's, or a
//     recover copy pipeline start made), it keeps the entry point out of
//     its callers instead (`noinline`), and the module-level run after
//     the inliners checks both;
//   - without, it warns once per entry point whose arguments such
//     accesses would need checked, naming the switch.
//
// It decides nothing of its own: the collector, the planner and the
// emitter are align-guard's (AlignGuardPass.h). What it leaves out is
// reported by the module-level run after the inliners.
//
//   opt -passes='cgscc(function(align-guard-inlined-accesses<accesses>))'
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_INLINEDACCESSESPASS_H
#define ALIGNGUARD_INLINEDACCESSESPASS_H

#include "EntryPoints.h"
#include "Options.h"
#include "Suppressions.h"

#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

#include <memory>

namespace alignguard {

class InlinedAccessesPass : public llvm::PassInfoMixin<InlinedAccessesPass> {
public:
  /// Report: warnings and remarks (false: the audit's copy of a module,
  /// InlinedCopy.h, whose build reports them itself).
  explicit InlinedAccessesPass(AlignGuardOptions Opts, bool Report = true);
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
  void printPipeline(
      llvm::raw_ostream &OS,
      llvm::function_ref<llvm::StringRef(llvm::StringRef)> /*MapClassName*/) {
    OS << "align-guard-inlined-accesses<";
    printAlignGuardOptions(OS, Opts);
    OS << '>';
  }

private:
  /// What the pass reads of the whole module, once per module.
  struct ModuleFacts {
    const llvm::Module *M = nullptr;
    /// A function of M when the facts were read: null once it is deleted
    /// (with its module, or earlier), when they are read again, so that a
    /// later module at M's address (a JIT host's next one) is never taken
    /// for M.
    llvm::WeakVH Anchor;
    std::unique_ptr<EntryPoints> Entries;
    std::unique_ptr<Suppressions> Suppressed;
    FailureAction Action = FailureAction::Abort;
    /// False when the module cannot be instrumented (a bad ignorelist, a
    /// clash with the runtime's hooks): the module-level run says why.
    bool Usable = false;
  };
  ModuleFacts &facts(llvm::Function &F);

  AlignGuardOptions Opts;
  bool Report;
  std::shared_ptr<ModuleFacts> Facts;
};

} // namespace alignguard

#endif // ALIGNGUARD_INLINEDACCESSESPASS_H
