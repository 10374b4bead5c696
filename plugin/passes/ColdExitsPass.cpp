//===- ColdExitsPass.cpp - Take the failing side's calls off the hot path -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ColdExitsPass.h"

#include "Compat.h"
#include "EntryPoints.h"
#include "GuardMarking.h"
#include "RuntimeABI.h"
#include "SubjectNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <map>
#include <tuple>

using namespace llvm;

#define DEBUG_TYPE "align-guard-cold-exits"

STATISTIC(NumTailExits, "Failing sides that leave through a tail call");

namespace alignguard {
namespace {

/// The attributes of a return value that decide how it is passed back: a
/// thunk that returns for F must extend it the way F's callers expect.
const Attribute::AttrKind ReturnABIAttrs[] = {Attribute::SExt, Attribute::ZExt};

/// T in a shared thunk's name; empty when T cannot be named that way (then
/// the module gets a private thunk).
std::string typeSuffix(Type *T) {
  if (T->isVoidTy())
    return "void";
  if (auto *IT = dyn_cast<IntegerType>(T))
    return "i" + utostr(IT->getBitWidth());
  if (T->isHalfTy())
    return "f16";
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  if (T->isPointerTy() && !compat::isTypedPointer(T))
    return "p" + utostr(T->getPointerAddressSpace());
  return "";
}

/// Where a failing side leaves the function: a hook call and the
/// instruction after it that makes the exit.
struct ColdExit {
  CallInst *Hook;     ///< the runtime call
  Instruction *Leave; ///< what ends the hook's block: replaced by a `ret`
  Instruction *Final; ///< `unreachable` (abort), `ret`, or `br` to a `ret`
  Value *Returned;    ///< what the function returns there (null: void)
  CallInst *Copy = nullptr; ///< fallback: the call of the unaligned copy,
  /// in the hook's block or, when the optimiser made one call of the copy
  /// for several failing sides, in the block Via they branch to;
  BasicBlock *Via = nullptr;
  SmallVector<Value *, 8> CopyArgs; ///< its arguments from the hook's block
};

class Rewriter {
public:
  explicit Rewriter(Module &M) : M(M), Ctx(M.getContext()) {}
  bool run();

private:
  /// The functions with checks that leave or rerun: those that call a
  /// hook or a recover copy (before the rewrite moves the calls).
  SmallVector<Function *, 8> checkingFunctions() const;
  std::vector<ColdExit> findExits(StringRef HookName) const;
  bool rewrite(const ColdExit &E);
  /// The shared thunk that calls Hook with its four arguments, then
  /// returns Value (or does not return, after the abort hook).
  Function *sharedThunk(Function &Hook, Function &For, ConstantInt *RetValue);
  /// The thunk of a fallback: the hook, then the copy; constant arguments
  /// are made inside it, the others passed.
  Function *fallbackThunk(const ColdExit &E, ArrayRef<Value *> Passed);
  void finishThunk(Function &Thunk, Function &For);
  /// finishThunk for a thunk that calls a copy of For (fallback, rerun).
  void finishCopyThunk(Function &Thunk, Function &For);
  /// Recover's reruns (FailurePolicy::Rerun) whose call of the recover
  /// copy no longer ends the function: each goes into a thunk that makes
  /// it and returns the constant the function returned.
  bool rewriteReruns();

