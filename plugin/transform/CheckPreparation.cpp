//===- CheckPreparation.cpp - The IR changes that must precede planning ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "CheckPreparation.h"

#include "CheckPlanner.h"
#include "Compat.h"
#include "CopySafety.h"
#include "IRShapes.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace alignguard {

/// Gives every loop around one of Promises a preheader (the dominator tree
/// and loops of F, the promises' function, kept up to date).
static bool insertPreheaders(ArrayRef<const AlignmentPromise *> Promises,
                             Function &F, FunctionAnalysisManager &FAM,
                             LazyLoopInfo &LI) {
  bool Changed = false;
  for (const AlignmentPromise *A : Promises)
    for (Loop *L = loopFor(LI, A->Inst->getParent()); L; L = L->getParentLoop())
      if (!L->getLoopPreheader())
        Changed |= InsertPreheaderForLoop(
                       L, &FAM.getResult<DominatorTreeAnalysis>(F), &LI.get(),
                       nullptr, /*PreserveLCSSA=*/false) != nullptr;
  return Changed;
}

/// Puts F's promotable allocas in registers, as SROA's first step does at
/// -O1 and up: at pipeline start clang's induction variables are still in
/// memory, and ScalarEvolution reads a row pointer `img + y*stride` as
/// affine only once `y` is a value. Not under optnone (-O0 keeps its
/// variables in memory, and its checks at the assumes), and not a slot
/// whose load is itself a promised pointer: the load names the promise
/// (in reports and in the audit), and would become a phi. Nor a slot an
/// assume's operand bundle names: promotion drops such a use by retagging
/// its bundle "ignore" with every operand kept (Value::dropDroppableUse),
/// and an "align" bundle with an offset becomes a three-operand "ignore"
/// the verifier rejects (`too many arguments`).
static bool namedByAssume(const AllocaInst *AI) {
  return llvm::any_of(AI->users(),
                      [](const User *U) { return isa<AssumeInst>(U); });
}

