//===- AlignmentFacts.cpp - What a function already knows about alignment -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "AlignmentFacts.h"

#include "Compat.h"
#include "GuardMetadata.h"
#include "HookNames.h"
#include "IRShapes.h"
#include "PointerOrigins.h"
#include "PromiseDescription.h"
#include "Promises.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace alignguard {

/// Conditions are nested a few levels deep in real code; the bound only
/// guards against pathological IR.
static constexpr unsigned MaxDepth = 8;
/// trailingZeros looks through phis only this near the top, and only phis
/// with at most this many incoming values (each multiplies the work).
static constexpr unsigned MaxPhiDepth = 4, MaxPhiIncoming = 8;

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

void AlignmentFacts::addTest(const AlignmentTest &Test, FactSource Source,
                             const Instruction *Where,
                             const BasicBlock *GoodSuccessor) {
  int64_t Off;
  if (Test.Alignment.getActiveBits() > 64 || !Test.Alignment.isPowerOf2() ||
      !constantOffset(Test.Offset, Off))
    return;
  uint64_t Align = Test.Alignment.getZExtValue();
  if (Test.Pointer && Test.Pointer->getType()->isPointerTy())
    Facts.push_back({Source, Test.Pointer, Align, Off, Where, GoodSuccessor});
  else if (Test.Integer && Off == 0)
    Facts.push_back(
        {Source, nullptr, Align, 0, Where, GoodSuccessor, Test.Integer});
}

AlignmentFacts::AlignmentFacts(Function &F, const DominatorTree &DT,
                               LazyScalarEvolution *SE)
    : DT(DT), LazySE(SE), DL(F.getParent()->getDataLayout()) {
  for (Instruction &I : instructions(F)) {
    if (auto *Br = dyn_cast<BranchInst>(&I)) {
      if (Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1))
        addChecks(*Br);
      continue;
    }
    if (auto *Switch = dyn_cast<SwitchInst>(&I)) {
      addChecks(*Switch);
      continue;
    }
    auto *Assume = dyn_cast<AssumeInst>(&I);
    if (!Assume)
      continue;
    FactSource Source = isGuarded(*Assume) ? FactSource::GuardedAssume
                                           : FactSource::UncheckedAssume;
    forEachAlignBundle(*Assume, [&](unsigned, OperandBundleUse Bundle) {
      if (Bundle.Inputs.size() < 2)
        return;
      auto *A = dyn_cast<ConstantInt>(Bundle.Inputs[1]);
      if (!A)
        return;
      AlignmentTest Test;
      Test.Pointer = Bundle.Inputs[0];
      Test.Alignment = A->getValue();
      Test.Offset =
          Bundle.Inputs.size() == 3 ? Bundle.Inputs[2].get() : nullptr;
      addTest(Test, Source, Assume, nullptr);
    });
    AlignmentTest Test;
    if (matchAlignmentTest(Assume->getArgOperand(0), Test) &&
        Test.AlignedWhenTrue)
      addTest(Test, Source, Assume, nullptr);
  }
}

/// One term of Halide's assert mask: `select c, 0, Bit` is zero when c
/// holds (WhenZero), `select c, Bit, 0` when it does not.
struct MaskTerm {
  Value *Cond;
  bool WhenZero;
  APInt Bit;
};

/// Reads the select terms of an OR-tree (other terms are skipped: they
/// cannot make a zero mask, or a zero bit, less zero).
static void readMask(Value *V, SmallVectorImpl<MaskTerm> &Terms,
                     unsigned Depth) {
  Value *L, *R, *C;
  const APInt *Bit;
  if (Depth > 2 * MaxDepth) // Halide ORs a dozen terms in a chain
    return;
  if (match(V, m_Or(m_Value(L), m_Value(R)))) {
    readMask(L, Terms, Depth + 1);
    readMask(R, Terms, Depth + 1);
  } else if (match(V, m_Select(m_Value(C), m_Zero(), m_APInt(Bit))) &&
             !Bit->isZero()) {
    Terms.push_back({C, true, *Bit});
  } else if (match(V, m_Select(m_Value(C), m_APInt(Bit), m_Zero())) &&
             !Bit->isZero()) {
    Terms.push_back({C, false, *Bit});
  }
}

