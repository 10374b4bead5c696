//===- ExpandPass.cpp - align-guard-expand
//---------------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExpandPass.h"

#include "DeferredPlaces.h"

using namespace llvm;

namespace alignguard {

PreservedAnalyses ExpandPass::run(Module &M, ModuleAnalysisManager &) {
  return expandDeferredChecks(M) ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
}

} // namespace alignguard