static bool promoteAllocas(Function &F, ArrayRef<AlignmentPromise> Promises,
                           FunctionAnalysisManager &FAM) {
  if (F.hasOptNone())
    return false;
  SmallPtrSet<const Value *, 8> Named;
  for (const AlignmentPromise &A : Promises)
    if (auto *Load = dyn_cast_or_null<LoadInst>(
            A.Pointer ? A.Pointer->stripPointerCasts() : nullptr))
      Named.insert(Load->getPointerOperand()->stripPointerCasts());
  std::vector<AllocaInst *> Allocas;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (!Named.count(AI) && !namedByAssume(AI) && isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (Allocas.empty())
    return false;
  PromoteMemToReg(Allocas, FAM.getResult<DominatorTreeAnalysis>(F),
                  &FAM.getResult<AssumptionAnalysis>(F));
  return true;
}

/// Where an `extractvalue` of Agg can go so that every read of the field
/// is one value before any loop: right after Agg is defined; null when
/// there is no such place (Agg made by a terminator, or a constant).
static Instruction *afterDefinition(Value *Agg, Function &F) {
  if (isa<Argument>(Agg))
    return entryInsertionPoint(F); // after the static allocas
  auto *Def = dyn_cast<Instruction>(Agg);
  if (!Def || Def->isTerminator())
    return nullptr;
  if (isa<PHINode>(Def) || Def->isEHPad()) {
    BasicBlock::iterator It = Def->getParent()->getFirstInsertionPt();
    return It == Def->getParent()->end() ? nullptr : &*It;
  }
  return Def->getNextNode();
}

/// Makes every pointer read from an aggregate field one value, defined
/// where the aggregate is (what EarlyCSE and LICM would do): a field of an
/// insertvalue chain becomes the inserted value (MLIR's memref descriptor
/// built from arguments), and the reads of one field of another aggregate
/// (a descriptor passed by value or loaded) become one read right after
/// the aggregate's definition. ScalarEvolution then sees the address as
/// loop-invariant, and the check can be hoisted.
static bool readFieldsOnce(Function &F) {
  SmallVector<ExtractValueInst *, 8> Reads;
  for (Instruction &I : instructions(F))
    if (auto *EV = dyn_cast<ExtractValueInst>(&I))
      if (EV->getType()->isPointerTy())
        Reads.push_back(EV);
  bool Changed = false;
  DenseMap<std::pair<Value *, ArrayRef<unsigned>>, ExtractValueInst *> First;
  for (ExtractValueInst *EV : Reads) {
    Value *Agg = EV->getAggregateOperand();
    if (Value *Inserted = FindInsertedValue(Agg, EV->getIndices())) {
      EV->replaceAllUsesWith(Inserted);
      EV->eraseFromParent();
      Changed = true;
      continue;
    }
    Instruction *At = afterDefinition(Agg, F);
    if (!At)
      continue;
    auto Key = std::make_pair(Agg, EV->getIndices());
    auto [It, New] = First.try_emplace(Key, EV);
    if (New) {
      if (EV->getNextNode() != At && EV != At) {
        EV->moveBefore(*At->getParent(), At->getIterator());
        Changed = true;
      }
      continue;
    }
    EV->replaceAllUsesWith(It->second);
    EV->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

bool prepareReturnPromises(Module &M, bool TypeAlignment) {
  bool Changed = false;
  for (Function &Callee : M) {
    if (Callee.isIntrinsic())
      continue;
    LLVMContext &Ctx = Callee.getContext();
    AttributeList Attrs = Callee.getAttributes();
    MaybeAlign RetAlign = Attrs.getRetAlignment();
    bool MoveAlign =
        RetAlign && (TypeAlignment ||
                     !isTypeAlignment(Attrs, /*ArgNo=*/-1, RetAlign->value()));
    std::optional<unsigned> AllocAlign = compat::allocAlignParam(Callee);
    if (!MoveAlign && !AllocAlign)
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : Callee.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledFunction() == &Callee)
          Calls.push_back(CB);
    // Without calls there is nothing to move, and a definition's promise
    // stays for the audit. LLVM knows a library allocator's alignment on
    // its own: no check of its calls can stand, so nothing moves
    // (CheckPlanner).
    if (Calls.empty() || any_of(Calls, [](CallBase *CB) {
          return isLibraryAlignedAllocator(*CB);
        }))
      continue;
    for (CallBase *CB : Calls) {
      if (MoveAlign && !CB->getAttributes().getRetAlignment())
        CB->addRetAttr(Attribute::getWithAlignment(Ctx, *RetAlign));
      if (AllocAlign && *AllocAlign < CB->arg_size())
        compat::addAllocAlignParam(*CB, *AllocAlign);
    }
    if (MoveAlign)
      Callee.removeRetAttr(Attribute::Alignment);
    if (AllocAlign)
      Callee.setAttributes(compat::withoutAllocAlign(
          Ctx, Callee.getAttributes(), Callee.arg_size()));
    Changed = true;
  }
  return Changed;
}

/// Gives each invoke whose result is checked a normal destination that it
/// alone reaches, so that the check there runs only after it.
static bool splitInvokeDestinations(ArrayRef<AlignmentPromise> Promises) {
  bool Changed = false;
  for (const AlignmentPromise &A : Promises)
    if (auto *Invoke = dyn_cast_or_null<InvokeInst>(A.Inst))
      if (A.Kind == PromiseKind::ReturnAttr && A.isSupported() &&
          !A.isTrivial() && !Invoke->getNormalDest()->getSinglePredecessor()) {
        SplitEdge(Invoke->getParent(), Invoke->getNormalDest());
        Changed = true;
      }
  return Changed;
}

bool hasAssumeInLoop(ArrayRef<AlignmentPromise> Promises, LazyLoopInfo &LI) {
  return any_of(Promises, [&](const AlignmentPromise &A) {
    return A.Kind == PromiseKind::AssumeBundle && A.isSupported() &&
           !A.isTrivial() && !A.Guarded && loopFor(LI, A.Inst->getParent());
  });
}

bool prepareForChecks(Function &F, ArrayRef<AlignmentPromise> Promises,
                      bool Fallback, UnalignedCopies &Copies,
                      FunctionAnalysisManager &FAM) {
  SmallVector<const AlignmentPromise *, 8> Accesses, Loads, Assumes;
  bool Checkable = false;
  for (const AlignmentPromise &A : Promises) {
    if (!A.isSupported() || A.isTrivial() || A.Guarded)
      continue;
    Checkable = true;
    if (A.Kind == PromiseKind::Access)
      Accesses.push_back(&A);
    else if (A.Kind == PromiseKind::LoadMetadata)
      Loads.push_back(&A);
    else if (A.Kind == PromiseKind::AssumeBundle)
      Assumes.push_back(&A);
  }
  if (Fallback && Checkable && whyNotForwardable(F).empty())
    Copies.getOrCreate(F);
  bool Changed = splitInvokeDestinations(Promises);
  if (Changed) // a new block: the dominator tree and loops read below
    FAM.invalidate(F, PreservedAnalyses::none());
  // F's loops from here on, made for the first promise outside the entry
  // block. (What changes F below keeps them up to date.)
  LazyLoopInfo LI = lazily<LoopAnalysis>(FAM, F);
  // An assume's check can go before its loop when its address is affine
  // there (CheckPlanner): the induction variable must be a value.
  if (hasAssumeInLoop(Promises, LI) && promoteAllocas(F, Promises, FAM)) {
    // The CFG is the same: only what reads instructions is stale.
    PreservedAnalyses PA;
    PA.preserve<DominatorTreeAnalysis>();
    PA.preserve<LoopAnalysis>();
    FAM.invalidate(F, PA);
    Changed = true;
  }
  // A loaded pointer's or an assume's check can go before its loop.
  SmallVector<const AlignmentPromise *, 8> BeforeLoops(Loads);
  BeforeLoops.append(Assumes.begin(), Assumes.end());
  Changed |= insertPreheaders(BeforeLoops, F, FAM, LI);
  if (Accesses.empty())
    return Changed;
  Changed |= readFieldsOnce(F);
  Changed |= markDisjointOrs(F);
  Changed |= insertPreheaders(Accesses, F, FAM, LI);
  return Changed;
}

void withPreparedCopy(Function &F, bool IsEntry, bool Accesses, bool Loads,
                      FunctionAnalysisManager &FAM,
                      function_ref<void(Function &Copy)> Use) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  CollectScope Scope;
  Scope.Accesses = Accesses;
  Scope.Loads = Loads;
  UnalignedCopies NoCopies;
  if (prepareForChecks(*Copy, collectAlignmentPromises(*Copy, IsEntry, Scope),
                       /*Fallback=*/false, NoCopies, FAM))
    FAM.invalidate(*Copy, PreservedAnalyses::none());
  Use(*Copy);
  // Its analyses go before it does: another function may get its address.
  FAM.clear(*Copy, Copy->getName());
  Copy->eraseFromParent();
}

} // namespace alignguard