  Module &M;
  LLVMContext &Ctx;
  std::map<std::tuple<Function *, Type *, std::string>, Function *> Private;
  std::map<std::vector<Value *>, Function *> Fallbacks;
  /// The module's recover copies with a body (SubjectNames.h).
  SmallVector<Function *, 4> RecoverCopies;
};

/// I, or the first instruction after it that is not a debug intrinsic
/// (LLVM before 19 keeps them as instructions).
Instruction *realFrom(Instruction *I) {
  while (I && I->isDebugOrPseudoInst())
    I = I->getNextNode();
  return I;
}

/// The instruction after I, debug intrinsics skipped.
Instruction *nextReal(Instruction *I) { return realFrom(I->getNextNode()); }

/// Puts each `or` of a check's addresses in F back in the order the
/// emitter wrote (PlaceChecks.cpp, anyFails): the new address first, the
/// running value second. InstCombine puts the more complex operand first,
/// so a check emitted at once (fallback, recover's rerun) reaches the code
/// generator as `or (or a, b), c`, and x86 then copies c when it stays
/// live: one instruction per place over the limit. No form InstCombine
/// keeps avoids it (with three addresses one `or` has an address beside an
/// `or`, which it puts first; `llvm.vector.reduce.or` goes through vector
/// registers), and this pass runs after the optimiser, just before code
/// generation. Swapping a commutative instruction's operands changes
/// nothing else.
bool orderCheckOrs(Function &F) {
  auto IsOr = [](const Value *V) {
    auto *BO = dyn_cast<BinaryOperator>(V);
    return BO && BO->getOpcode() == Instruction::Or;
  };
  bool Changed = false;
  for (Instruction &I : instructions(F))
    if (IsOr(&I) && IsOr(I.getOperand(0)) && !IsOr(I.getOperand(1)) &&
        I.getOperand(0)->hasOneUse() && isNoSanitize(I) &&
        isNoSanitize(*cast<Instruction>(I.getOperand(0))))
      Changed |= !cast<BinaryOperator>(I).swapOperands();
  return Changed;
}

/// Whether I leaves the function: a `ret`, or a branch to a block that only
/// returns (the optimiser merges a function's `ret void`s into one). Sets
/// Returned to the value returned when coming from I's block.
bool returnsAt(Instruction *I, Value *&Returned) {
  auto *Ret = dyn_cast_or_null<ReturnInst>(I);
  auto *Br = dyn_cast_or_null<BranchInst>(I);
  if (Br && Br->isUnconditional()) {
    Ret = dyn_cast_or_null<ReturnInst>(
        realFrom(compat::firstNonPHI(*Br->getSuccessor(0))));
  }
  if (!Ret)
    return false;
  Returned = Ret->getReturnValue();
  if (Ret == I)
    return true;
  // Only the `ret` and the phi it returns.
  BasicBlock *Exit = Ret->getParent();
  auto *Phi = dyn_cast_or_null<PHINode>(Returned);
  for (Instruction &J : *Exit)
    if (&J != Ret && &J != Phi && !J.isDebugOrPseudoInst())
      return false;
  if (Phi)
    Returned = Phi->getIncomingValueForBlock(I->getParent());
  return !Returned || !isa<Instruction>(Returned) ||
         cast<Instruction>(Returned)->getParent() != Exit;
}

/// Whether Call's arguments (Args, as the thunk's caller has them) can be
/// passed on by a tail call: none whose place in memory is the call's own,
/// none pointing into the caller's frame, which the tail call ends.
bool canPassOn(const CallInst &Call, ArrayRef<Value *> Args) {
  for (unsigned I = 0, N = Call.arg_size(); I != N; ++I)
    if (Call.isByValArgument(I) || Call.isInAllocaArgument(I) ||
        Call.paramHasAttr(I, Attribute::Preallocated) ||
        Call.paramHasAttr(I, Attribute::SwiftError) ||
        isa<AllocaInst>(getUnderlyingObject(Args[I])))
      return false;
  return true;
}

std::vector<ColdExit> Rewriter::findExits(StringRef HookName) const {
  std::vector<ColdExit> Exits;
  Function *Hook = M.getFunction(HookName);
  if (!Hook)
    return Exits;
  for (User *U : Hook->users()) {
    auto *CI = dyn_cast<CallInst>(U);
    // Only align-guard's own calls, and none in an EH funclet.
    if (!CI || CI->getCalledOperand() != Hook || !isNoSanitize(*CI) ||
        CI->getNumOperandBundles() || CI->isMustTailCall())
      continue;
    Function &F = *CI->getFunction();
    if (compat::isPresplitCoroutine(F))
      continue;
    ColdExit E{CI, nextReal(CI), nextReal(CI), nullptr};
    if (isa_and_nonnull<UnreachableInst>(E.Final)) {
      if (!isAbortHookName(HookName))
        continue;
    } else if (returnsAt(E.Final, E.Returned)) {
      // The hook, then a `ret` of a constant (return=N; a fallback copy
      // the optimiser folded) or `ret void`.
      if (E.Returned && !isa<ConstantInt>(E.Returned))
        continue;
    } else if (isFallbackHookName(HookName)) {
      // The hook, then the copy (here, or in the block all failing sides
      // branch to), whose result is returned.
      Instruction *Next = E.Leave;
      auto *Br = dyn_cast_or_null<BranchInst>(Next);
      if (Br && Br->isUnconditional()) {
        E.Via = Br->getSuccessor(0);
        Next = realFrom(compat::firstNonPHI(*E.Via));
      }
      auto *Copy = dyn_cast_or_null<CallInst>(Next);
      Function *Callee = Copy ? Copy->getCalledFunction() : nullptr;
      // The copy align-guard made (UnalignedCopies.h), which the optimiser
      // may have merged for several sides (and with it their !nosanitize).
      if (!Callee || Callee->isDeclaration() ||
          !Callee->hasFnAttribute(NoAlignGuardAttr) ||
          Copy->getNumOperandBundles() || Copy->isMustTailCall())
        continue;
      E.Copy = Copy;
      for (Value *V : Copy->args()) {
        auto *Phi = dyn_cast<PHINode>(V);
        E.CopyArgs.push_back(
            Phi && Phi->getParent() == E.Via
                ? Phi->getIncomingValueForBlock(CI->getParent())
                : V);
      }
      E.Final = nextReal(Copy);
      if (!E.Via)
        E.Leave = E.Final;
      // It returns the copy's result, or a constant the optimiser found
      // the copy returns.
      if (!returnsAt(E.Final, E.Returned) ||
          (E.Returned && E.Returned != Copy && !isa<Constant>(E.Returned)))
        continue;
      if (!canPassOn(*Copy, E.CopyArgs))
        continue;
    } else {
      continue;
    }
    Exits.push_back(E);
  }
  return Exits;
}

void Rewriter::finishThunk(Function &Thunk, Function &For) {
  Thunk.addFnAttr(Attribute::NoInline);
  Thunk.addFnAttr(Attribute::Cold);
  if (For.hasFnAttribute(Attribute::UWTable))
    Thunk.addFnAttr(For.getFnAttribute(Attribute::UWTable));
  for (Attribute::AttrKind K : ReturnABIAttrs)
    if (For.hasRetAttribute(K))
      Thunk.addRetAttr(K);
}

void Rewriter::finishCopyThunk(Function &Thunk, Function &For) {
  finishThunk(Thunk, For);
  // It passes vectors on to the copy as For would: For's target features.
  for (StringRef Kind : {"target-cpu", "target-features", "tune-cpu"})
    if (For.hasFnAttribute(Kind))
      Thunk.addFnAttr(For.getFnAttribute(Kind));
}

Function *Rewriter::sharedThunk(Function &Hook, Function &For,
                                ConstantInt *RetValue) {
  Type *RetTy = For.getReturnType();
  bool Abort = isAbortHookName(Hook.getName());
  std::string Suffix = typeSuffix(RetTy);
  for (Attribute::AttrKind K : ReturnABIAttrs)
    if (For.hasRetAttribute(K))
      Suffix += K == Attribute::SExt ? ".sext" : ".zext";
  if (RetValue) {
    std::string V = toString(RetValue->getValue(), 10, /*Signed=*/true);
    Suffix += "." + (V[0] == '-' ? "m" + V.substr(1) : V);
  }
  FunctionType *FT =
      FunctionType::get(RetTy, Hook.getFunctionType()->params(), false);
  std::string Prefix = (Hook.getName() + ".thunk").str();
  std::string Name = Prefix + "." + Suffix;
  bool Shared = !typeSuffix(RetTy).empty();
  if (Shared) {
    if (Function *Existing = M.getFunction(Name))
      if (Existing->getFunctionType() == FT && !Existing->isDeclaration())
        return Existing;
    if (M.getNamedValue(Name))
      Shared = false; // the name is taken by something else
  }
  Function *&Slot = Private[{&Hook, RetTy, Suffix}];
  if (!Shared && Slot)
    return Slot;
  Function *Thunk = Function::Create(FT,
                                     Shared ? GlobalValue::LinkOnceODRLinkage
                                            : GlobalValue::PrivateLinkage,
                                     Shared ? Name : Prefix, &M);
  if (Shared) {
    // One per linked program or library, like an inline function's body.
    Thunk->setVisibility(GlobalValue::HiddenVisibility);
    if (compat::targetTriple(M).supportsCOMDAT())
      Thunk->setComdat(M.getOrInsertComdat(Name));
  } else {
    Slot = Thunk;
  }
  Thunk->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  finishThunk(*Thunk, For);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Thunk));
  SmallVector<Value *, 4> Args;
  for (Argument &A : Thunk->args())
    Args.push_back(&A);
  B.CreateCall(&Hook, Args);
  if (Abort && !RetValue)
    B.CreateUnreachable();
  else if (RetValue)
    B.CreateRet(RetValue);
  else
    B.CreateRetVoid();
  return Thunk;
}