/// Collects the alignment tests that hold on the edge where Cond is Want:
/// every conjunct of a true `and`, every disjunct of a false `or`, through
/// `not` and llvm.expect (__builtin_expect around asserts), and every term
/// of a mask known to be zero.
static void collectTests(Value *Cond, bool Want,
                         SmallVectorImpl<AlignmentTest> &Out, unsigned Depth) {
  if (Depth > MaxDepth)
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
  if (matchAlignmentTest(Cond, Test)) {
    if (Test.AlignedWhenTrue == Want)
      Out.push_back(Test);
    return;
  }
  // `icmp eq Mask, 0` true (or `icmp ne` false): every term is zero.
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->isEquality() || !match(Cmp->getOperand(1), m_Zero()))
    return;
  if ((Cmp->getPredicate() == ICmpInst::ICMP_EQ) != Want)
    return;
  SmallVector<MaskTerm, 8> Terms;
  readMask(Cmp->getOperand(0), Terms, 0);
  for (const MaskTerm &T : Terms)
    collectTests(T.Cond, T.WhenZero, Out, Depth + 1);
}

/// True when BB reports to the AlignGuard runtime: the failing side of a
/// check align-guard inserted. (The guarded assume's metadata says the same,
/// but optimisations that merge instructions may drop unknown metadata.)
static bool callsReportHook(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = CB->getCalledFunction())
        if (isHookName(Callee->getName()))
          return true;
  return false;
}

void AlignmentFacts::addChecks(BranchInst &Br) {
  for (unsigned Succ = 0; Succ != 2; ++Succ) {
    SmallVector<AlignmentTest, 2> Tests;
    collectTests(Br.getCondition(), /*Want=*/Succ == 0, Tests, 0);
    FactSource Source = callsReportHook(*Br.getSuccessor(1 - Succ))
                            ? FactSource::GuardedAssume
                            : FactSource::CodeCheck;
    for (AlignmentTest &T : Tests)
      addTest(T, Source, &Br, Br.getSuccessor(Succ));
  }
}

/// Halide's merged asserts: `switch (cttz Mask), label %go [k: fail_k...]`.
/// The default edge means the lowest set bit of Mask is no case value; with
/// cases 0..K (Halide also sets bit 63 so that Mask is never zero), every
/// bit below the smallest value that is not a case is zero there, and so is
/// every term of the mask that could only set such a bit.
void AlignmentFacts::addChecks(SwitchInst &Switch) {
  Value *Mask;
  Value *Cond = Switch.getCondition();
  while (isa<TruncInst>(Cond) || isa<ZExtInst>(Cond))
    Cond = cast<Instruction>(Cond)->getOperand(0);
  if (!match(Cond, m_Intrinsic<Intrinsic::cttz>(m_Value(Mask), m_Value())))
    return;
  BasicBlock *Default = Switch.getDefaultDest();
  SmallSet<uint64_t, 16> CaseValues;
  for (auto Case : Switch.cases()) {
    if (Case.getCaseSuccessor() == Default)
      return; // the default edge is not unique
    CaseValues.insert(Case.getCaseValue()->getValue().getLimitedValue());
  }
  uint64_t ZeroBelow = 0;
  while (CaseValues.count(ZeroBelow))
    ++ZeroBelow;
  SmallVector<MaskTerm, 8> Terms;
  readMask(Mask, Terms, 0);
  for (const MaskTerm &T : Terms) {
    if (!T.Bit.isPowerOf2() || T.Bit.logBase2() >= ZeroBelow)
      continue;
    SmallVector<AlignmentTest, 2> Tests;
    collectTests(T.Cond, T.WhenZero, Tests, 0);
    for (AlignmentTest &Test : Tests)
      addTest(Test, FactSource::CodeCheck, &Switch, Default);
  }
}

