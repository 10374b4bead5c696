//===- AccessPlacement.cpp - Where to check an over-aligned access -------===//
#include "AccessPlacement.h"

#include "Compat.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace alignguard {
namespace {

/// A check before it is materialised: an address as a SCEV, valid at
/// InsertBefore, and the loop trip conditions it needs (each an expression
/// that is non-zero when a loop that tests first takes an iteration).
struct Candidate {
  Instruction *InsertBefore;
  const SCEV *Address;
  SmallVector<const SCEV *, 2> Guards;
  uint64_t Alignment;
  bool Hoisted;
  std::vector<const AlignmentAssumption *> Covers;
};

/// Moves C out of the loops around it while its address stays the same or
/// affine with a step that is a multiple of the alignment, and the access
/// runs whenever the loop is entered (or is guarded to).
void hoist(Candidate &C, LoopInfo &LI, DominatorTree &DT,
           ScalarEvolution &SE) {
  unsigned AlignBits = Log2_64(C.Alignment);
  for (Loop *L = LI.getLoopFor(C.InsertBefore->getParent()); L;
       L = L->getParentLoop()) {
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    BasicBlock *Exiting = L->getExitingBlock();
    BasicBlock *Home = C.InsertBefore->getParent();
    // The access must run on every iteration, and the loop leave only at
    // its latch (rotated: the body runs once on entry) or its header
    // (tested first).
    if (!Preheader || !Latch || !Exiting || !DT.dominates(Home, Latch) ||
        (Exiting != Latch && Exiting != L->getHeader()))
      return;

    const SCEV *Start = C.Address;
    if (!SE.isLoopInvariant(Start, L)) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(Start);
      if (!AR || AR->getLoop() != L || !AR->isAffine() ||
          compat::minTrailingZeros(SE, AR->getStepRecurrence(SE)) < AlignBits)
        return;
      Start = AR->getStart();
    }
    for (const SCEV *G : C.Guards)
      if (!SE.isLoopInvariant(G, L))
        return;

    // A loop that tests before its body: the access below the test runs
    // only if the body does, i.e. if the backedge is taken at all.
    const SCEV *Guard = nullptr;
    if (Exiting == L->getHeader() && Home != L->getHeader() &&
        Exiting != Latch) {
      Guard = SE.getBackedgeTakenCount(L);
      if (isa<SCEVCouldNotCompute>(Guard) || !SE.isLoopInvariant(Guard, L))
        return;
      if (Guard->isZero())
        return; // the body never runs: nothing to check here either
    }
    C.Address = Start;
    if (Guard)
      C.Guards.push_back(Guard);
    C.InsertBefore = Preheader->getTerminator();
    C.Hoisted = true;
  }
}

/// True when A's check also checks B: same place, same conditions, and
/// addresses a multiple of the alignment apart.
bool covers(const Candidate &A, const Candidate &B, ScalarEvolution &SE) {
  if (A.InsertBefore != B.InsertBefore || A.Alignment < B.Alignment ||
      A.Guards != B.Guards ||
      SE.getEffectiveSCEVType(A.Address->getType()) !=
          SE.getEffectiveSCEVType(B.Address->getType()))
    return false;
  const SCEV *Diff = SE.getMinusSCEV(A.Address, B.Address);
  auto *C = dyn_cast<SCEVConstant>(Diff);
  return C && C->getAPInt().getZExtValue() % B.Alignment == 0;
}

} // namespace

std::vector<PlannedAccessCheck>
planAccessChecks(Function &F, ArrayRef<const AlignmentAssumption *> Accesses) {
  std::vector<PlannedAccessCheck> Plan;
  if (Accesses.empty())
    return Plan;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  TargetLibraryInfoImpl TLII(compat::targetTriple(*F.getParent()));
  TargetLibraryInfo TLI(TLII, &F);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, DT, LI);

  std::vector<Candidate> Candidates;
  for (const AlignmentAssumption *A : Accesses) {
    auto *Align = cast<ConstantInt>(A->Alignment);
    Candidate C{A->Inst, nullptr, {}, Align->getZExtValue(), false, {A}};
    if (SE.isSCEVable(A->Pointer->getType())) {
      C.Address = SE.getSCEV(A->Pointer);
      hoist(C, LI, DT, SE);
    }
    Candidates.push_back(std::move(C));
  }
  // One check for addresses a multiple of the alignment apart.
  std::vector<bool> Merged(Candidates.size(), false);
  for (size_t I = 0; I != Candidates.size(); ++I) {
    if (Merged[I] || !Candidates[I].Hoisted)
      continue;
    for (size_t J = 0; J != Candidates.size(); ++J)
      if (J != I && !Merged[J] && Candidates[J].Hoisted &&
          covers(Candidates[I], Candidates[J], SE)) {
        Merged[J] = true;
        Candidates[I].Covers.insert(Candidates[I].Covers.end(),
                                    Candidates[J].Covers.begin(),
                                    Candidates[J].Covers.end());
      }
  }

  // Materialise the hoisted addresses and guards where the checks go.
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::unique_ptr<SCEVExpander> Expander =
      compat::makeSCEVExpander(SE, DL, "ag.first");
  for (size_t I = 0; I != Candidates.size(); ++I) {
    if (Merged[I])
      continue;
    Candidate &C = Candidates[I];
    const AlignmentAssumption &Rep = *C.Covers.front();
    PlannedAccessCheck P{C.InsertBefore, Rep.Pointer, nullptr, C.Alignment,
                         C.Hoisted, C.Covers};
    if (C.Hoisted) {
      P.Pointer = Expander->expandCodeFor(C.Address, Rep.Pointer->getType(),
                                         C.InsertBefore);
      IRBuilder<> B(C.InsertBefore);
      for (const SCEV *G : C.Guards) {
        Value *Count = Expander->expandCodeFor(G, G->getType(), C.InsertBefore);
        Value *Runs = B.CreateICmpNE(Count, ConstantInt::get(G->getType(), 0),
                                     "ag.loop.runs");
        P.Guard = P.Guard ? B.CreateAnd(P.Guard, Runs) : Runs;
      }
    }
    Plan.push_back(std::move(P));
  }
  return Plan;
}

} // namespace alignguard
