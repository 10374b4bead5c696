//===- UnalignedCopies.cpp - Assumption-free copies for the fallback -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "UnalignedCopies.h"

#include "AssumeBundles.h"

#include "Compat.h"
#include "EntryPoints.h"
#include "IRShapes.h"
#include "PointerOrigins.h"
#include "Promises.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace alignguard {

/// Memory the function allocated itself is aligned by construction: its
/// accesses keep their alignment in the copy.
static bool isOwnMemory(const Value *Ptr) {
  const Value *Root = pointerRoot(Ptr);
  return isa<AllocaInst>(Root) || isa<GlobalVariable>(Root);
}

/// True when I itself makes an alignment promise that a copy must drop.
static bool isPromise(Instruction &I, const DataLayout &DL) {
  if (auto *Assume = dyn_cast<AssumeInst>(&I)) {
    AlignmentTest Test;
    return (matchAlignmentTest(Assume->getArgOperand(0), Test) &&
            Test.Pointer) ||
           hasAlignBundle(*Assume);
  }
  if (isa<LoadInst>(I) && I.getMetadata(LLVMContext::MD_align))
    return true;
  // Memory intrinsics promise alignment above 1; the others above what
  // their element type can count on (what the copy lowers them to). Memory
  // the function allocates is aligned.
  bool MemIntr = isa<MemIntrinsic>(I);
  for (const MemoryAccessOperand &Op : memoryAccessOperands(I))
    if (Op.Alignment.valueOrOne() >
            (MemIntr ? Align(1) : abiElementAlignment(Op.AccessType, DL)) &&
        !isOwnMemory(Op.Pointer))
      return true;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->getRetAlign())
      return true;
    for (unsigned ArgNo = 0, E = CB->arg_size(); ArgNo != E; ++ArgNo)
      if (CB->getParamAlign(ArgNo))
        return true;
  }
  return false;
}

bool UnalignedCopies::makesPromises(Function &F) {
  auto It = Promising.find(&F);
  if (It != Promising.end())
    return It->second;
  Promising[&F] = false; // a cycle adds nothing the other members don't
  const DataLayout &DL = F.getParent()->getDataLayout();
  bool Result = static_cast<bool>(F.getAttributes().getRetAlignment());
  for (Argument &Arg : F.args())
    Result |= F.getParamAlign(Arg.getArgNo()) && !isABIAlignment(Arg);
  for (Instruction &I : instructions(F)) {
    if (Result)
      break;
    Result |= isPromise(I, DL);
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (!Callee->isDeclaration() && !Callee->isInterposable())
          Result |= makesPromises(*Callee);
  }
  return Promising[&F] = Result;
}

/// Removes `align` from the parameters and return value of an attribute
/// holder (a function or a call), keeping the ABI's.
template <typename HolderT>
static void dropAlignAttributes(HolderT &H, Function *F) {
  H.removeRetAttr(Attribute::Alignment);
  for (unsigned ArgNo = 0, E = F->arg_size(); ArgNo != E; ++ArgNo)
    if (!isABIAlignment(*F->getArg(ArgNo)))
      H.removeParamAttr(ArgNo, Attribute::Alignment);
}

void lowerToABIAlignment(Instruction &I) {
  const DataLayout &DL = I.getModule()->getDataLayout();
  bool MemIntr = isa<MemIntrinsic>(I);
  for (const MemoryAccessOperand &Op : memoryAccessOperands(I)) {
    Align ABI = MemIntr ? Align(1) : abiElementAlignment(Op.AccessType, DL);
    setAccessAlignment(I, Op.OperandNo,
                       std::min(Op.Alignment.valueOrOne(), ABI));
  }
}