bool AlignmentFacts::holdsAt(const AlignmentFact &Fact,
                             const Instruction *At) const {
  // A planned check goes before Where: it holds there already.
  if (Fact.Source == FactSource::PlannedCheck)
    return Fact.Where == At || DT.dominates(Fact.Where, At);
  if (!Fact.GoodSuccessor)
    return Fact.Where != At && DT.dominates(Fact.Where, At);
  BasicBlockEdge Good(Fact.Where->getParent(), Fact.GoodSuccessor);
  return DT.dominates(Good, At->getParent());
}

unsigned AlignmentFacts::trailingZeros(ScalarEvolution &SE, const SCEV *S,
                                       const Instruction *At,
                                       unsigned Depth) const {
  unsigned Width = SE.getTypeSizeInBits(S->getType());
  unsigned Known = compat::minTrailingZeros(SE, S);
  if (Depth > MaxDepth)
    return Known;
  unsigned Mine = 0;
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    for (const AlignmentFact &Fact : Facts)
      if (Fact.Integer == U->getValue() &&
          Fact.Source != FactSource::UncheckedAssume && holdsAt(Fact, At))
        Mine = std::max(Mine, Log2_64(Fact.Alignment));
    // A phi that is no recurrence (clang 19's index after a loop it
    // unrolled, met by the path that skips the loop): the zeros of every
    // value coming in, each where it comes in (a loop's exit value is an
    // addrec there).
    auto *Phi = dyn_cast<PHINode>(U->getValue());
    if (Phi && Depth < MaxPhiDepth &&
        Phi->getNumIncomingValues() <= MaxPhiIncoming) {
      unsigned Incoming = Width;
      for (unsigned I = 0; I != Phi->getNumIncomingValues(); ++I)
        if (Phi->getIncomingValue(I) != Phi)
          Incoming = std::min(
              Incoming, trailingZeros(SE, SE.getSCEV(Phi->getIncomingValue(I)),
                                      Phi->getIncomingBlock(I)->getTerminator(),
                                      Depth + 1));
      Mine = std::max(Mine, Incoming);
    }
  } else if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
    Mine =
        std::min(trailingZeros(SE, Cast->getOperand(), At, Depth + 1), Width);
  } else if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    for (const SCEV *Op : Mul->operands())
      Mine += trailingZeros(SE, Op, At, Depth + 1);
  } else if (auto *N = dyn_cast<SCEVNAryExpr>(S)) {
    // Add, AddRec (start and steps), min/max: each operand's zeros.
    Mine = Width;
    for (const SCEV *Op : N->operands())
      Mine = std::min(Mine, trailingZeros(SE, Op, At, Depth + 1));
  }
  return std::max(Known, std::min(Mine, Width));
}

namespace {
/// Rewrites every unknown of a SCEV to its sameAddress (two reads of one
/// aggregate field, or a spill reload, are one value to ScalarEvolution
/// too).
class SameAddressRewriter : public SCEVRewriteVisitor<SameAddressRewriter> {
public:
  using SCEVRewriteVisitor::SCEVRewriteVisitor;
  const SCEV *visitUnknown(const SCEVUnknown *U) {
    auto *Same = const_cast<Value *>(sameAddress(U->getValue()));
    if (Same == U->getValue() || Same->getType() != U->getType() ||
        !SE.isSCEVable(Same->getType()))
      return U;
    return SE.getSCEV(Same);
  }
};
} // namespace

/// The base ScalarEvolution roots the pointer P at, as sameResidue asks
/// (its unknowns rewritten to their sameAddress), when the IR alone says
/// it is an opaque value (an argument, a load, an alloca or a global
/// variable, which ScalarEvolution keeps unknown) under constant-index GEPs
/// and bitcasts (which it folds into the base plus a constant); null when it
/// would take ScalarEvolution to tell. Code no path reaches is left to it:
/// there every instruction is poison to ScalarEvolution.
static const Value *opaqueSCEVBase(const Value *P, const DominatorTree &DT) {
  auto Reached = [&](const Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return !I || DT.isReachableFromEntry(I->getParent());
  };
  if (!P->getType()->isPointerTy() || !Reached(P))
    return nullptr;
  for (unsigned Depth = 0;; ++Depth) {
    if (Depth == MaxDepth)
      return nullptr; // (unreachable code may define a GEP by itself)
    auto *GEP = dyn_cast<GEPOperator>(P);
    if (GEP && GEP->hasAllConstantIndices())
      P = GEP->getPointerOperand();
    else if (auto *Cast = dyn_cast<BitCastOperator>(P))
      P = Cast->getOperand(0);
    else
      break;
  }
  // SameAddressRewriter's rewrite, which keeps the type.
  const Value *Same = sameAddress(P);
  if (Same->getType() == P->getType())
    P = Same;
  bool Opaque = isa<Argument>(P) || isa<LoadInst>(P) || isa<AllocaInst>(P) ||
                isa<GlobalVariable>(P);
  return Opaque && Reached(P) ? P : nullptr;
}

