//===- IRShapes.cpp - Where the IR keeps alignment: one reader each ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "IRShapes.h"

#include "Compat.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace alignguard {

bool hasAlignBundle(const CallBase &Call) {
  bool Found = false;
  forEachAlignBundle(Call, [&](unsigned, OperandBundleUse) { Found = true; });
  return Found;
}

SmallVector<MemoryAccessOperand, 2> memoryAccessOperands(Instruction &I) {
  LLVMContext &Ctx = I.getContext();
  Type *I8 = Type::getInt8Ty(Ctx);
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return {{LI->getPointerOperandIndex(), LI->getPointerOperand(),
             LI->getAlign(), LI->getType(), false}};
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return {{SI->getPointerOperandIndex(), SI->getPointerOperand(),
             SI->getAlign(), SI->getValueOperand()->getType(), true}};
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return {{0, MT->getRawDest(), MT->getDestAlign(), I8, true},
            {1, MT->getRawSource(), MT->getSourceAlign(), I8, false}};
  if (auto *MS = dyn_cast<MemSetInst>(&I))
    return {{0, MS->getRawDest(), MS->getDestAlign(), I8, true}};
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (II->getIntrinsicID() == Intrinsic::masked_load)
      return {{0, II->getArgOperand(0), compat::maskedAccessAlign(*II, 0),
               II->getType(), false}};
    if (II->getIntrinsicID() == Intrinsic::masked_store)
      return {{1, II->getArgOperand(1), compat::maskedAccessAlign(*II, 1),
               II->getArgOperand(0)->getType(), true}};
  }
  return {};
}

Align naturalAccessAlignment(Type *Ty, const DataLayout &DL) {
  Type *Elem = Ty->getScalarType();
  Align ABI = abiElementAlignment(Ty, DL);
  if (Elem->isAggregateType() || !Elem->isSized())
    return ABI;
  // A power-of-two alignment exceeds the store size exactly when it
  // exceeds the largest power of two not above it (10 bytes: 8).
  uint64_t Store = DL.getTypeStoreSize(Elem).getKnownMinValue();
  if (Store == 0)
    return ABI;
  return std::max(ABI, Align(uint64_t(1) << Log2_64(Store)));
}

Align abiElementAlignment(Type *Ty, const DataLayout &DL) {
  return DL.getABITypeAlign(Ty->getScalarType());
}

void setAccessAlignment(Instruction &I, unsigned OperandNo, Align A) {
  if (auto *LI = dyn_cast<LoadInst>(&I))
    LI->setAlignment(A);
  else if (auto *SI = dyn_cast<StoreInst>(&I))
    SI->setAlignment(A);
  else if (auto *MT = dyn_cast<MemTransferInst>(&I))
    OperandNo == 0 ? MT->setDestAlignment(A) : MT->setSourceAlignment(A);
  else if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    MI->setDestAlignment(A);
  else if (auto *II = dyn_cast<IntrinsicInst>(&I))
    compat::setMaskedAccessAlign(*II, OperandNo, A);
}

bool checkCanMovePast(const Instruction &I) {
  if (I.isTerminator() || I.isEHPad() || isa<PHINode>(I))
    return false;
  if (I.isDebugOrPseudoInst() || I.isLifetimeStartOrEnd())
    return true;
  if (isa<CallBase>(I))
    return false;
  auto OwnStack = [](const Value *Ptr) {
    return isa<AllocaInst>(Ptr->stripPointerCasts());
  };
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isSimple() && OwnStack(Load->getPointerOperand());
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isSimple() && OwnStack(Store->getPointerOperand());
  return !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects() &&
         isSafeToSpeculativelyExecute(&I);
}

bool staysAtEntryTop(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return isa<AllocaInst>(I) ||
         (II && II->getIntrinsicID() == Intrinsic::localescape);
}

bool isGPUTarget(const Module &M) {
  Triple T = compat::targetTriple(M);
  return T.isNVPTX() || T.isAMDGPU() || T.isSPIR() || T.isSPIRV();
}

ArrayRef<StringRef> hipPrintFunctions() {
  static const StringRef Names[] = {"__ockl_fprintf_stderr_begin",
                                    "__ockl_fprintf_append_string_n",
                                    "__ockl_fprintf_append_args"};
  return Names;
}

DevicePrinter devicePrinter(const Module &M, bool LibrariesAfter) {
  Triple T = compat::targetTriple(M);
  if (T.isNVPTX())
    return DevicePrinter::PTX;
  if (!T.isAMDGPU() || T.getOS() != Triple::AMDHSA)
    return DevicePrinter::None;
  bool InModule = llvm::all_of(hipPrintFunctions(), [&](StringRef Name) {
    return M.getFunction(Name) != nullptr;
  });
  return LibrariesAfter || InModule ? DevicePrinter::HIP : DevicePrinter::None;
}

DenseMap<BasicBlock *, TinyPtrVector<BasicBlock *>> funcletColors(Function &F) {
  if (F.hasPersonalityFn() &&
      isFuncletEHPersonality(classifyEHPersonality(F.getPersonalityFn())))
    return colorEHFunclets(F);
  // Not `{}`: LLVM 22's DenseMap has an explicit constructor.
  return DenseMap<BasicBlock *, TinyPtrVector<BasicBlock *>>();
}

Instruction *
funcletPadOf(const DenseMap<BasicBlock *, TinyPtrVector<BasicBlock *>> &Colors,
             BasicBlock *BB, bool &Ambiguous) {
  Ambiguous = false;
  auto It = Colors.find(BB);
  if (It == Colors.end() || It->second.empty())
    return nullptr;
  if (It->second.size() != 1) {
    Ambiguous = true;
    return nullptr;
  }
  BasicBlock *Color = It->second.front();
  if (Color == &BB->getParent()->getEntryBlock())
    return nullptr;
  return compat::firstNonPHI(*Color);
}

bool markDisjointOrs(Function &F) {
  bool Changed = false;
  for (Instruction &I : instructions(F))
    Changed |= compat::markDisjointIfNoCommonBits(I);
  return Changed;
}

} // namespace alignguard