/// AL with the parameter attributes of a fallback thunk: the arguments
/// passed to the copy keep the ones they had on its call (byval, noalias,
/// ...); the hook's get none.
AttributeList passedAttributes(const ColdExit &E, AttributeList AL) {
  SmallVector<AttributeSet, 8> Params;
  AttributeList CopyAL = E.Copy->getAttributes();
  for (unsigned I = 0, N = E.CopyArgs.size(); I != N; ++I)
    if (!isa<Constant>(E.CopyArgs[I]))
      Params.push_back(CopyAL.getParamAttrs(I));
  return AttributeList::get(E.Copy->getContext(), AL.getFnAttrs(),
                            AL.getRetAttrs(), Params);
}

Function *Rewriter::fallbackThunk(const ColdExit &E, ArrayRef<Value *> Passed) {
  // The key: the copy, then every argument, constant or (passed) null.
  std::vector<Value *> Key{E.Copy->getCalledFunction(),
                           E.Returned == E.Copy ? nullptr : E.Returned};
  for (Value *V : E.CopyArgs)
    Key.push_back(isa<Constant>(V) ? V : nullptr);
  for (Value *V : E.Hook->args())
    Key.push_back(isa<Constant>(V) ? V : nullptr);
  Function *&Slot = Fallbacks[Key];
  if (Slot)
    return Slot;
  Function &F = *E.Hook->getFunction();
  SmallVector<Type *, 8> Params;
  for (Value *V : Passed)
    Params.push_back(V->getType());
  Type *RetTy = F.getReturnType();
  Function *Thunk = Function::Create(FunctionType::get(RetTy, Params, false),
                                     GlobalValue::PrivateLinkage,
                                     F.getName() + ".alignguard.fallback", &M);
  finishCopyThunk(*Thunk, F);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Thunk));
  auto Next = Thunk->arg_begin();
  auto Remade = [&](Value *V) -> Value * {
    return isa<Constant>(V) ? V : &*Next++;
  };
  SmallVector<Value *, 8> CopyArgs, HookArgs;
  for (Value *V : E.CopyArgs)
    CopyArgs.push_back(Remade(V));
  for (Value *V : E.Hook->args())
    HookArgs.push_back(Remade(V));
  // The order of the block: the hook (which may end the program), then the
  // copy.
  CallInst *Hook = B.CreateCall(E.Hook->getFunctionType(),
                                E.Hook->getCalledOperand(), HookArgs);
  Hook->setAttributes(E.Hook->getAttributes());
  CallInst *Copy = B.CreateCall(E.Copy->getFunctionType(),
                                E.Copy->getCalledOperand(), CopyArgs);
  Copy->setAttributes(E.Copy->getAttributes());
  Copy->setCallingConv(E.Copy->getCallingConv());
  Copy->setTailCallKind(CallInst::TCK_Tail);
  if (RetTy->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(E.Returned == E.Copy ? Copy : E.Returned);
  Thunk->setAttributes(passedAttributes(E, Thunk->getAttributes()));
  return Slot = Thunk;
}

