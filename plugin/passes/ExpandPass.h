//===- ExpandPass.h - align-guard-expand ------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `align-guard-expand`: replaces each deferred place's marker call by its
// branch and failing side (transform/DeferredPlaces.h). Clang's pipeline runs
// it at the optimizer-last extension point (Plugin.cpp).
//
//   opt -passes='align-guard<deferred>,default<O2>,align-guard-expand'
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_EXPANDPASS_H
#define ALIGNGUARD_EXPANDPASS_H

#include "llvm/IR/PassManager.h"

namespace alignguard {

class ExpandPass : public llvm::PassInfoMixin<ExpandPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  void printPipeline(
      llvm::raw_ostream &OS,
      llvm::function_ref<llvm::StringRef(llvm::StringRef)> /*MapClassName*/) {
    OS << "align-guard-expand";
  }
};

} // namespace alignguard

#endif // ALIGNGUARD_EXPANDPASS_H
