//===- PointerOrigins.cpp - Where a pointer value comes from -------------===//
#include "PointerOrigins.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace alignguard {

/// Spill chains are short (clang -O0: one slot; SIMDe's macros: two); the
/// bound only guards against pathological IR.
static constexpr unsigned MaxSpillDepth = 8;

const Value *spilledValue(const LoadInst &L) {
  auto *Slot = dyn_cast<AllocaInst>(L.getPointerOperand()->stripPointerCasts());
  if (!Slot)
    return nullptr;
  const Value *Stored = nullptr;
  for (const User *U : Slot->users()) {
    if (auto *Store = dyn_cast<StoreInst>(U)) {
      if (Store->getPointerOperand() != Slot || Stored)
        return nullptr; // stored more than once, or the slot's address escapes
      Stored = Store->getValueOperand();
    } else if (!isa<LoadInst>(U) && !isa<IntrinsicInst>(U)) {
      return nullptr; // escapes or is written some other way
    }
  }
  return Stored;
}

const Value *sameAddress(const Value *V) {
  for (unsigned Depth = 0; Depth != MaxSpillDepth; ++Depth) {
    V = V->stripPointerCasts();
    auto *L = dyn_cast<LoadInst>(V);
    const Value *Stored = L ? spilledValue(*L) : nullptr;
    if (!Stored)
      return V;
    V = Stored;
  }
  return V;
}

const Value *pointerRoot(const Value *V) {
  for (unsigned Depth = 0; Depth != MaxSpillDepth; ++Depth) {
    V = getUnderlyingObject(V);
    auto *L = dyn_cast<LoadInst>(V);
    const Value *Stored = L ? spilledValue(*L) : nullptr;
    if (!Stored)
      return V;
    V = Stored;
  }
  return V;
}

} // namespace alignguard
