//===- GuardMarking.cpp - align-guard's marks, written
//---------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "GuardMarking.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace alignguard {

static void recordVersion(Module &M) {
  if (M.getNamedMetadata(GuardVersionMDName))
    return;
  LLVMContext &Ctx = M.getContext();
  M.getOrInsertNamedMetadata(GuardVersionMDName)
      ->addOperand(
          MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(
                               Type::getInt32Ty(Ctx), GuardContractVersion))));
}

void writeGuardNote(Instruction &I, const GuardNote &N) {
  LLVMContext &Ctx = I.getContext();
  SmallVector<Metadata *, 3> Notes;
  if (N.MadeFrom)
    Notes.push_back(MDString::get(Ctx, promiseKindName(*N.MadeFrom)));
  if (N.Placement && *N.Placement != CheckPlacement::AtPromise)
    Notes.push_back(MDString::get(Ctx, checkPlacementName(*N.Placement)));
  if (!N.Downgrade.empty())
    Notes.push_back(MDString::get(Ctx, N.Downgrade));
  I.setMetadata(GuardedMDName, MDNode::get(Ctx, Notes));
  if (Module *M = I.getModule())
    recordVersion(*M);
}

NoSanitizeMarker::NoSanitizeMarker(LLVMContext &Ctx)
    : Kind(Ctx.getMDKindID("nosanitize")), Empty(MDNode::get(Ctx, {})) {}

void markNoSanitize(Instruction *I) { NoSanitizeMarker(I->getContext())(I); }

void appendDeferredCheck(std::vector<Value *> &Bundle,
                         const DeferredCheckOperands &C) {
  Bundle.insert(Bundle.end(),
                {C.Pointer, C.Alignment, C.Offset, C.Guard, C.Site});
}

} // namespace alignguard
