//===- AccessPlacement.cpp - Where to check an over-aligned access -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "AccessPlacement.h"

#include "Compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;

namespace alignguard {
namespace {

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
    const SCEV *Op =
        firstModAlignment(Cast->getOperand(), L, AlignBits, SE, Depth + 1);
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

/// The guard "L's backedge is taken at least N times".
LoopGuard takenAtLeast(const SCEV *Taken, uint64_t N, ScalarEvolution &SE) {
  return {CmpInst::ICMP_UGE, Taken, SE.getConstant(Taken->getType(), N)};
}

/// The guard "L's first test enters it", for a loop that tests first (its
/// header is its only exit): the header's compare with each recurrence of
/// L at its start. Needs no trip count, so no no-wrap flags: MLIR's loops
/// increment without `nsw`.
std::optional<LoopGuard> firstTestEnters(const Loop *L, ScalarEvolution &SE) {
  auto *Br = dyn_cast<BranchInst>(L->getHeader()->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition())
                                        : nullptr;
  if (!Cmp || !SE.isSCEVable(Cmp->getOperand(0)->getType()))
    return std::nullopt;
  auto AtStart = [&](Value *V) -> const SCEV * {
    const SCEV *S = SE.getSCEV(V);
    if (SE.isLoopInvariant(S, L))
      return S;
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    if (AR && AR->getLoop() == L && SE.isLoopInvariant(AR->getStart(), L))
      return AR->getStart();
    return nullptr;
  };
  const SCEV *LHS = AtStart(Cmp->getOperand(0));
  const SCEV *RHS = AtStart(Cmp->getOperand(1));
  if (!LHS || !RHS || LHS->getType() != RHS->getType())
    return std::nullopt;
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (!L->contains(Br->getSuccessor(0)))
    Pred = CmpInst::getInversePredicate(Pred);
  return LoopGuard{Pred, LHS, RHS};
}

/// Moves C out of the loops around it while its address stays the same or
/// affine, and the access runs whenever the loop is entered (or is guarded
/// to). An affine address whose step is a multiple of the alignment is
/// aligned on every iteration when it is on the first; one whose step is
/// not known to be (a row stride read at run time) needs its second address
/// checked too, when there is a second iteration: then every address is
/// first + k * (second - first). The second address goes to Work, to be
/// hoisted further on its own.
/// Whether every instruction of L passes control on (cached in Known): no
/// call that may exit the program, throw or never return. In a loop with
/// one, the promise may never be made (an iteration ends in `exit(1)`
/// before it), and a check before the loop would report what the program
/// never promised.
bool alwaysContinues(const Loop &L, DenseMap<const Loop *, bool> &Known) {
  auto [It, New] = Known.try_emplace(&L);
  if (New)
    It->second = all_of(L.blocks(), [](const BasicBlock *BB) {
      return isGuaranteedToTransferExecutionToSuccessor(BB);
    });
  return It->second;
}

void hoist(AccessCandidate &C, std::vector<AccessCandidate> &Work, LoopInfo &LI,
           DominatorTree &DT, ScalarEvolution &SE,
           DenseMap<const Loop *, bool> &Continues) {
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
        (Exiting != Latch && Exiting != L->getHeader()) ||
        !alwaysContinues(*L, Continues))
      return;
    for (const LoopGuard &G : C.Guards)
      if (!SE.isLoopInvariant(G.LHS, L) || !SE.isLoopInvariant(G.RHS, L))
        return;
    // Runs on entry: rotated, or in the header of a loop that tests first
    // (the header runs once more than the backedge is taken).
    bool RunsOnEntry = Exiting == Latch || Home == L->getHeader();
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    bool Counted =
        !isa<SCEVCouldNotCompute>(Taken) && SE.isLoopInvariant(Taken, L);
    std::optional<LoopGuard> Enters;
    if (!RunsOnEntry) {
      if (Counted && !Taken->isZero())
        Enters = takenAtLeast(Taken, 1, SE);
      else if (!Counted)
        Enters = firstTestEnters(L, SE);
      if (!Enters)
        return; // unknown whether the access runs, or it never does
    }

    const SCEV *Here = C.Address ? C.Address : SE.getSCEV(C.Pointer);
    const SCEV *Start = firstModAlignment(Here, L, AlignBits, SE);
    if (!Start) {
      // Affine with a step not known to be a multiple of the alignment:
      // the first and the second address tell.
      auto *AR = dyn_cast<SCEVAddRecExpr>(Here);
      if (!AR || AR->getLoop() != L || !AR->isAffine() || !Counted ||
          !SE.isLoopInvariant(AR->getStart(), L))
        return;
      Start = AR->getStart();
      AccessCandidate Second = C;
      Second.Address = SE.getAddExpr(Start, AR->getStepRecurrence(SE));
      Second.Guards.push_back(takenAtLeast(Taken, RunsOnEntry ? 1 : 2, SE));
      Second.InsertBefore = Preheader->getTerminator();
      Second.Placement = CheckPlacement::Hoisted;
      Work.push_back(std::move(Second));
    }
    if (Enters)
      C.Guards.push_back(*Enters);
    C.Address = Start;
    C.InsertBefore = Preheader->getTerminator();
    C.Placement = CheckPlacement::Hoisted;
  }
}

} // namespace

std::vector<AccessCandidate>
placeAccessChecks(ArrayRef<const AlignmentPromise *> Accesses,
                  DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE) {
  std::vector<AccessCandidate> Placed, Work;
  DenseMap<const Loop *, bool> Continues;
  for (const AlignmentPromise *A : Accesses) {
    auto *Align = cast<ConstantInt>(A->Alignment);
    AccessCandidate C{A->Inst,
                      A->Pointer,
                      nullptr,
                      {},
                      Align->getZExtValue(),
                      LI.getLoopFor(A->Inst->getParent())
                          ? CheckPlacement::InLoop
                          : CheckPlacement::InPlace,
                      A};
    if (SE.isSCEVable(A->Pointer->getType()))
      hoist(C, Work, LI, DT, SE, Continues);
    Placed.push_back(std::move(C));
  }
  while (!Work.empty()) {
    AccessCandidate C = std::move(Work.back());
    Work.pop_back();
    hoist(C, Work, LI, DT, SE, Continues);
    Placed.push_back(std::move(C));
  }
  return Placed;
}

} // namespace alignguard