bool AlignmentFacts::covers(const AlignmentFact &Fact, const AddressQuery &Q,
                            const Instruction *At) const {
  if (Fact.Alignment < Q.Alignment)
    return false;
  // A conditional fact helps only an asker under the same conditions.
  for (const LoopGuard &G : Fact.Conditions)
    if (!is_contained(Q.Under, G))
      return false;
  return sameResidue(Fact, Q, At);
}

bool AlignmentFacts::sameResidue(const AlignmentFact &Fact,
                                 const AddressQuery &Q,
                                 const Instruction *At) const {
  if (!Fact.Pointer && !Fact.Address)
    return false;
  // Q - Q.Offset = (Fact.Pointer - Fact.Offset) + Delta, with
  // Delta = (Q - Fact.Pointer) + Fact.Offset - Q.Offset: aligned when
  // Delta is a multiple of the alignment.
  if (Q.Pointer && Fact.Pointer) {
    auto Strip = [&](Value *V, APInt &Acc) {
      Acc = APInt(DL.getIndexTypeSizeInBits(V->getType()), 0);
      return sameAddress(V->stripAndAccumulateConstantOffsets(
          DL, Acc, /*AllowNonInbounds=*/true));
    };
    APInt PtrOff, FactOff;
    const Value *PtrBase = Strip(Q.Pointer, PtrOff);
    const Value *FactBase = Strip(Fact.Pointer, FactOff);
    if (PtrBase == FactBase && PtrOff.getBitWidth() == FactOff.getBitWidth()) {
      uint64_t Delta = (PtrOff - FactOff).getZExtValue() +
                       static_cast<uint64_t>(Fact.Offset) -
                       static_cast<uint64_t>(Q.Offset);
      return Delta % Q.Alignment == 0; // modulo 2^64, a power of two
    }
  }
  if (!LazySE)
    return false;
  // Two pointers ScalarEvolution would root at different opaque bases: it
  // cannot subtract them (getMinusSCEV's answer is CouldNotCompute, LLVM 14
  // to 22), so there is no need to make it to hear that.
  if (Q.Pointer && Fact.Pointer && !Q.Address && !Fact.Address) {
    const Value *QBase = opaqueSCEVBase(Q.Pointer, DT);
    const Value *FactBase = opaqueSCEVBase(Fact.Pointer, DT);
    if (QBase && FactBase && QBase != FactBase)
      return false;
  }
  ScalarEvolution &SE = LazySE->get();
  auto SCEVOf = [&](Value *V, const SCEV *S) -> const SCEV * {
    if (S)
      return S;
    return SE.isSCEVable(V->getType()) ? SE.getSCEV(V) : nullptr;
  };
  // SCEV sees through bitcasts (typed pointers differ in pointee only).
  const SCEV *PtrS = SCEVOf(Q.Pointer, Q.Address);
  const SCEV *FactS = SCEVOf(Fact.Pointer, Fact.Address);
  if (!PtrS || !FactS ||
      SE.getEffectiveSCEVType(PtrS->getType()) !=
          SE.getEffectiveSCEVType(FactS->getType()))
    return false;
  SameAddressRewriter Same(SE);
  const SCEV *Diff = SE.getMinusSCEV(Same.visit(PtrS), Same.visit(FactS));
  if (isa<SCEVCouldNotCompute>(Diff) || !Diff->getType()->isIntegerTy())
    return false;
  Diff = SE.getAddExpr(
      Diff, SE.getConstant(Diff->getType(),
                           static_cast<uint64_t>(Fact.Offset - Q.Offset),
                           /*isSigned=*/true));
  return trailingZeros(SE, Diff, At, 0) >= Log2_64(Q.Alignment);
}

