//===- GuardMetadata.cpp - The contract between align-guard and the audit -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "GuardMetadata.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace alignguard {

/// The kinds an assume can be made from (GuardNote::MadeFrom).
static constexpr PromiseKind Origins[] = {
    PromiseKind::ParamAttr, PromiseKind::ReturnAttr, PromiseKind::LoadMetadata,
    PromiseKind::AssumeICmp};

StringRef checkPlacementName(CheckPlacement P) {
  switch (P) {
  case CheckPlacement::AtPromise:
    return "at-promise";
  case CheckPlacement::Hoisted:
    return "hoisted";
  case CheckPlacement::InLoop:
    return "in-loop";
  case CheckPlacement::InPlace:
    return "in-place";
  }
  llvm_unreachable("unknown placement");
}

static std::optional<CheckPlacement> placementNamed(StringRef Name) {
  for (CheckPlacement P : {CheckPlacement::AtPromise, CheckPlacement::Hoisted,
                           CheckPlacement::InLoop, CheckPlacement::InPlace})
    if (checkPlacementName(P) == Name)
      return P;
  return std::nullopt;
}

bool isGuarded(const Instruction &I) {
  return I.getMetadata(GuardedMDName) != nullptr;
}

bool isNoSanitize(const Instruction &I) {
  return I.getMetadata("nosanitize") != nullptr;
}

std::vector<DeferredCheckOperands> readDeferredChecks(const CallBase &Call) {
  constexpr size_t PerCheck = 5;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getName() != DeferredCheckName)
    return {};
  auto Bundle = Call.getOperandBundle(DeferredChecksBundle);
  if (!Bundle || Bundle->Inputs.size() % PerCheck != 0)
    return {};
  std::vector<DeferredCheckOperands> Checks;
  ArrayRef<Use> Ops = Bundle->Inputs;
  for (size_t I = 0; I != Ops.size(); I += PerCheck)
    Checks.push_back({Ops[I], Ops[I + 1], Ops[I + 2], Ops[I + 3], Ops[I + 4]});
  return Checks;
}

/// True when a deferred place tests V (a pointer) for at least Alignment,
/// always (no offset, no guard).
static bool isTestedByDeferredPlace(const Value &V, uint64_t Alignment) {
  for (const User *U : V.users())
    if (auto *CB = dyn_cast<CallBase>(U))
      for (const DeferredCheckOperands &C : readDeferredChecks(*CB)) {
        auto *Align = dyn_cast<ConstantInt>(C.Alignment);
        auto *Offset = dyn_cast<ConstantInt>(C.Offset);
        auto *Guard = dyn_cast<ConstantInt>(C.Guard);
        if (C.Pointer->stripPointerCasts() == &V && Align &&
            Align->getValue().uge(Alignment) && Offset && Offset->isZero() &&
            Guard && Guard->isOne())
          return true;
      }
  return false;
}

bool isCheckedByDeferredPlace(const Argument &Arg, uint64_t Alignment) {
  auto *VT = dyn_cast<FixedVectorType>(Arg.getType());
  if (!VT)
    return isTestedByDeferredPlace(Arg, Alignment);
  // A vector of pointers: each element, read at a constant index.
  SmallVector<bool, 8> Tested(VT->getNumElements(), false);
  for (const User *U : Arg.users())
    if (auto *EE = dyn_cast<ExtractElementInst>(U))
      if (auto *Index = dyn_cast<ConstantInt>(EE->getIndexOperand()))
        if (Index->getValue().ult(Tested.size()) &&
            isTestedByDeferredPlace(*EE, Alignment))
          Tested[Index->getZExtValue()] = true;
  return !is_contained(Tested, false);
}

std::optional<GuardNote> readGuardNote(const Instruction &I) {
  MDNode *Node = I.getMetadata(GuardedMDName);
  if (!Node)
    return std::nullopt;
  GuardNote N;
  for (const MDOperand &Op : Node->operands()) {
    auto *Text = dyn_cast_or_null<MDString>(Op.get());
    if (!Text)
      continue;
    StringRef S = Text->getString();
    const PromiseKind *Origin = llvm::find_if(
        Origins, [&](PromiseKind K) { return promiseKindName(K) == S; });
    if (Origin != std::end(Origins))
      N.MadeFrom = *Origin;
    else if (std::optional<CheckPlacement> P = placementNamed(S))
      N.Placement = P;
    else
      N.Downgrade = S.str();
  }
  return N;
}

} // namespace alignguard
