//===- PromiseStripping.cpp - Drop promises a failed check fed -----------===//
#include "PromiseStripping.h"

#include "EntryPoints.h"
#include "Promises.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace alignguard {

unsigned dropAlignPromisesFedBy(Value *Pointer) {
  unsigned Removed = 0;
  SmallVector<Value *, 8> Worklist{Pointer};
  SmallPtrSet<Value *, 16> Seen{Pointer};
  auto Push = [&](Value *V) {
    if (Seen.insert(V).second)
      Worklist.push_back(V);
  };

  while (!Worklist.empty()) {
    Value *V = Worklist.pop_back_val();
    for (Use &U : V->uses()) {
      User *Usr = U.getUser();
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