void UnalignedCopies::stripPromises(Function &Copy) {
  LLVMContext &Ctx = Copy.getContext();
  dropAlignAttributes(Copy, &Copy);

  SmallVector<Instruction *, 8> Dead;
  for (Instruction &I : instructions(Copy)) {
    if (auto *Assume = dyn_cast<AssumeInst>(&I)) {
      AlignmentTest Test;
      bool Legacy =
          matchAlignmentTest(Assume->getArgOperand(0), Test) && Test.Pointer;
      SmallVector<OperandBundleDef, 2> Keep;
      for (unsigned Idx = 0, E = Assume->getNumOperandBundles(); Idx != E;
           ++Idx)
        if (Assume->getOperandBundleAt(Idx).getTagName() != AlignBundleTag)
          Keep.emplace_back(Assume->getOperandBundleAt(Idx));
      replaceAssumeBundles(*Assume, Keep,
                           Legacy ? ConstantInt::getTrue(Ctx) : nullptr, &Dead);
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(&I))
      LI->setMetadata(LLVMContext::MD_align, nullptr);
    SmallVector<MemoryAccessOperand, 2> Accessed = memoryAccessOperands(I);
    if (!Accessed.empty()) {
      // Memory the function allocates itself keeps its alignment.
      bool Own = true;
      for (const MemoryAccessOperand &Op : Accessed)
        Own &= isOwnMemory(Op.Pointer);
      if (!Own)
        lowerToABIAlignment(I);
      continue;
    }
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      Function *Callee = CB->getCalledFunction();
      if (Callee && !Callee->isDeclaration() && !Callee->isInterposable() &&
          makesPromises(*Callee))
        CB->setCalledFunction(getOrCreate(*Callee));
      CB->removeRetAttr(Attribute::Alignment);
      for (unsigned ArgNo = 0, E = CB->arg_size(); ArgNo != E; ++ArgNo)
        if (!CB->isPassPointeeByValueArgument(ArgNo) &&
            !CB->paramHasAttr(ArgNo, Attribute::ByRef))
          CB->removeParamAttr(ArgNo, Attribute::Alignment);
    }
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

/// A module-internal copy of F named F's name and Suffix, no entry point.
static Function *cloneInternal(Function &F, StringRef Suffix) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(F.getName() + Suffix);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Copy->setComdat(nullptr);
  Copy->removeFnAttr(EntryAttr);
  Copy->setCallingConv(calleeConvention(F.getCallingConv()));
  return Copy;
}

Function *makeRecoverCopy(Function &F) {
  Function *Copy = cloneInternal(F, RecoverSuffix);
  // Right after F, where a reader of the IR looks for it.
  Copy->removeFromParent();
  F.getParent()->getFunctionList().insertAfter(F.getIterator(), Copy);
  return Copy;
}

Function *UnalignedCopies::getOrCreate(Function &F) {
  auto Known = Copies.find(&F);
  if (Known != Copies.end()) {
    assert(Known->second && "a copy is erased only once nothing uses it");
    return Known->second;
  }
  // A copy that an earlier run made computes the same function, from F's
  // body before this run's changes: a build's second run (accesses-only,
  // after the inliners) falls back to the copy its first run made.
  if (Function *Earlier =
          F.getParent()->getFunction((F.getName() + UnalignedSuffix).str()))
    if (Earlier->hasLocalLinkage() &&
        Earlier->hasFnAttribute(NoAlignGuardAttr) &&
        Earlier->getFunctionType() == F.getFunctionType())
      return Copies[&F] = Earlier;
  Function *Copy = cloneInternal(F, UnalignedSuffix);
  // The copy is the unchecked slow path: align-guard leaves it alone.
  Copy->addFnAttr(NoAlignGuardAttr);
  Copies[&F] = Copy; // before stripping: recursive calls find the copy
  stripPromises(*Copy);
  return Copy;
}

void UnalignedCopies::eraseUnused() {
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (auto It = Copies.begin(); It != Copies.end(); ++It) {
      Function *Copy = It->second;
      if (!Copy || !Copy->use_empty())
        continue;
      Copy->eraseFromParent();
      It->second = nullptr;
      Erased = true;
    }
  }
}

} // namespace alignguard
