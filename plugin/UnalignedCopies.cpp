//===- UnalignedCopies.cpp - Assumption-free copies for the fallback -----===//
#include "UnalignedCopies.h"

#include "Promises.h"
#include "Compat.h"
#include "EntryPoints.h"
#include "PointerOrigins.h"

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

/// The alignment an access of Ty needs with no promise: its scalar
/// element's ABI alignment.
static Align naturalAlignment(Type *Ty, const DataLayout &DL) {
  return DL.getABITypeAlign(Ty->getScalarType());
}

/// True when I itself makes an alignment promise that a copy must drop.
static bool isPromise(Instruction &I, const DataLayout &DL) {
  if (auto *Assume = dyn_cast<AssumeInst>(&I)) {
    AlignmentTest Test;
    if (matchAlignmentTest(Assume->getArgOperand(0), Test) && Test.Pointer)
      return true;
    for (unsigned Idx = 0, E = Assume->getNumOperandBundles(); Idx != E; ++Idx)
      if (Assume->getOperandBundleAt(Idx).getTagName() == "align")
        return true;
    return false;
  }
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getMetadata(LLVMContext::MD_align) ||
           (LI->getAlign() > naturalAlignment(LI->getType(), DL) &&
            !isOwnMemory(LI->getPointerOperand()));
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getAlign() >
               naturalAlignment(SI->getValueOperand()->getType(), DL) &&
           !isOwnMemory(SI->getPointerOperand());
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    auto *MT = dyn_cast<MemTransferInst>(MI);
    return (MI->getDestAlign().valueOrOne() > Align(1) &&
            !isOwnMemory(MI->getRawDest())) ||
           (MT && MT->getSourceAlign().valueOrOne() > Align(1) &&
            !isOwnMemory(MT->getRawSource()));
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    if (ID != Intrinsic::masked_load && ID != Intrinsic::masked_store)
      return false;
    unsigned PtrIdx = ID == Intrinsic::masked_load ? 0 : 1;
    Type *Ty = ID == Intrinsic::masked_load ? II->getType()
                                            : II->getArgOperand(0)->getType();
    return compat::maskedAccessAlign(*II, PtrIdx).valueOrOne() >
               naturalAlignment(Ty, DL) &&
           !isOwnMemory(II->getArgOperand(PtrIdx));
  }
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
template <typename HolderT> static void dropAlignAttributes(HolderT &H,
                                                             Function *F) {
  H.removeRetAttr(Attribute::Alignment);
  for (unsigned ArgNo = 0, E = F->arg_size(); ArgNo != E; ++ArgNo)
    if (!isABIAlignment(*F->getArg(ArgNo)))
      H.removeParamAttr(ArgNo, Attribute::Alignment);
}

static bool isMaskedAccess(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && (II->getIntrinsicID() == Intrinsic::masked_load ||
                II->getIntrinsicID() == Intrinsic::masked_store);
}

/// The pointers I reads or writes through.
static SmallVector<Value *, 2> accessedPointers(Instruction &I) {
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return {LI->getPointerOperand()};
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return {SI->getPointerOperand()};
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return {MT->getRawDest(), MT->getRawSource()};
  if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    return {MI->getRawDest()};
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return {II->getArgOperand(II->getIntrinsicID() == Intrinsic::masked_load
                                  ? 0
                                  : 1)};
  return {};
}

void lowerToNaturalAlignment(Instruction &I) {
  const DataLayout &DL = I.getModule()->getDataLayout();
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    LI->setAlignment(
        std::min(LI->getAlign(), naturalAlignment(LI->getType(), DL)));
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    SI->setAlignment(std::min(
        SI->getAlign(), naturalAlignment(SI->getValueOperand()->getType(), DL)));
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    MI->setDestAlignment(Align(1));
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      MT->setSourceAlignment(Align(1));
  } else if (isMaskedAccess(I)) {
    auto &II = cast<IntrinsicInst>(I);
    bool Load = II.getIntrinsicID() == Intrinsic::masked_load;
    Type *Ty = Load ? II.getType() : II.getArgOperand(0)->getType();
    compat::setMaskedAccessAlign(II, Load ? 0 : 1, naturalAlignment(Ty, DL));
  }
}

void UnalignedCopies::stripPromises(Function &Copy) {
  LLVMContext &Ctx = Copy.getContext();
  dropAlignAttributes(Copy, &Copy);

  SmallVector<Instruction *, 8> Dead;
  for (Instruction &I : instructions(Copy)) {
    if (auto *Assume = dyn_cast<AssumeInst>(&I)) {
      AlignmentTest Test;
      if (matchAlignmentTest(Assume->getArgOperand(0), Test) && Test.Pointer)
        Assume->setArgOperand(0, ConstantInt::getTrue(Ctx));
      SmallVector<OperandBundleDef, 2> Keep;
      for (unsigned Idx = 0, E = Assume->getNumOperandBundles(); Idx != E;
           ++Idx)
        if (Assume->getOperandBundleAt(Idx).getTagName() != "align")
          Keep.emplace_back(Assume->getOperandBundleAt(Idx));
      if (Keep.size() != Assume->getNumOperandBundles()) {
        if (!Keep.empty())
          compat::cloneCallWithBundles(Assume, Keep);
        Dead.push_back(Assume);
      }
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(&I))
      LI->setMetadata(LLVMContext::MD_align, nullptr);
    if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<MemIntrinsic>(I) ||
        isMaskedAccess(I)) {
      // Memory the function allocates itself keeps its alignment.
      bool Own = true;
      for (Value *Ptr : accessedPointers(I))
        Own &= isOwnMemory(Ptr);
      if (!Own)
        lowerToNaturalAlignment(I);
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

Function *UnalignedCopies::getOrCreate(Function &F) {
  if (Function *Copy = Copies.lookup(&F))
    return Copy;
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(F.getName() + UnalignedSuffix);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Copy->setComdat(nullptr);
  // The copy is the unchecked slow path: align-guard leaves it alone.
  Copy->addFnAttr(NoAlignGuardAttr);
  Copy->removeFnAttr(EntryAttr);
  Copies[&F] = Copy; // before stripping: recursive calls find the copy
  stripPromises(*Copy);
  return Copy;
}

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

static bool isObservable(Instruction &I, DenseMap<const Function *, bool> &Calls);

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

std::string sideEffectMayPrecede(Instruction &I) {
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
  for (Instruction &J : *Home) {
    if (&J == &I && !Before.count(Home))
      break;
    if (&J != &I && isObservable(J, Calls))
      return Describe(J);
  }
  for (BasicBlock *BB : Before)
    if (BB != Home)
      for (Instruction &J : *BB)
        if (isObservable(J, Calls))
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