/// Ends Leave's block with `ret (tail call Thunk(Args))` in place of
/// Leave (a `ret`, or a branch to a block that only returns), which goes;
/// the call has From's location and is instrumentation, the `ret` Leave's.
CallInst *exitThrough(Function &Thunk, ArrayRef<Value *> Args,
                      Instruction *Leave, const CallInst &From) {
  IRBuilder<> B(Leave);
  CallInst *Call = B.CreateCall(&Thunk, Args);
  Call->setDebugLoc(From.getDebugLoc());
  markNoSanitize(Call);
  Call->setTailCallKind(CallInst::TCK_Tail);
  ReturnInst *Ret =
      Thunk.getReturnType()->isVoidTy() ? B.CreateRetVoid() : B.CreateRet(Call);
  Ret->setDebugLoc(Leave->getDebugLoc());
  if (auto *Br = dyn_cast<BranchInst>(Leave))
    Br->getSuccessor(0)->removePredecessor(Leave->getParent());
  Leave->eraseFromParent();
  return Call;
}

bool Rewriter::rewrite(const ColdExit &E) {
  Function &F = *E.Hook->getFunction();
  Function *Thunk = nullptr;
  SmallVector<Value *, 8> Args;
  if (E.Copy) {
    for (Value *V : E.CopyArgs)
      if (!isa<Constant>(V))
        Args.push_back(V);
    for (Value *V : E.Hook->args())
      if (!isa<Constant>(V))
        Args.push_back(V);
    Thunk = fallbackThunk(E, Args);
  } else {
    auto *RetValue = cast_or_null<ConstantInt>(E.Returned);
    Thunk = sharedThunk(*E.Hook->getCalledFunction(), F, RetValue);
    Args.append(E.Hook->arg_begin(), E.Hook->arg_end());
  }
  CallInst *Call = exitThrough(*Thunk, Args, E.Leave, *E.Hook);
  if (E.Copy)
    Call->setAttributes(passedAttributes(E, Call->getAttributes()));
  for (Attribute::AttrKind K : ReturnABIAttrs)
    if (F.hasRetAttribute(K))
      Call->addRetAttr(K);
  if (E.Copy && !E.Via)
    E.Copy->eraseFromParent();
  E.Hook->eraseFromParent();
  // The shared call of the copy, once no failing side branches to it.
  if (E.Via && pred_empty(E.Via))
    DeleteDeadBlock(E.Via);
  ++NumTailExits;
  return true;
}

