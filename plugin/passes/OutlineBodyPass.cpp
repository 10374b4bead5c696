//===- OutlineBodyPass.cpp - The checked body in a function of its own ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "OutlineBodyPass.h"

#include "ColdExitsPass.h"
#include "Compat.h"
#include "EntryPoints.h"
#include "GuardMarking.h"
#include "SubjectNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
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
/// and (in Rest) the other one, when F's entry is a check and nothing else.
BasicBlock *checkedEntry(Function &F, BasicBlock *&Rest) {
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
    BasicBlock *Other = Br->getSuccessor(1 - Cold);
    if (Fail != Other && Other != &Entry && Fail->getSinglePredecessor() &&
        !isa<PHINode>(Fail->front()) && isColdExit(*Fail)) {
      Rest = Other;
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
  if (F.hasAvailableExternallyLinkage() || F.isVarArg() || F.hasOptNone() ||
      F.hasMinSize() || F.hasPrologueData() || F.hasPrefixData() ||
      F.hasFnAttribute(Attribute::Naked) ||
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

/// Whether F has a loop inside another loop: what pays for a function of
/// its own. The check's entry block changed the register allocation of a
/// nest's outer loops (spills and reloads per row); a single loop's set-up
/// is within the limit without it, and a function of its own costs compile
/// time on modules of small kernels. Read from the back edges alone, without
/// a dominator tree or loops (most of this pass's time, had it built
/// them): a loop is nested in the one a back edge closes when its
/// header is among the blocks that reach the edge's latch without passing
/// the edge's header. (A vectorised loop and its remainder are two loops
/// one after the other: two back edges, no nest.)
bool hasLoopNest(const Function &F) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  SmallPtrSet<const BasicBlock *, 4> Headers;
  for (auto [Latch, Header] : BackEdges)
    Headers.insert(Header);
  if (Headers.size() < 2)
    return false;
  for (auto [Latch, Header] : BackEdges) {
    SmallPtrSet<const BasicBlock *, 16> InLoop{Header};
    SmallVector<const BasicBlock *, 16> Work{Latch};
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (!InLoop.insert(BB).second)
        continue;
      if (Headers.count(BB))
        return true;
      append_range(Work, predecessors(BB));
    }
  }
  return false;
}

/// L in Into's own scope: a location of the function Into was split from
/// (in a lexical block, or inlined there) becomes the line and column of
/// the call or statement of that function it is part of.
DebugLoc inScope(const DebugLoc &L, DISubprogram *Into) {
  if (!L || !Into)
    return DebugLoc();
  DILocation *Outer = L.get();
  while (DILocation *At = Outer->getInlinedAt())
    Outer = At;
  return DILocation::get(Into->getContext(), Outer->getLine(),
                         Outer->getColumn(), Into);
}

/// Moves F's check into a new function that takes F's place (its name, its
/// linkage, every use of it) and ends in a tail call of F, which is then
/// the body alone, internal and named for it: the instructions of the body,
/// the bulk of the function, stay where they are (cheap even on modules of
/// thousands of kernels), and only the entry and the failing side are
/// copied. Returns the new function.
/// A new function that takes F's place: F's name, linkage, attributes,
/// the metadata its symbol carries and every use of it; F is renamed for
/// its body. SP: the new function's subprogram (null without debug info).
Function *takeSymbol(Function &F, DISubprogram *&SP) {
  Module &M = *F.getParent();
  std::string Name = F.getName().str();
  F.setName(Name + BodySuffix);
  Function *Check = Function::Create(F.getFunctionType(), F.getLinkage(),
                                     F.getAddressSpace(), Name);
  M.getFunctionList().insert(F.getIterator(), Check);
  Check->copyAttributesFrom(&F);
  Check->setComdat(F.getComdat());
  // The check keeps a kernel's convention; the body, which it calls, takes
  // the device functions' (a kernel convention permits no calls).
  F.setCallingConv(calleeConvention(F.getCallingConv()));
  if (Check->hasPersonalityFn())
    Check->setPersonalityFn(nullptr);
  // What the symbol carries (CFI's !type, an entry count, ...), not the
  // body's debug information.
  SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
  F.getAllMetadata(MDs);
  for (auto [Kind, MD] : MDs)
    if (Kind != LLVMContext::MD_dbg) {
      Check->setMetadata(Kind, MD);
      if (Kind != LLVMContext::MD_prof)
        F.setMetadata(Kind, nullptr);
    }
  SP = nullptr;
  if (DISubprogram *BodySP = F.getSubprogram()) {
    TempDISubprogram Copy = BodySP->clone();
    compat::clearRetainedNodes(Copy);
    SP = MDNode::replaceWithDistinct(std::move(Copy));
    Check->setSubprogram(SP);
  }
  F.replaceAllUsesWith(Check);
  return Check;
}

/// Copies F's entry (the check) and its failing side Fail into Check; the
/// check's aligned side, Rest, becomes a block that tail-calls F.
/// Debug intrinsics are left out, and clone() copies no debug records
/// (their variables are the body's). The operands are F's arguments, the
/// copied instructions and constants: a map of those is all a copy needs
/// (a ValueMapper per instruction costs more than the copy).
void copyCheck(Function &F, Function &Check, BasicBlock &Fail, BasicBlock &Rest,
               DISubprogram *SP) {
  LLVMContext &Ctx = F.getContext();
  SmallDenseMap<Value *, Value *, 32> Map;
  for (auto [From, To] : zip(F.args(), Check.args())) {
    To.setName(From.getName());
    Map[&From] = &To;
  }
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock *CheckBB = BasicBlock::Create(Ctx, Entry.getName(), &Check);
  BasicBlock *FailBB = BasicBlock::Create(Ctx, Fail.getName(), &Check);
  BasicBlock *Aligned = BasicBlock::Create(Ctx, "alignguard.aligned", &Check);
  Map[&Fail] = FailBB;
  Map[&Rest] = Aligned;
  auto CopyInto = [&](BasicBlock &From, BasicBlock &To, bool WithTerminator) {
    IRBuilder<> At(&To);
    for (Instruction &I : From) {
      if (I.isDebugOrPseudoInst() || (I.isTerminator() && !WithTerminator))
        continue;
      Instruction *Copy = I.clone();
      At.Insert(Copy);
      Copy->setName(I.getName());
      Copy->setDebugLoc(inScope(I.getDebugLoc(), SP));
      for (Use &Op : Copy->operands()) {
        auto Known = Map.find(Op.get());
        if (Known != Map.end())
          Op.set(Known->second);
      }
      Map[&I] = Copy;
    }
  };
  CopyInto(Entry, *CheckBB, true);
  CopyInto(Fail, *FailBB, false);
  auto *Exit = cast<CallInst>(&*std::prev(FailBB->end()));
  IRBuilder<> B(FailBB);
  B.SetCurrentDebugLocation(Exit->getDebugLoc());
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Exit);

  B.SetInsertPoint(Aligned);
  DebugLoc Loc = CheckBB->getTerminator()->getDebugLoc();
  if (!Loc && SP)
    Loc = DILocation::get(Ctx, SP->getScopeLine(), 0, SP);
  B.SetCurrentDebugLocation(Loc);
  SmallVector<Value *, 8> Args;
  for (Argument &A : Check.args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&F, Args);
  Call->setTailCallKind(CallInst::TCK_Tail);
  Call->setCallingConv(F.getCallingConv());
  Call->setAttributes(F.getAttributes().removeFnAttributes(Ctx));
  markNoSanitize(Call);
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
}

