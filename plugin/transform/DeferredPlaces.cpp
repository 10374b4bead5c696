//===- DeferredPlaces.cpp - Checks placed early, expanded last -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "DeferredPlaces.h"

#include "Compat.h"
#include "Diagnostics.h"
#include "GuardMarking.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard-expand"

STATISTIC(NumExpanded, "Deferred places expanded into their branch");

namespace alignguard {
namespace {

FunctionCallee markerFunction(Module &M) {
  LLVMContext &Ctx = M.getContext();
  FunctionType *Ty = FunctionType::get(
      Type::getVoidTy(Ctx), {Type::getInt32Ty(Ctx)}, /*isVarArg=*/false);
  FunctionCallee Callee = M.getOrInsertFunction(DeferredCheckName, Ty);
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->setOnlyReadsMemory();
    F->setDoesNotThrow();
    F->addFnAttr(Attribute::NoMerge);
    // Not a library function: InstCombine, which visits the marker every
    // time it runs, then skips looking its name up in the library's.
    F->addFnAttr(Attribute::NoBuiltin);
  }
  return Callee;
}

/// Marker -> its checks and policy; false when it is not one
/// emitDeferredPlace wrote.
bool decode(CallInst &Marker, std::vector<PlaceCheck> &Checks,
            FailurePolicy &Policy) {
  std::vector<DeferredCheckOperands> Ops = readDeferredChecks(Marker);
  if (Marker.arg_size() != 1 || Ops.empty())
    return false;
  auto *Action = dyn_cast<ConstantInt>(Marker.getArgOperand(0));
  if (!Action ||
      Action->getZExtValue() > static_cast<uint64_t>(FailureAction::Fallback))
    return false;
  Policy.Action = static_cast<FailureAction>(Action->getZExtValue());
  if (!Policy.canDefer())
    return false;
  if (auto Funclet = Marker.getOperandBundle(LLVMContext::OB_funclet))
    Policy.Funclet = dyn_cast<Instruction>(Funclet->Inputs.front());
  // The checks naming a table of descriptors are its elements, in order.
  SmallDenseMap<GlobalVariable *, unsigned, 1> NextElement;
  for (const DeferredCheckOperands &Op : Ops) {
    PlaceCheck C;
    C.Pointer = Op.Pointer;
    C.Alignment = Op.Alignment;
    C.Offset = Op.Offset;
    C.Guard = Op.Guard;
    C.Site = Op.Site;
    if (!C.Pointer->getType()->isPointerTy() ||
        !C.Alignment->getType()->isIntegerTy() ||
        !C.Offset->getType()->isIntegerTy() ||
        !C.Guard->getType()->isIntegerTy(1) ||
        !C.Site->getType()->isPointerTy())
      return false;
    // The encoding's "none": offset 0 tests the same, and a guard that
    // always holds guards nothing.
    if (auto *Off = dyn_cast<ConstantInt>(C.Offset); Off && Off->isZero())
      C.Offset = nullptr;
    if (auto *G = dyn_cast<ConstantInt>(C.Guard); G && G->isOne())
      C.Guard = nullptr;
    if (isa<ConstantPointerNull>(C.Site)) {
      C.Site = nullptr;
    } else if (GlobalVariable *Table = siteTable(C.Site)) {
      unsigned Index = NextElement[Table]++;
      if (Index >= tableSize(*Table))
        return false;
      C.Element = Index;
    } else if (auto *Desc = dyn_cast<Constant>(C.Site)) {
      C.Site = ConstantExpr::getPointerCast(
          Desc, compat::bytePtrTy(Desc->getContext(),
                                  Desc->getType()->getPointerAddressSpace()));
    }
    if (!C.Site && Policy.Action != FailureAction::Trap)
      return false; // a report needs its descriptor
    C.Loc = Marker.getDebugLoc();
    Checks.push_back(C);
  }
  return true;
}

/// The parameter attribute a check of an argument kept until now.
void dropParamAlignment(Function &F, const PlaceCheck &C) {
  if (auto *Arg = dyn_cast<Argument>(C.Pointer->stripPointerCasts()))
    if (Arg->getParent() == &F)
      F.removeParamAttr(Arg->getArgNo(), Attribute::Alignment);
}

} // namespace

void emitDeferredPlace(ArrayRef<PlaceCheck> Checks, const FailurePolicy &Policy,
                       Instruction *At) {
  assert(Policy.canDefer() && "return=N and fallback are emitted at once");
  Module &M = *At->getModule();
  IRBuilder<> B(At);
  std::vector<Value *> Args;
#ifndef NDEBUG
  SmallDenseMap<Value *, unsigned, 1> Elements;
#endif
  for (const PlaceCheck &C : Checks) {
    // The descriptor itself, not the byte pointer cast of it the hooks take
    // (typed pointers, LLVM 14), and for an element of a table the table
    // (the k-th check naming it is its k-th element: makeDescriptors puts
    // them in that order): InstCombine folds every constant expression
    // operand again each time it runs, and the passes that look at a
    // call's pointer operands (EarlyCSE, GVN, alias analysis) take a GEP
    // apart each time.
    Value *Site =
        C.Site
            ? C.Site->stripPointerCasts()
            : ConstantPointerNull::get(cast<PointerType>(C.Pointer->getType()));
    assert((!siteTable(Site) || C.Element == Elements[Site]++) &&
           "a table's checks come in its elements' order");
    appendDeferredCheck(Args, {C.Pointer, C.Alignment,
                               C.Offset ? C.Offset : B.getInt64(0),
                               C.Guard ? C.Guard : B.getTrue(), Site});
  }
  SmallVector<OperandBundleDef, 2> Bundles;
  Bundles.emplace_back(DeferredChecksBundle, std::move(Args));
  if (Policy.Funclet)
    Bundles.emplace_back("funclet", Policy.Funclet);
  CallInst *Marker =
      B.CreateCall(markerFunction(M),
                   {B.getInt32(static_cast<int>(Policy.Action))}, Bundles);
  // An unknown bundle lets the call write memory unless the call itself
  // says otherwise (the declaration's `readonly` no longer counts).
  Marker->setOnlyReadsMemory();
  Marker->setDebugLoc(Checks.front().Loc);
}

unsigned expandDeferredChecks(Module &M) {
  Function *MarkerFn = M.getFunction(DeferredCheckName);
  if (!MarkerFn)
    return 0;
  std::vector<CallInst *> Markers;
  for (User *U : MarkerFn->users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledOperand() == MarkerFn)
      Markers.push_back(CI);
  unsigned Expanded = 0;
  for (CallInst *Marker : Markers) {
    std::vector<PlaceCheck> Checks;
    FailurePolicy Policy;
    if (!decode(*Marker, Checks, Policy)) {
      diagnose(M.getContext(),
               "align-guard-expand: a call of " + Twine(DeferredCheckName) +
                   " in '" + Marker->getFunction()->getName() +
                   "' is not a deferred check align-guard wrote; left as "
                   "it is",
               DS_Error);
      continue;
    }
    Function &F = *Marker->getFunction();
    emitPlaceChecks(Checks, Policy, Marker, /*FallbackCopy=*/nullptr);
    for (const PlaceCheck &C : Checks)
      dropParamAlignment(F, C);
    Marker->eraseFromParent();
    ++Expanded;
    ++NumExpanded;
  }
  if (MarkerFn->use_empty())
    MarkerFn->eraseFromParent();
  return Expanded;
}

} // namespace alignguard
