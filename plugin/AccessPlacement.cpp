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
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace alignguard {
namespace {

/// A condition for a hoisted check: the loop's backedge-taken count is at
/// least Min (the access runs at all, or runs a second time).
struct Guard {
  const SCEV *BackedgeTaken;
  unsigned Min;
  bool operator==(const Guard &O) const {
    return BackedgeTaken == O.BackedgeTaken && Min == O.Min;
  }
};

/// A check before it is materialised: an address as a SCEV, valid at
/// InsertBefore, and the loop trip conditions it needs.
struct Candidate {
  Instruction *InsertBefore;
  const SCEV *Address;
  SmallVector<Guard, 2> Guards;
  uint64_t Alignment;
  bool Hoisted;
  std::vector<const AlignmentPromise *> Covers;
};

/// An expression equal to S on L's first iteration and congruent to it,
/// modulo 2^AlignBits, on every iteration; null when there is none. It
/// sees through the casts of 32-bit index arithmetic (Halide's): extending
/// or truncating (to at least AlignBits bits) keeps the low bits, whatever
/// wraps above them.
const SCEV *firstModAlignment(const SCEV *S, const Loop *L, unsigned AlignBits,
                              ScalarEvolution &SE, unsigned Depth = 0) {
  if (SE.isLoopInvariant(S, L))
    return S;
  if (Depth > 6)
    return nullptr;
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (AR->getLoop() != L || !AR->isAffine() ||
        compat::minTrailingZeros(SE, AR->getStepRecurrence(SE)) < AlignBits)
      return nullptr;
    return SE.isLoopInvariant(AR->getStart(), L) ? AR->getStart() : nullptr;
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
    if (SE.getTypeSizeInBits(Cast->getType()) < AlignBits ||
        SE.getTypeSizeInBits(Cast->getOperand()->getType()) < AlignBits)
      return nullptr;
    const SCEV *Op = firstModAlignment(Cast->getOperand(), L, AlignBits, SE,
                                       Depth + 1);
    if (!Op)
      return nullptr;
    if (isa<SCEVSignExtendExpr>(Cast))
      return SE.getSignExtendExpr(Op, Cast->getType());
    if (isa<SCEVZeroExtendExpr>(Cast))
      return SE.getZeroExtendExpr(Op, Cast->getType());
    if (isa<SCEVTruncateExpr>(Cast))
      return SE.getTruncateExpr(Op, Cast->getType());
    return nullptr;
  }
  if (isa<SCEVAddExpr>(S) || isa<SCEVMulExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands()) {
      const SCEV *First = firstModAlignment(Op, L, AlignBits, SE, Depth + 1);
      if (!First)
        return nullptr;
      Ops.push_back(First);
    }
    return isa<SCEVAddExpr>(S) ? SE.getAddExpr(Ops) : SE.getMulExpr(Ops);
  }
  return nullptr;
}

/// Moves C out of the loops around it while its address stays the same or
/// affine, and the access runs whenever the loop is entered (or is guarded
/// to). An affine address whose step is a multiple of the alignment is
/// aligned on every iteration when it is on the first; one whose step is
/// not known to be (a row stride read at run time) needs its second address
/// checked too, when there is a second iteration: then every address is
/// first + k * (second - first). The second address goes to Work, to be
/// hoisted further on its own.
void hoist(Candidate &C, std::vector<Candidate> &Work, LoopInfo &LI,
           DominatorTree &DT, ScalarEvolution &SE) {
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
    for (const Guard &G : C.Guards)
      if (!SE.isLoopInvariant(G.BackedgeTaken, L))
        return;
    // Runs on entry: rotated, or in the header of a loop that tests first
    // (the header runs once more than the backedge is taken).
    bool RunsOnEntry = Exiting == Latch || Home == L->getHeader();
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    bool Counted = !isa<SCEVCouldNotCompute>(Taken) &&
                   SE.isLoopInvariant(Taken, L);
    if (!RunsOnEntry && (!Counted || Taken->isZero()))
      return; // unknown whether the access runs, or it never does

    const SCEV *Start = firstModAlignment(C.Address, L, AlignBits, SE);
    if (!Start) {
      // Affine with a step not known to be a multiple of the alignment:
      // the first and the second address tell.
      auto *AR = dyn_cast<SCEVAddRecExpr>(C.Address);
      if (!AR || AR->getLoop() != L || !AR->isAffine() || !Counted ||
          !SE.isLoopInvariant(AR->getStart(), L))
        return;
      Start = AR->getStart();
      Candidate Second = C;
      Second.Address = SE.getAddExpr(Start, AR->getStepRecurrence(SE));
      Second.Guards.push_back({Taken, RunsOnEntry ? 1u : 2u});
      Second.InsertBefore = Preheader->getTerminator();
      Second.Hoisted = true;
      Work.push_back(std::move(Second));
    }
    if (!RunsOnEntry)
      C.Guards.push_back({Taken, 1});
    C.Address = Start;
    C.InsertBefore = Preheader->getTerminator();
    C.Hoisted = true;
  }
}