/// Moves F's check into a new function that takes F's place (its name, its
/// linkage, every use of it) and ends in a tail call of F, which is then
/// the body alone, internal and named for it: the instructions of the body,
/// the bulk of the function, stay where they are (cheap even on modules of
/// thousands of kernels), and only the entry and the failing side are
/// copied. Returns the new function.
Function *splitEntry(Function &F, BasicBlock &Fail, BasicBlock &Rest) {
  DISubprogram *SP;
  Function *Check = takeSymbol(F, SP);
  copyCheck(F, *Check, Fail, Rest, SP);
  // The entry holds the check and the jumps; x86 makes the aligned side's
  // jump the check's branch itself (a conditional tail call) only in a
  // function optimised for size before LLVM 22.
  Check->addFnAttr(Attribute::OptimizeForSize);

  // F is the body alone now.
  F.setLinkage(GlobalValue::InternalLinkage);
  F.setVisibility(GlobalValue::DefaultVisibility);
  F.setDLLStorageClass(GlobalValue::DefaultStorageClass);
  F.removeFnAttr(EntryAttr);
  BasicBlock &Entry = F.getEntryBlock();
  auto *Br = cast<BranchInst>(Entry.getTerminator());
  IRBuilder<>(Br).CreateBr(&Rest)->setDebugLoc(Br->getDebugLoc());
  Br->eraseFromParent();
  DeleteDeadBlock(&Fail);
  for (Instruction &I : make_early_inc_range(reverse(Entry)))
    if (isInstructionTriviallyDead(&I))
      I.eraseFromParent();
  MergeBlockIntoPredecessor(&Rest);
  return Check;
}

} // namespace

PreservedAnalyses OutlineBodyPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::tuple<Function *, BasicBlock *, BasicBlock *>, 8> Checked;
  for (Function &F : M) {
    BasicBlock *Rest = nullptr;
    if (F.isDeclaration())
      continue;
    if (BasicBlock *Fail = checkedEntry(F, Rest))
      if (canOutline(F) && hasLoopNest(F))
        Checked.emplace_back(&F, Fail, Rest);
  }
  for (auto [F, Fail, Rest] : Checked) {
    splitEntry(*F, *Fail, *Rest);
    ++NumOutlined;
  }
  return Checked.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace alignguard