bool Rewriter::rewriteReruns() {
  // The optimiser found the copy returns a constant: it returns that from
  // the function, after the call, and made the copy return nothing, so the
  // call is no longer in tail position and needs a frame on the entry.
  std::vector<std::pair<CallInst *, Constant *>> Reruns;
  for (Function *CopyPtr : RecoverCopies) {
    Function &Copy = *CopyPtr;
    for (User *U : Copy.users()) {
      auto *CI = dyn_cast<CallInst>(U);
      Value *Returned = nullptr;
      // The function's own call of its copy (DeadArgElim, which remade it,
      // dropped its !nosanitize); not a copy's call of a callee's clone.
      if (!CI || CI->getCalledOperand() != &Copy ||
          CI->getFunction()->getName() != sourceFunctionName(Copy) ||
          CI->getNumOperandBundles() || CI->isMustTailCall() ||
          !CI->use_empty() || !returnsAt(nextReal(CI), Returned) || !Returned ||
          !isa<Constant>(Returned))
        continue;
      SmallVector<Value *, 8> Args(CI->args());
      if (canPassOn(*CI, Args))
        Reruns.emplace_back(CI, cast<Constant>(Returned));
    }
  }
  for (auto [CI, Returned] : Reruns) {
    Function &F = *CI->getFunction();
    SmallVector<Type *, 8> Params;
    SmallVector<Value *, 8> Args(CI->args());
    for (Value *V : Args)
      Params.push_back(V->getType());
    Function *Thunk = Function::Create(
        FunctionType::get(F.getReturnType(), Params, false),
        GlobalValue::PrivateLinkage, F.getName() + ".alignguard.rerun", &M);
    finishCopyThunk(*Thunk, F);
    AttributeList CallAL = CI->getAttributes();
    SmallVector<AttributeSet, 8> ParamAttrs;
    for (unsigned I = 0, N = Args.size(); I != N; ++I)
      ParamAttrs.push_back(CallAL.getParamAttrs(I));
    Thunk->setAttributes(
        AttributeList::get(Ctx, Thunk->getAttributes().getFnAttrs(),
                           Thunk->getAttributes().getRetAttrs(), ParamAttrs));
    IRBuilder<> TB(BasicBlock::Create(Ctx, "", Thunk));
    SmallVector<Value *, 8> Forwarded;
    for (Argument &A : Thunk->args())
      Forwarded.push_back(&A);
    CallInst *Copy =
        TB.CreateCall(CI->getFunctionType(), CI->getCalledOperand(), Forwarded);
    Copy->setAttributes(CallAL);
    Copy->setCallingConv(CI->getCallingConv());
    Copy->setTailCallKind(CallInst::TCK_Tail);
    TB.CreateRet(Returned);

    exitThrough(*Thunk, Args, nextReal(CI), *CI)
        ->setAttributes(Thunk->getAttributes());
    CI->eraseFromParent();
    ++NumTailExits;
  }
  return !Reruns.empty();
}

