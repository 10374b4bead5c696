//===- PointerOrigins.cpp - Where a pointer value comes from -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "PointerOrigins.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace alignguard {

/// Spill chains are short (clang -O0: one slot; SIMDe's macros: two); the
/// bound only guards against pathological IR.
static constexpr unsigned MaxSpillDepth = 8;

const Value *spilledValue(const LoadInst &L) {
  auto *Slot = dyn_cast<AllocaInst>(L.getPointerOperand()->stripPointerCasts());
  if (!Slot || L.getPointerOperand() != Slot)
    return nullptr;
  // Sound only when the slot holds one value from its store on: stored
  // once, in the entry block (which runs once) before L, or in L's own
  // block before L (then L reads what that store wrote, in a loop too: an
  // always-inline wrapper's parameter slot at -O0); and written by nothing
  // else (no memcpy into it, no escaping address).
  const StoreInst *Store = nullptr;
  for (const User *U : Slot->users()) {
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != Slot || S->getValueOperand() == Slot ||
          Store || S->isVolatile())
        return nullptr;
      Store = S;
    } else if (auto *Load = dyn_cast<LoadInst>(U)) {
      if (Load->getPointerOperand() != Slot)
        return nullptr;
    } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::lifetime_start:
      case Intrinsic::lifetime_end:
      case Intrinsic::dbg_declare:
      case Intrinsic::dbg_value:
        break;
      default:
        return nullptr; // memcpy, memset, ...: another writer
      }
    } else {
      return nullptr; // escapes or is written some other way
    }
  }
  if (!Store)
    return nullptr;
  const BasicBlock *Entry = &Slot->getFunction()->getEntryBlock();
  if (Store->getParent() == L.getParent())
    return Store->comesBefore(&L) ? Store->getValueOperand() : nullptr;
  if (Store->getParent() != Entry)
    return nullptr;
  return Store->getValueOperand();
}

const Value *sameField(const Value *V) {
  auto *EV = dyn_cast<ExtractValueInst>(V);
  if (!EV)
    return V;
  Value *Agg = const_cast<Value *>(EV->getAggregateOperand());
  if (Value *Inserted = FindInsertedValue(Agg, EV->getIndices()))
    return Inserted;
  if (isa<Constant>(Agg))
    return V; // its users span functions
  for (const User *U : Agg->users())
    if (auto *Other = dyn_cast<ExtractValueInst>(U))
      if (Other->getAggregateOperand() == Agg &&
          Other->getIndices() == EV->getIndices())
        return Other;
  return V;
}

/// Alternates Strip (what does not change the value's origin) with
/// following field reads and spill reloads, until nothing changes.
template <typename StripT>
static const Value *throughSpills(const Value *V, StripT Strip) {
  for (unsigned Depth = 0; Depth != MaxSpillDepth; ++Depth) {
    V = Strip(V);
    const Value *Field = sameField(V);
    if (Field != V) {
      V = Field;
      continue;
    }
    auto *L = dyn_cast<LoadInst>(V);
    const Value *Stored = L ? spilledValue(*L) : nullptr;
    if (!Stored)
      return V;
    V = Stored;
  }
  return V;
}

const Value *sameAddress(const Value *V) {
  return throughSpills(V,
                       [](const Value *X) { return X->stripPointerCasts(); });
}

const Value *pointerRoot(const Value *V) {
  return throughSpills(V,
                       [](const Value *X) { return getUnderlyingObject(X); });
}

bool comesFromArgument(const Value *V) {
  // args -> DLTensor* -> data: two loads; one more for good measure.
  for (unsigned Loads = 0; Loads != 3; ++Loads) {
    V = pointerRoot(V);
    // A field of an aggregate (MLIR's memref descriptor) comes from where
    // the aggregate does: an argument, or memory an argument points to.
    if (auto *EV = dyn_cast<ExtractValueInst>(V))
      V = EV->getAggregateOperand();
    if (isa<Argument>(V))
      return true;
    auto *L = dyn_cast<LoadInst>(V);
    if (!L)
      return false;
    V = L->getPointerOperand();
  }
  return false;
}

Align alignmentFromType(const Value *V, const DataLayout &DL) {
  // Not stripPointerCasts: it would also strip the all-zero GEP of field 0.
  while (isa<BitCastOperator>(V) || isa<AddrSpaceCastOperator>(V))
    V = cast<Operator>(V)->getOperand(0);
  auto *GEP = dyn_cast<GEPOperator>(V);
  // Only a struct's field: a GEP over an array of vectors says nothing
  // about the base beyond what the access itself promises.
  if (!GEP || !GEP->getSourceElementType()->isStructTy() ||
      !GEP->getSourceElementType()->isSized())
    return Align(1);
  APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
  if (!GEP->accumulateConstantOffset(DL, Offset))
    return Align(1);
  return commonAlignment(DL.getABITypeAlign(GEP->getSourceElementType()),
                         Offset.getZExtValue());
}

} // namespace alignguard
