//===- ReturnContract.cpp - Let an entry point's contract admit N ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ReturnContract.h"

#include "Compat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumReturnContracts,
          "Return contracts widened or dropped to admit return=N");

namespace alignguard {
namespace {

/// The `range` return attribute in AL, widened to hold N (dropped when the
/// smallest range holding both is every value). True when it changed.
bool admitInRangeAttr(LLVMContext &Ctx, AttributeList &AL, const APInt &N) {
  std::optional<ConstantRange> R = compat::returnRangeAttr(AL);
  if (!R || R->contains(N))
    return false;
  ConstantRange Wide = R->unionWith(ConstantRange(N));
  AL = compat::withReturnRangeAttr(
      Ctx, AL,
      Wide.isFullSet() ? std::nullopt : std::optional<ConstantRange>(Wide));
  return true;
}

/// The promises in AL about the returned value, made to admit N: the
/// `range` return attribute widened, and `returned` dropped from the
/// parameter that had it (the function now returns N, not that argument).
/// True when AL changed.
bool admitInAttributes(LLVMContext &Ctx, AttributeList &AL, unsigned NumArgs,
                       const APInt &N) {
  bool Changed = admitInRangeAttr(Ctx, AL, N);
  for (unsigned ArgNo = 0; ArgNo != NumArgs; ++ArgNo)
    if (AL.hasParamAttr(ArgNo, Attribute::Returned)) {
      AL = AL.removeParamAttribute(Ctx, ArgNo, Attribute::Returned);
      Changed = true;
    }
  return Changed;
}

/// `!range` on a call: a list of ranges, N added as one more (merged with
/// its neighbours; dropped when they then cover every value).
bool admitInRangeMetadata(Instruction &I, const APInt &N) {
  MDNode *Ranges = I.getMetadata(LLVMContext::MD_range);
  if (!Ranges)
    return false;
  auto Bound = [&](unsigned Op) {
    return mdconst::extract<ConstantInt>(Ranges->getOperand(Op))->getValue();
  };
  for (unsigned Op = 0, E = Ranges->getNumOperands(); Op + 1 < E; Op += 2)
    if (ConstantRange(Bound(Op), Bound(Op + 1)).contains(N))
      return false;
  MDNode *JustN = MDBuilder(I.getContext()).createRange(N, N + 1);
  I.setMetadata(LLVMContext::MD_range,
                MDNode::getMostGenericRange(Ranges, JustN));
  return true;
}

/// The calls of F: direct, or through a cast of F (typed pointers).
SmallVector<CallBase *, 8> callsOf(Function &F) {
  SmallVector<CallBase *, 8> Calls;
  SmallVector<Value *, 4> Callees{&F};
  while (!Callees.empty()) {
    Value *Callee = Callees.pop_back_val();
    for (User *U : Callee->users()) {
      if (auto *CE = dyn_cast<ConstantExpr>(U)) {
        if (CE->isCast())
          Callees.push_back(CE);
        continue;
      }
      auto *CB = dyn_cast<CallBase>(U);
      if (CB && CB->getCalledOperand() == Callee &&
          CB->getType() == F.getReturnType())
        Calls.push_back(CB);
    }
  }
  return Calls;
}

} // namespace

unsigned admitReturnValue(Function &F, const ConstantInt &N) {
  assert(N.getType() == F.getReturnType() && "N is what F returns");
  LLVMContext &Ctx = F.getContext();
  const APInt &Value = N.getValue();
  unsigned Changed = 0;
  AttributeList Attrs = F.getAttributes();
  if (admitInAttributes(Ctx, Attrs, F.arg_size(), Value)) {
    F.setAttributes(Attrs);
    ++Changed;
  }
  for (CallBase *CB : callsOf(F)) {
    AttributeList CallAttrs = CB->getAttributes();
    if (admitInAttributes(Ctx, CallAttrs, CB->arg_size(), Value)) {
      CB->setAttributes(CallAttrs);
      ++Changed;
    }
    Changed += admitInRangeMetadata(*CB, Value);
  }
  NumReturnContracts += Changed;
  return Changed;
}

} // namespace alignguard