SmallVector<Function *, 8> Rewriter::checkingFunctions() const {
  SetVector<Function *> Found;
  for (StringRef Name : hookNames())
    if (Function *Hook = M.getFunction(Name))
      for (User *U : Hook->users())
        if (auto *CI = dyn_cast<CallInst>(U))
          Found.insert(CI->getFunction());
  for (Function *Copy : RecoverCopies)
    for (User *U : Copy->users())
      if (auto *CI = dyn_cast<CallInst>(U))
        Found.insert(CI->getFunction());
  return SmallVector<Function *, 8>(Found.begin(), Found.end());
}

bool Rewriter::run() {
  for (Function &F : M)
    if (!F.isDeclaration() && isRecoverCopy(F))
      RecoverCopies.push_back(&F);
  bool Changed = false;
  for (Function *F : checkingFunctions())
    Changed |= orderCheckOrs(*F);
  Changed |= rewriteReruns();
  for (StringRef Name : hookNames())
    for (const ColdExit &E : findExits(Name))
      Changed |= rewrite(E);
  return Changed;
}

} // namespace

bool isColdExit(const BasicBlock &BB) {
  auto *Leave = const_cast<Instruction *>(BB.getTerminator());
  Value *Returned = nullptr;
  if (!Leave || !returnsAt(Leave, Returned))
    return false;
  const Instruction *Prev = Leave->getPrevNode();
  while (Prev && Prev->isDebugOrPseudoInst())
    Prev = Prev->getPrevNode();
  auto *Call = dyn_cast_or_null<CallInst>(Prev);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !Call->isTailCall() || (Returned && Returned != Call))
    return false;
  // A thunk this pass made, or recover's rerun of the call in the
  // function's recover copy, which needs no thunk when it ends the function.
  if (isNoSanitize(*Call) && Callee->hasFnAttribute(Attribute::Cold))
    return true;
  return isRecoverCopy(*Callee) && !Callee->isDeclaration() &&
         sourceFunctionName(*Callee) == BB.getParent()->getName();
}

PreservedAnalyses ColdExitsPass::run(Module &M, ModuleAnalysisManager &) {
  return Rewriter(M).run() ? PreservedAnalyses::none()
                           : PreservedAnalyses::all();
}

} // namespace alignguard
