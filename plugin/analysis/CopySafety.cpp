//===- CopySafety.cpp - When running a copy from the start is valid -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "CopySafety.h"

#include "Compat.h"
#include "PointerOrigins.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace alignguard {

/// True when I's write cannot be seen outside the function: a store into,
/// or a memory intrinsic on, an alloca whose address does not escape.
static bool writesOnlyOwnStack(Instruction &I) {
  Value *Ptr = nullptr;
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    if (SI->isVolatile() || SI->isAtomic())
      return false;
    Ptr = SI->getPointerOperand();
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    if (MI->isVolatile())
      return false;
    Ptr = MI->getRawDest(); // a memcpy's reads are fine; its writes decide

  } else {
    return false;
  }
  auto *Slot = dyn_cast<AllocaInst>(pointerRoot(Ptr));
  if (!Slot)
    return false;
  // The address must not escape: used only as a load/store address, by
  // GEPs and casts of it, and by intrinsics (lifetime, debug, memcpy).
  SmallVector<const Value *, 8> Worklist{Slot};
  SmallPtrSet<const Value *, 8> Seen{Slot};
  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (isa<LoadInst>(Usr) || isa<IntrinsicInst>(Usr))
        continue;
      if (auto *S = dyn_cast<StoreInst>(Usr)) {
        if (S->getValueOperand() == V)
          return false; // the address itself is stored: it escapes
        continue;
      }
      if (isa<GetElementPtrInst>(Usr) || isa<BitCastInst>(Usr) ||
          isa<AddrSpaceCastInst>(Usr)) {
        if (Seen.insert(Usr).second)
          Worklist.push_back(Usr);
        continue;
      }
      return false;
    }
  }
  return true;
}

static bool isObservable(Instruction &I,
                         DenseMap<const Function *, bool> &Calls);

/// A call to a function defined here writes nothing a caller could see when
/// its body does not (TVM's argument checks are such calls, not yet marked
/// readonly at the start of the pipeline). Recursion is taken to write.
static bool callIsObservable(CallBase &CB,
                             DenseMap<const Function *, bool> &Calls) {
  Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isInterposable())
    return true;
  auto It = Calls.find(Callee);
  if (It != Calls.end())
    return It->second;
  Calls[Callee] = true; // in progress: a cycle counts as writing
  bool Writes = false;
  for (Instruction &J : instructions(*Callee))
    if ((Writes = isObservable(J, Calls)))
      break;
  return Calls[Callee] = Writes;
}

/// I has an effect a caller could observe before the copy runs.
static bool isObservable(Instruction &I,
                         DenseMap<const Function *, bool> &Calls) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    switch (II->getIntrinsicID()) {
    case Intrinsic::assume:
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_label:
    case Intrinsic::expect:
    case Intrinsic::experimental_noalias_scope_decl:
      return false;
    default:
      break;
    }
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->isVolatile() || LI->isAtomic();
  if (!I.mayHaveSideEffects())
    return false;
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (!isa<IntrinsicInst>(CB))
      return callIsObservable(*CB, Calls);
  return !writesOnlyOwnStack(I);
}

std::string
sideEffectMayPrecede(Instruction &I,
                     function_ref<bool(const Instruction &)> PassesAfter) {
  // The blocks that can run before I: those that reach I's block, and I's
  // own block up to I (all of it when it is in a loop).
  BasicBlock *Home = I.getParent();
  SmallVector<BasicBlock *, 16> Worklist;
  SmallPtrSet<BasicBlock *, 16> Before;
  for (BasicBlock *Pred : predecessors(Home))
    if (Before.insert(Pred).second)
      Worklist.push_back(Pred);
  while (!Worklist.empty())
    for (BasicBlock *Pred : predecessors(Worklist.pop_back_val()))
      if (Before.insert(Pred).second)
        Worklist.push_back(Pred);

  auto Describe = [](Instruction &Effect) {
    std::string Text = std::string("a ") + Effect.getOpcodeName();
    if (const DebugLoc &DL = Effect.getDebugLoc())
      Text += (" at " + DL->getFilename() + ":" + Twine(DL.getLine())).str();
    return Text;
  };
  DenseMap<const Function *, bool> Calls;
  auto Counts = [&](Instruction &J) {
    return isObservable(J, Calls) && !(PassesAfter && PassesAfter(J));
  };
  for (Instruction &J : *Home) {
    if (&J == &I && !Before.count(Home))
      break;
    if (&J != &I && Counts(J))
      return Describe(J);
  }
  for (BasicBlock *BB : Before)
    if (BB != Home)
      for (Instruction &J : *BB)
        if (Counts(J))
          return Describe(J);
  return "";
}

std::string whyNotForwardable(const Function &F) {
  if (F.isVarArg())
    return "it takes variable arguments";
  for (const Argument &Arg : F.args()) {
    if (Arg.hasInAllocaAttr() || Arg.hasPreallocatedAttr())
      return "an inalloca or preallocated argument cannot be passed on";
    if (Arg.hasSwiftErrorAttr())
      return "a swifterror argument cannot be passed on";
  }
  return "";
}

} // namespace alignguard
