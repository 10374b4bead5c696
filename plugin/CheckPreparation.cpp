//===- CheckPreparation.cpp - The IR changes that must precede planning ---===//
#include "CheckPreparation.h"

#include "IRShapes.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace alignguard {

/// Gives every loop around an access promise a preheader.
static bool insertPreheaders(ArrayRef<const AlignmentPromise *> Accesses,
                             DominatorTree &DT, LoopInfo &LI) {
  bool Changed = false;
  for (const AlignmentPromise *A : Accesses)
    for (Loop *L = LI.getLoopFor(A->Inst->getParent()); L;
         L = L->getParentLoop())
      if (!L->getLoopPreheader())
        Changed |= InsertPreheaderForLoop(L, &DT, &LI, nullptr,
                                          /*PreserveLCSSA=*/false) != nullptr;
  return Changed;
}

bool prepareForChecks(Function &F, ArrayRef<AlignmentPromise> Promises,
                      bool Fallback, UnalignedCopies &Copies,
                      FunctionAnalysisManager &FAM) {
  SmallVector<const AlignmentPromise *, 8> Accesses;
  bool Checkable = false;
  for (const AlignmentPromise &A : Promises) {
    if (!A.isSupported() || A.isTrivial() || A.Guarded)
      continue;
    Checkable = true;
    if (A.Kind == PromiseKind::Access)
      Accesses.push_back(&A);
  }
  if (Fallback && Checkable && whyNotForwardable(F).empty())
    Copies.getOrCreate(F);
  if (Accesses.empty())
    return false;
  bool Changed = markDisjointOrs(F);
  Changed |= insertPreheaders(Accesses, FAM.getResult<DominatorTreeAnalysis>(F),
                              FAM.getResult<LoopAnalysis>(F));
  return Changed;
}

void withPreparedCopy(Function &F, bool IsEntry, bool Accesses,
                      FunctionAnalysisManager &FAM,
                      function_ref<void(Function &Copy)> Use) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  CollectScope Scope;
  Scope.Accesses = Accesses;
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
