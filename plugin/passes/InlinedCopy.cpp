//===- InlinedCopy.cpp - The module as the inliner will leave it ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See InlinedCopy.h.
//
//===----------------------------------------------------------------------===//
#include "InlinedCopy.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace alignguard {

bool hasInlinableCalls(const Module &M,
                       function_ref<bool(const Function &)> IsEntry) {
  for (const Function &F : M) {
    if (F.isDeclaration() || !IsEntry(F))
      continue;
    for (const Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && !Callee->isInterposable() &&
              !Callee->hasFnAttribute(Attribute::NoInline))
            return true;
  }
  return false;
}

InlinedCopy::InlinedCopy(const Module &M, const BuildExtensions &Extend)
    : Copy(CloneModule(M)) {
  // A PassBuilder of its own: none of the plugin's extension points but
  // the ones Extend adds.
  PassBuilder PB;
  if (Extend)
    Extend(PB);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  MPM.addPass(AlwaysInlinerPass());
  MPM.addPass(
      PB.buildInlinerPipeline(OptimizationLevel::O2, ThinOrFullLTOPhase::None));
  MPM.run(*Copy, MAM);
}

} // namespace alignguard
