//===- AssumeBundles.cpp - Rewriting an assume's bundles
//-------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "AssumeBundles.h"

#include "Compat.h"

#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace alignguard {

/// True when Keep holds exactly Assume's bundles, in their order.
static bool sameBundles(const CallInst &Assume,
                        ArrayRef<OperandBundleDef> Keep) {
  if (Keep.size() != Assume.getNumOperandBundles())
    return false;
  for (unsigned I = 0, E = Keep.size(); I != E; ++I) {
    OperandBundleUse Old = Assume.getOperandBundleAt(I);
    if (Old.getTagName() != Keep[I].getTag() ||
        !equal(Old.Inputs, Keep[I].inputs()))
      return false;
  }
  return true;
}

CallInst *replaceAssumeBundles(CallInst &Assume,
                               ArrayRef<OperandBundleDef> Keep,
                               Value *Condition,
                               SmallVectorImpl<Instruction *> *Dead) {
  if (Condition)
    Assume.setArgOperand(0, Condition);
  bool CondTrue =
      PatternMatch::match(Assume.getArgOperand(0), PatternMatch::m_One());
  CallInst *Kept = nullptr;
  if (sameBundles(Assume, Keep)) {
    if (!Keep.empty() || !CondTrue)
      return &Assume;
  } else if (!Keep.empty() || !CondTrue) {
    Kept = compat::cloneCallWithBundles(&Assume, Keep);
    Kept->copyMetadata(Assume);
  }
  if (Dead)
    Dead->push_back(&Assume);
  else
    Assume.eraseFromParent();
  return Kept;
}

} // namespace alignguard
