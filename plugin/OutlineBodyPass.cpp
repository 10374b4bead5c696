//===- OutlineBodyPass.cpp - The checked body in a function of its own ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "OutlineBodyPass.h"

#include "ColdExitPass.h"
#include "Compat.h"
#include "GuardMetadata.h"
#include "SubjectNames.h"
#include "UnalignedCopies.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard-outline-body"

STATISTIC(NumOutlined, "Checked functions whose body became a function");

namespace alignguard {
namespace {

/// The parameter attributes a tail call cannot pass on as they are.
const Attribute::AttrKind NotPassedOn[] = {
    Attribute::ByVal,     Attribute::InAlloca,   Attribute::Preallocated,
    Attribute::StructRet, Attribute::Nest,       Attribute::SwiftError,
    Attribute::SwiftSelf, Attribute::SwiftAsync, Attribute::ByRef};

/// Intrinsics whose answer depends on the frame they run in.
bool asksForItsFrame(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::returnaddress:
  case Intrinsic::addressofreturnaddress:
  case Intrinsic::frameaddress:
  case Intrinsic::sponentry:
  case Intrinsic::localescape:
  case Intrinsic::vastart:
    return true;
  default:
    return false;
  }
}

/// The successor of F's entry that is a cold exit only the entry reaches,
/// and (in Body) the other one, when F's entry is a check and nothing else.
BasicBlock *checkedEntry(Function &F, BasicBlock *&Body) {
  BasicBlock &Entry = F.getEntryBlock();
  auto *Br = dyn_cast<BranchInst>(Entry.getTerminator());
  if (!Br || !Br->isConditional())
    return nullptr;
  for (const Instruction &I : Entry) {
    if (&I == Br || I.isDebugOrPseudoInst())
      continue;
    // Computed again in the body: nothing that touches memory, calls,
    // has effects or holds a place in the frame.
    if (isa<CallBase>(I) || isa<AllocaInst>(I) || isa<PHINode>(I) ||
        I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
      return nullptr;
  }
  for (unsigned Cold = 0; Cold != 2; ++Cold) {
    BasicBlock *Fail = Br->getSuccessor(Cold);
    BasicBlock *Rest = Br->getSuccessor(1 - Cold);
    if (Fail != Rest && Rest != &Entry && Fail->getSinglePredecessor() &&
        isColdExit(*Fail)) {
      Body = Rest;
      return Fail;
    }
  }
  return nullptr;
}

/// Whether F's body can be called by a tail call with F's arguments and do
/// what it did in F.
bool canOutline(const Function &F) {
  // (An available_externally function's code is not emitted; its body's,
  // internal, would be.)
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage() || F.isVarArg() ||
      F.hasOptNone() || F.hasMinSize() || F.hasPrologueData() ||
      F.hasPrefixData() || F.hasFnAttribute(Attribute::Naked) ||
      F.hasFnAttribute("patchable-function-entry") ||
      F.hasFnAttribute("patchable-function-prefix") ||
      F.getFunctionType()->getReturnType()->isTokenTy() ||
      compat::isPresplitCoroutine(F))
    return false;
  for (const Argument &A : F.args())
    for (Attribute::AttrKind K : NotPassedOn)
      if (A.hasAttribute(K))
        return false;
  for (const BasicBlock &BB : F) {
    if (BB.hasAddressTaken())
      return false;
    for (const Instruction &I : BB)
      if (asksForItsFrame(I))
        return false;
  }
  return true;
}

/// F's entry is the check; the loop is what pays for a function of its own.
bool hasLoop(const Function &F) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  return !BackEdges.empty();
}

/// A copy of F that is F's body alone: its entry goes to Rest's copy.
Function *makeBody(Function &F, BasicBlock &Rest) {
  ValueToValueMapTy VMap;
  Function *Body = cloneInternal(F, BodySuffix, VMap);
  // Discarded with F's group when the linker picks another copy of F.
  Body->setComdat(F.getComdat());
  Body->removeFromParent();
  F.getParent()->getFunctionList().insertAfter(F.getIterator(), Body);

  BasicBlock &Entry = Body->getEntryBlock();
  auto *Check = cast<BranchInst>(Entry.getTerminator());
  auto *BodyRest = cast<BasicBlock>(VMap[&Rest]);
  for (BasicBlock *Succ : successors(&Entry))
    if (Succ != BodyRest)
      Succ->removePredecessor(&Entry);
  IRBuilder<> B(Check);
  B.CreateBr(BodyRest)->setDebugLoc(Check->getDebugLoc());
  Check->eraseFromParent();
  removeUnreachableBlocks(*Body);
  // The check's computations, which nothing uses now.
  for (Instruction &I : make_early_inc_range(reverse(Entry)))
    if (isInstructionTriviallyDead(&I))
      I.eraseFromParent();
  MergeBlockIntoPredecessor(BodyRest);
  return Body;
}

/// F's aligned side becomes a tail call of Body with F's own arguments.
void callBody(Function &F, BasicBlock &Rest, Function &Body) {
  LLVMContext &Ctx = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  auto *Check = cast<BranchInst>(Entry.getTerminator());
  BasicBlock *Aligned =
      BasicBlock::Create(Ctx, "alignguard.aligned", &F, &Rest);
  IRBuilder<> B(Aligned);
  SmallVector<Value *, 8> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&Body, Args);
  Call->setTailCallKind(CallInst::TCK_Tail);
  Call->setCallingConv(F.getCallingConv());
  Call->setAttributes(F.getAttributes().removeFnAttributes(Ctx));
  DebugLoc Loc = Check->getDebugLoc();
  if (!Loc)
    if (DISubprogram *SP = F.getSubprogram())
      Loc = DILocation::get(Ctx, 0, 0, SP);
  Call->setDebugLoc(Loc);
  markNoSanitize(Call);
  ReturnInst *Ret =
      F.getReturnType()->isVoidTy() ? B.CreateRetVoid() : B.CreateRet(Call);
  Ret->setDebugLoc(Loc);
  for (unsigned I = 0; I != Check->getNumSuccessors(); ++I)
    if (Check->getSuccessor(I) == &Rest)
      Check->setSuccessor(I, Aligned);
  Rest.removePredecessor(&Entry);
  removeUnreachableBlocks(F);
  for (Instruction &I : make_early_inc_range(reverse(Entry)))
    if (isInstructionTriviallyDead(&I))
      I.eraseFromParent();
  // The entry holds the check and the jumps; x86 makes the aligned side's
  // jump the check's branch itself (a conditional tail call) only in a
  // function optimised for size before LLVM 22.
  F.addFnAttr(Attribute::OptimizeForSize);
}

} // namespace

PreservedAnalyses OutlineBodyPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<Function *, BasicBlock *>, 8> Checked;
  for (Function &F : M) {
    BasicBlock *Rest = nullptr;
    if (!F.isDeclaration() && checkedEntry(F, Rest) && canOutline(F) &&
        hasLoop(F))
      Checked.emplace_back(&F, Rest);
  }
  for (auto [F, Rest] : Checked) {
    Function *Body = makeBody(*F, *Rest);
    callBody(*F, *Rest, *Body);
    ++NumOutlined;
  }
  return Checked.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace alignguard