/// True when A's check also checks B: at the same place or one that
/// dominates B's, under the same conditions, of addresses a multiple of the
/// alignment apart.
bool covers(const Candidate &A, const Candidate &B, ScalarEvolution &SE,
            DominatorTree &DT) {
  if ((A.InsertBefore != B.InsertBefore &&
       !DT.dominates(A.InsertBefore, B.InsertBefore)) ||
      A.Alignment < B.Alignment ||
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
planAccessChecks(Function &F, ArrayRef<const AlignmentPromise *> Accesses) {
  std::vector<PlannedAccessCheck> Plan;
  if (Accesses.empty())
    return Plan;
  // ScalarEvolution needs what loop-simplify and InstCombine would give
  // this IR later in the pipeline (or gave it in a newer LLVM): preheaders
  // to hoist to, and `or disjoint` where an `or` adds.
  compat::markDisjointOrs(F);
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (const AlignmentPromise *A : Accesses)
    for (Loop *L = LI.getLoopFor(A->Inst->getParent()); L;
         L = L->getParentLoop())
      if (!L->getLoopPreheader())
        InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  TargetLibraryInfoImpl TLII(compat::targetTriple(*F.getParent()));
  TargetLibraryInfo TLI(TLII, &F);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, DT, LI);

  std::vector<Candidate> Candidates, Work;
  for (const AlignmentPromise *A : Accesses) {
    auto *Align = cast<ConstantInt>(A->Alignment);
    Candidate C{A->Inst, nullptr, {}, Align->getZExtValue(), false, {A}};
    if (SE.isSCEVable(A->Pointer->getType())) {
      C.Address = SE.getSCEV(A->Pointer);
      hoist(C, Work, LI, DT, SE);
    }
    Candidates.push_back(std::move(C));
  }
  while (!Work.empty()) {
    Candidate C = std::move(Work.back());
    Work.pop_back();
    hoist(C, Work, LI, DT, SE);
    Candidates.push_back(std::move(C));
  }
  // One check for addresses a multiple of the alignment apart, at one
  // place or where one check dominates the other.
  std::vector<bool> Merged(Candidates.size(), false);
  for (size_t I = 0; I != Candidates.size(); ++I) {
    if (Merged[I] || !Candidates[I].Address)
      continue;
    // Covers are merged by promise: a promise checked at its first and
    // second address is listed once.
    for (size_t J = 0; J != Candidates.size(); ++J)
      if (J != I && !Merged[J] && Candidates[J].Address &&
          covers(Candidates[I], Candidates[J], SE, DT)) {
        Merged[J] = true;
        for (const AlignmentPromise *A : Candidates[J].Covers)
          if (!is_contained(Candidates[I].Covers, A))
            Candidates[I].Covers.push_back(A);
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
    const AlignmentPromise &Rep = *C.Covers.front();
    const char *Placement = C.Hoisted ? "hoisted"
                            : LI.getLoopFor(C.InsertBefore->getParent())
                                ? "in-loop"
                                : "in-place";
    PlannedAccessCheck P{C.InsertBefore, Rep.Pointer, nullptr, C.Alignment,
                         Placement, C.Covers};
    if (C.Hoisted) {
      P.Pointer = Expander->expandCodeFor(C.Address, Rep.Pointer->getType(),
                                         C.InsertBefore);
      IRBuilder<> B(C.InsertBefore);
      for (const Guard &G : C.Guards) {
        Type *Ty = G.BackedgeTaken->getType();
        Value *Count =
            Expander->expandCodeFor(G.BackedgeTaken, Ty, C.InsertBefore);
        Value *Runs = B.CreateICmpUGE(Count, ConstantInt::get(Ty, G.Min),
                                      "ag.loop.runs");
        P.Guard = P.Guard ? B.CreateAnd(P.Guard, Runs) : Runs;
      }
    }
    Plan.push_back(std::move(P));
  }
  return Plan;
}

} // namespace alignguard