bool alignedByConstruction(const Value *Ptr, uint64_t Alignment,
                           const DataLayout &DL) {
  const Value *Object = Ptr->stripPointerCasts();
  return isa<ConstantPointerNull>(Object) ||
         ((isa<AllocaInst>(Object) || isa<GlobalVariable>(Object)) &&
          Object->getPointerAlignment(DL).value() >= Alignment);
}

std::optional<AlignmentFact> AlignmentFacts::find(const AddressQuery &Q,
                                                  const Instruction *At,
                                                  const Instruction *Ignore,
                                                  FactSource Worst) const {
  if (Q.Pointer && Q.Offset == 0 &&
      alignedByConstruction(Q.Pointer, Q.Alignment, DL))
    return AlignmentFact{FactSource::Construction, Q.Pointer, Q.Alignment, 0,
                         At};
  const AlignmentFact *Best = nullptr;
  for (const AlignmentFact &Fact : Facts) {
    // Ignore is the promise itself; a check planned before it still counts.
    if ((Fact.Where == Ignore && Fact.Source != FactSource::PlannedCheck) ||
        Fact.Source > Worst || (Best && Best->Source <= Fact.Source))
      continue;
    if (holdsAt(Fact, At) && covers(Fact, Q, At))
      Best = &Fact;
  }
  if (!Best)
    return std::nullopt;
  return *Best;
}

SmallVector<const Instruction *, 2>
AlignmentFacts::plannedCovering(const AddressQuery &Q,
                                const Instruction *At) const {
  SmallVector<const Instruction *, 2> Places;
  for (const AlignmentFact &Fact : Facts)
    if (Fact.Source == FactSource::PlannedCheck && Fact.Conditions.empty() &&
        covers(Fact, Q, At))
      Places.push_back(Fact.Where);
  return Places;
}

void AlignmentFacts::addPlanned(AlignmentFact Fact) {
  Fact.Source = FactSource::PlannedCheck;
  Facts.push_back(std::move(Fact));
}

std::vector<AlignmentFact>
AlignmentFacts::weakerPlanned(const AddressQuery &Q,
                              const Instruction *At) const {
  std::vector<AlignmentFact> Out;
  for (const AlignmentFact &Fact : Facts)
    if (Fact.Source == FactSource::PlannedCheck &&
        Fact.Alignment < Q.Alignment && Fact.Conditions.empty() &&
        holdsAt(Fact, At) && sameResidue(Fact, Q, At))
      Out.push_back(Fact);
  return Out;
}

void AlignmentFacts::raisePlanned(unsigned Site, unsigned Check,
                                  uint64_t Alignment) {
  for (AlignmentFact &Fact : Facts)
    if (Fact.Source == FactSource::PlannedCheck && Fact.Site == Site &&
        Fact.Check == Check)
      Fact.Alignment = std::max(Fact.Alignment, Alignment);
}

FactReading readFact(const AlignmentFact &Fact) {
  switch (Fact.Source) {
  case FactSource::Construction:
    return {FactVerdict::Checked,
            "aligned by construction (null, an alloca or a global)"};
  case FactSource::CodeCheck:
    return {FactVerdict::Checked,
            "checked by the code" +
                describeLocation(Fact.Where->getDebugLoc())};
  case FactSource::GuardedAssume:
    return {FactVerdict::Guarded, "guarded by an earlier align-guard check"};
  case FactSource::PlannedCheck:
    return {FactVerdict::None, "checked by a check planned here"};
  case FactSource::UncheckedAssume:
    return {FactVerdict::None, "rests on an unchecked assume" +
                                   describeLocation(Fact.Where->getDebugLoc())};
  }
  llvm_unreachable("unknown fact source");
}

} // namespace alignguard
