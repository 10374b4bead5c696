//===- PromiseStripping.cpp - Drop promises a failed check fed -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "PromiseStripping.h"

#include "EntryPoints.h"
#include "IRShapes.h"
#include "Promises.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace alignguard {

/// Lowers every access of I through Pointer that states more than its
/// element type's ABI alignment to that (an optimiser may have raised it
/// from the promise). Returns how many it lowered.
static unsigned lowerAccessesThrough(Instruction &I, const Value *Pointer) {
  const DataLayout &DL = I.getModule()->getDataLayout();
  unsigned Lowered = 0;
  for (const MemoryAccessOperand &Op : memoryAccessOperands(I)) {
    if (Op.Pointer != Pointer || !Op.Alignment)
      continue;
    Align ABI = isa<MemIntrinsic>(I) ? Align(1)
                                     : abiElementAlignment(Op.AccessType, DL);
    if (*Op.Alignment > ABI) {
      setAccessAlignment(I, Op.OperandNo, ABI);
      ++Lowered;
    }
  }
  return Lowered;
}

/// Where the walk starts: Pointer, and the object it points into when
/// that is not aligned by construction (an alignment the optimiser derived
/// for a sibling address rests on the same promise).
static SmallVector<Value *, 2> walkRoots(Value *Pointer) {
  SmallVector<Value *, 2> Roots{Pointer};
  Value *Object = getUnderlyingObject(Pointer);
  if (Object != Pointer && !isa<AllocaInst>(Object) &&
      !isa<GlobalValue>(Object) && !isa<Constant>(Object))
    Roots.push_back(Object);
  return Roots;
}

unsigned dropAlignPromisesFedBy(Value *Pointer, PrivateCallee Private) {
  unsigned Removed = 0;
  SmallVector<Value *, 8> Worklist = walkRoots(Pointer);
  SmallPtrSet<Value *, 16> Seen(Worklist.begin(), Worklist.end());
  auto Push = [&](Value *V) {
    if (Seen.insert(V).second)
      Worklist.push_back(V);
  };

  while (!Worklist.empty()) {
    Value *V = Worklist.pop_back_val();
    // A pointer loaded with `!align` carries the promise in metadata.
    if (auto *Load = dyn_cast<LoadInst>(V))
      if (Load->hasMetadata(LLVMContext::MD_align)) {
        Load->setMetadata(LLVMContext::MD_align, nullptr);
        ++Removed;
      }
    for (Use &U : V->uses()) {
      User *Usr = U.getUser();
      if (auto *I = dyn_cast<Instruction>(Usr))
        Removed += lowerAccessesThrough(*I, V);
      if (isa<GEPOperator>(Usr) || isa<BitCastOperator>(Usr) ||
          isa<AddrSpaceCastInst>(Usr) || isa<PHINode>(Usr) ||
          isa<SelectInst>(Usr)) {
        Push(Usr);
        continue;
      }
      // Stored into a local variable and reloaded (clang keeps `float *a =
      // __builtin_assume_aligned(...)` in an alloca until SROA): the
      // reloads carry the same pointer.
      if (auto *Store = dyn_cast<StoreInst>(Usr)) {
        if (Store->getValueOperand() == V)
          if (auto *Slot = dyn_cast<AllocaInst>(
                  Store->getPointerOperand()->stripPointerCasts()))
            for (User *SlotUser : Slot->users())
              if (auto *Reload = dyn_cast<LoadInst>(SlotUser))
                Push(Reload);
        continue;
      }
      auto *CB = dyn_cast<CallBase>(Usr);
      if (!CB || !CB->isArgOperand(&U))
        continue;
      unsigned ArgNo = CB->getArgOperandNo(&U);
      // byval/byref/inalloca/preallocated alignment is the ABI's, not a
      // promise about the pointer: dropping it would change the callee's
      // copy or the argument layout.
      if (CB->isPassPointeeByValueArgument(ArgNo) ||
          CB->paramHasAttr(ArgNo, Attribute::ByRef))
        continue;
      if (CB->getParamAlign(ArgNo)) {
        CB->removeParamAttr(ArgNo, Attribute::Alignment);
        ++Removed;
      }
      Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee->isDeclaration() || !Callee->hasLocalLinkage() ||
          ArgNo >= Callee->arg_size() || isOptedOut(*Callee) ||
          isABIAlignment(*Callee->getArg(ArgNo)))
        continue;
      if (Private) {
        Function *Own = Private(*Callee);
        if (Own != Callee) {
          CB->setCalledFunction(Own);
          Callee = Own;
        }
      }
      if (Callee->getParamAlign(ArgNo)) {
        Callee->removeParamAttr(ArgNo, Attribute::Alignment);
        ++Removed;
      }
      Push(Callee->getArg(ArgNo));
    }
  }
  return Removed;
}

} // namespace alignguard
