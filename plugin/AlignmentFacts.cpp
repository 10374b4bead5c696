//===- AlignmentFacts.cpp - What a function already knows about alignment -===//
#include "AlignmentFacts.h"

#include "Assumptions.h"
#include "Compat.h"
#include "PointerOrigins.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace alignguard {

/// A constant offset as int64, or false when it is not a small constant.
static bool constantOffset(Value *Offset, int64_t &Out) {
  if (!Offset) {
    Out = 0;
    return true;
  }
  auto *C = dyn_cast<ConstantInt>(Offset);
  if (!C || C->getBitWidth() > 64)
    return false;
  Out = C->getSExtValue();
  return true;
}

AlignmentFacts::AlignmentFacts(Function &F, const DominatorTree &DT,
                               ScalarEvolution *SE)
    : DT(DT), SE(SE) {
  for (Instruction &I : instructions(F)) {
    if (auto *Br = dyn_cast<BranchInst>(&I)) {
      if (Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1))
        addChecks(*Br);
      continue;
    }
    auto *Assume = dyn_cast<AssumeInst>(&I);
    if (!Assume)
      continue;
    FactSource Source = Assume->getMetadata(GuardedMDName)
                            ? FactSource::GuardedAssume
                            : FactSource::UncheckedAssume;
    auto Add = [&](Value *Ptr, Value *Alignment, Value *Offset) {
      auto *A = dyn_cast<ConstantInt>(Alignment);
      int64_t Off;
      if (!Ptr->getType()->isPointerTy() || !A || A->getBitWidth() > 64 ||
          !A->getValue().isPowerOf2() || !constantOffset(Offset, Off))
        return;
      Facts.push_back({Source, Ptr, A->getZExtValue(), Off, Assume});
    };
    for (unsigned Idx = 0, E = Assume->getNumOperandBundles(); Idx != E;
         ++Idx) {
      OperandBundleUse Bundle = Assume->getOperandBundleAt(Idx);
      if (Bundle.getTagName() == "align" && Bundle.Inputs.size() >= 2 &&
          Bundle.Inputs[1]->getType()->isIntegerTy())
        Add(Bundle.Inputs[0], Bundle.Inputs[1],
            Bundle.Inputs.size() == 3 ? Bundle.Inputs[2].get() : nullptr);
    }
    AlignmentTest Test;
    if (matchAlignmentTest(Assume->getArgOperand(0), Test) &&
        Test.AlignedWhenTrue && Test.Alignment.getBitWidth() <= 64)
      Add(Test.Pointer,
          ConstantInt::get(Assume->getContext(), Test.Alignment), Test.Offset);
  }
}

/// Collects the alignment tests that hold on the edge where Cond is Want:
/// every conjunct of a true `and`, every disjunct of a false `or`, through
/// llvm.expect (which Halide and __builtin_expect put around asserts).
static void collectTests(Value *Cond, bool Want,
                         SmallVectorImpl<AlignmentTest> &Out, unsigned Depth) {
  if (Depth > 8)
    return;
  Value *Inner, *L, *R;
  if (match(Cond, m_Intrinsic<Intrinsic::expect>(m_Value(Inner), m_Value())))
    return collectTests(Inner, Want, Out, Depth + 1);
  if (match(Cond, m_Not(m_Value(Inner))))
    return collectTests(Inner, !Want, Out, Depth + 1);
  if ((Want && match(Cond, m_LogicalAnd(m_Value(L), m_Value(R)))) ||
      (!Want && match(Cond, m_LogicalOr(m_Value(L), m_Value(R))))) {
    collectTests(L, Want, Out, Depth + 1);
    collectTests(R, Want, Out, Depth + 1);
    return;
  }
  AlignmentTest Test;
  if (matchAlignmentTest(Cond, Test) && Test.AlignedWhenTrue == Want)
    Out.push_back(Test);
}

void AlignmentFacts::addChecks(BranchInst &Br) {
  for (unsigned Succ = 0; Succ != 2; ++Succ) {
    SmallVector<AlignmentTest, 2> Tests;
    collectTests(Br.getCondition(), /*Want=*/Succ == 0, Tests, 0);
    for (AlignmentTest &T : Tests) {
      int64_t Off;
      if (T.Alignment.getBitWidth() > 64 || !constantOffset(T.Offset, Off) ||
          !T.Pointer->getType()->isPointerTy())
        continue;
      Facts.push_back({FactSource::CodeCheck, T.Pointer,
                       T.Alignment.getZExtValue(), Off, &Br,
                       Br.getSuccessor(Succ)});
    }
  }
}

bool AlignmentFacts::holdsAt(const AlignmentFact &Fact,
                             const Instruction *At) const {
  if (!Fact.GoodSuccessor)
    return Fact.Where != At && DT.dominates(Fact.Where, At);
  BasicBlockEdge Good(Fact.Where->getParent(), Fact.GoodSuccessor);
  return DT.dominates(Good, At->getParent());
}

bool AlignmentFacts::covers(const AlignmentFact &Fact, Value *Ptr,
                            uint64_t Alignment, int64_t Offset) const {
  if (Fact.Alignment < Alignment)
    return false;
  // Ptr - Offset = (Fact.Pointer - Fact.Offset) + Delta, with
  // Delta = (Ptr - Fact.Pointer) + Fact.Offset - Offset: aligned when
  // Delta is a multiple of Alignment.
  const DataLayout &DL = Fact.Where->getModule()->getDataLayout();
  auto Strip = [&](Value *V, APInt &Acc) {
    Acc = APInt(DL.getIndexTypeSizeInBits(V->getType()), 0);
    return sameAddress(
        V->stripAndAccumulateConstantOffsets(DL, Acc, /*AllowNonInbounds=*/true));
  };
  APInt PtrOff, FactOff;
  const Value *PtrBase = Strip(Ptr, PtrOff);
  const Value *FactBase = Strip(Fact.Pointer, FactOff);
  if (PtrBase == FactBase && PtrOff.getBitWidth() == FactOff.getBitWidth()) {
    uint64_t Delta = (PtrOff - FactOff).getZExtValue() +
                     static_cast<uint64_t>(Fact.Offset) -
                     static_cast<uint64_t>(Offset);
    return Delta % Alignment == 0; // modulo 2^64, Alignment a power of two
  }
  if (!SE || !SE->isSCEVable(Ptr->getType()) ||
      Ptr->getType() != Fact.Pointer->getType())
    return false;
  const SCEV *Diff = SE->getMinusSCEV(SE->getSCEV(Ptr),
                                      SE->getSCEV(Fact.Pointer));
  if (isa<SCEVCouldNotCompute>(Diff) || !Diff->getType()->isIntegerTy())
    return false;
  Diff = SE->getAddExpr(
      Diff, SE->getConstant(Diff->getType(),
                            static_cast<uint64_t>(Fact.Offset - Offset),
                            /*isSigned=*/true));
  return compat::minTrailingZeros(*SE, Diff) >= Log2_64(Alignment);
}

const AlignmentFact *AlignmentFacts::find(Value *Ptr, uint64_t Alignment,
                                          int64_t Offset, const Instruction *At,
                                          const Instruction *Ignore) const {
  const AlignmentFact *Best = nullptr;
  for (const AlignmentFact &Fact : Facts) {
    if (Fact.Where == Ignore || (Best && Best->Source <= Fact.Source))
      continue;
    if (holdsAt(Fact, At) && covers(Fact, Ptr, Alignment, Offset))
      Best = &Fact;
  }
  return Best;
}

} // namespace alignguard
