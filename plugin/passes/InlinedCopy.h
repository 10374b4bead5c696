//===- InlinedCopy.h - The module as the inliner leaves it ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// In IR before optimisation (`clang -O2 -Xclang -disable-llvm-passes`), a
// SIMD kernel's over-aligned accesses are in the wrappers it calls
// (_mm256_load_ps, Eigen's pload, Highway's Load): the kernel itself holds
// none, and its arguments reach them through stack slots. A build checks
// them once the inliner has put them into the kernel
// (InlinedAccessesPass.h). The audit, to list them in that form of IR too,
// looks at a copy of the module that LLVM's own inliner pipeline (-O2's,
// with the function simplification it runs on each function) has run on;
// the module itself is not changed.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_INLINEDCOPY_H
#define ALIGNGUARD_INLINEDCOPY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

#include <functional>
#include <memory>

namespace alignguard {

/// Whether an entry point of M (IsEntry) calls a function M defines that
/// the inliner may inline: only then can a copy show more.
bool hasInlinableCalls(
    const llvm::Module &M,
    llvm::function_ref<bool(const llvm::Function &)> IsEntry);

/// What a build adds to LLVM's pipelines (Plugin.cpp registers it), so that
/// the copy's pipeline checks the accesses the inliner brings in as a
/// build does (InlinedAccessesPass.h) and the copy shows what it makes.
using BuildExtensions = std::function<void(llvm::PassBuilder &)>;

/// A copy of M after LLVM's always-inliner and -O2 inliner pipeline, with
/// the analysis managers that made it (the audit asks them of the copy),
/// and Extend's extension points.
class InlinedCopy {
public:
  InlinedCopy(const llvm::Module &M, const BuildExtensions &Extend);
  llvm::Module &module() { return *Copy; }
  llvm::FunctionAnalysisManager &functionAnalyses() { return FAM; }

private:
  // Declared first, destroyed last: the analyses refer to its functions.
  std::unique_ptr<llvm::Module> Copy;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
};

} // namespace alignguard

#endif // ALIGNGUARD_INLINEDCOPY_H
