//===- CheckPlanner.cpp - Decide the checks, change nothing ---------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "CheckPlanner.h"

#include "AccessPlacement.h"
#include "CopySafety.h"
#include "EntryPoints.h"
#include "HookNames.h"
#include "IRShapes.h"
#include "SubjectNames.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/MustExecute.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

#include <algorithm>

using namespace llvm;

#define DEBUG_TYPE "align-guard"

namespace alignguard {

FailureAction moduleAction(const Module &M, const AlignGuardOptions &Opts) {
  if (!isGPUTarget(M) || Opts.Action == FailureAction::Trap)
    return Opts.Action;
  if (devicePrinter(M, Opts.DeviceLibsAfter) == DevicePrinter::None)
    return FailureAction::Trap;
  return Opts.Action == FailureAction::Return ? FailureAction::Return
                                              : FailureAction::Abort;
}

Instruction *entryInsertionPoint(Function &F) {
  for (Instruction &I : F.getEntryBlock())
    if (!staysAtEntryTop(I))
      return &I;
  return F.getEntryBlock().getTerminator();
}

namespace {

/// The question "is it aligned here" for a promise, when it has a form
/// AlignmentFacts can answer: a scalar pointer, a constant power-of-two
/// alignment and a constant offset.
std::optional<AddressQuery> queryFor(const AlignmentPromise &A) {
  auto *Align = dyn_cast_or_null<ConstantInt>(A.Alignment);
  auto *Offset = dyn_cast_or_null<ConstantInt>(A.Offset);
  if (!A.Pointer || A.Pointer->getType()->isVectorTy() || !Align ||
      Align->getValue().getActiveBits() > 64 ||
      !Align->getValue().isPowerOf2() || (A.Offset && !Offset) ||
      (Offset && Offset->getBitWidth() > 64))
    return std::nullopt;
  AddressQuery Q;
  Q.Pointer = A.Pointer;
  Q.Alignment = Align->getZExtValue();
  Q.Offset = Offset ? Offset->getSExtValue() : 0;
  return Q;
}

class Planner {
public:
  Planner(Function &F, const PlanRequest &Req, PlannerAnalyses An)
      : F(F), Req(Req), An(An), Facts(F, An.DT, &An.SE),
        Colors(funcletColors(F)), EntryPoint(entryInsertionPoint(F)) {
    Plan.F = &F;
  }

  CheckPlan run(ArrayRef<AlignmentPromise> Promises);

private:
  void leaveOut(const AlignmentPromise &A, LeftOutReason R, std::string Why,
                int Site = -1) {
    LLVM_DEBUG(dbgs() << "align-guard: " << F.getName() << ": "
                      << Plan.describe(&A).Subject << " left out: " << Why
                      << "\n");
    Plan.LeftOut.push_back({&A, R, std::move(Why), Site});
  }
  /// Why align-guard with these options does not check A; empty if it does.
  std::string whyNotInScope(const AlignmentPromise &A) const;
  /// Leaves A out when something checks it already; true if so.
  bool leaveOutIfChecked(const AlignmentPromise &A);
  Instruction *placeOf(const AlignmentPromise &A) const {
    switch (A.Kind) {
    case PromiseKind::ParamAttr:
      return EntryPoint;
    case PromiseKind::ReturnAttr:
    case PromiseKind::LoadMetadata:
      return resultCheckPoint(*A.Inst);
    case PromiseKind::AssumeBundle:
    case PromiseKind::AssumeICmp:
      return assumePlace(A.Assume);
    default:
      return A.Inst;
    }
  }
  /// Where the checks of Assume's promises go: before it, or, when only
  /// instructions a check can move past (checkCanMovePast) and other
  /// chainable assumes lead from it to a later chainable assume, before the
  /// last of them. Adjacent promises (clang's __builtin_assume_aligned on
  /// each of a kernel's pointers, with its spills between) share one site:
  /// one test, one branch; the emitter moves the earlier assumes down to
  /// after the check.
  Instruction *assumePlace(CallInst *Assume) const;
  /// Finds the Chainable assumes among Promises'.
  void findChainable(ArrayRef<AlignmentPromise> Promises);
  static SiteKind siteKindOf(const AlignmentPromise &A) {
    if (A.Assume)
      return SiteKind::Assume;
    if (A.Kind == PromiseKind::ParamAttr)
      return SiteKind::EntryParams;
    return SiteKind::Result;
  }
  /// The site of the assume or entry parameters that makes A.
  CheckSite &siteFor(const AlignmentPromise &A);
  void planPromise(const AlignmentPromise &A);
  /// Plans the check of a loop-invariant `!align` load in its loop's
  /// preheader; false when it cannot be hoisted (it is checked in place).
  bool planHoistedLoad(const AlignmentPromise &A);
  /// Plans the checks of an assume's promise on an address affine in its
  /// loop before the loop, where AccessPlacement puts an access's; false
  /// when they cannot go there (it is checked at the assume).
  bool planHoistedAssume(const AlignmentPromise &A);
  /// The site of Kind before At, made with Placement on first use: one
  /// site per place and kind.
  CheckSite &siteAt(Instruction *At, SiteKind Kind, CheckPlacement Placement);
  void planAccesses(ArrayRef<const AlignmentPromise *> Accesses);
  /// The site whose check covers an access without a check of its own,
  /// and the alignment that check was raised to for it (or 0).
  struct Coverage {
    int Site = -1;
    uint64_t Raised = 0;
  };
  void planAccess(const AccessCandidate &C,
                  DenseMap<const AlignmentPromise *, Coverage> &CoveredBy);
  /// Raises a planned check of an entry parameter to cover C (the same
  /// address, a weaker alignment, a check that would run whenever C's
  /// does); returns its site, or -1 when there is none.
  int raiseParamCheckFor(const AccessCandidate &C, const AddressQuery &Q);
  /// True when a check before At runs whenever the entry parameters'
  /// checks do: At follows them in the entry block, and everything between
  /// goes on to the next instruction.
  bool runsWithEntryChecks(const Instruction *At) const;
  FailurePolicy decidePolicy(const CheckSite &Site) const;
  /// How Site (its policy decided) is emitted: deferred, with its
  /// parameters' attributes kept, reported by a table (CheckSite).
  void decideEmission(CheckSite &Site) const;
  /// Why a failing Site may not run a copy of the function from the start
  /// instead (fallback, recover's rerun); empty when it may.
  std::string whyCannotRunCopy(const CheckSite &Site) const;
  /// For each of Site's checks, where the planned checks go that cover it
  /// and run at most once per call (on no cycle); empty when one of its
  /// checks has none.
  std::vector<SmallVector<const Instruction *, 2>>
  coveringChecks(const CheckSite &Site) const;

  Function &F;
  const PlanRequest &Req;
  PlannerAnalyses An;
  AlignmentFacts Facts;
  DenseMap<BasicBlock *, TinyPtrVector<BasicBlock *>> Colors;
  Instruction *EntryPoint;
  CheckPlan Plan;
  /// Assumes a check can move past by taking their promises along: every
  /// promise they make is one align-guard reads (supported), and their
  /// condition is `true` or one of them. Nothing else they say could let
  /// the optimiser fold the check they precede.
  SmallPtrSet<const CallInst *, 8> Chainable;
  /// Site index by where its checks go and what they check (an assume
  /// can be where the entry's parameter checks go too).
  DenseMap<std::pair<Instruction *, unsigned>, unsigned> SiteAt;
  static std::pair<Instruction *, unsigned> key(Instruction *At, SiteKind K) {
    return {At, static_cast<unsigned>(K)};
  }
};

void Planner::findChainable(ArrayRef<AlignmentPromise> Promises) {
  SmallPtrSet<const CallInst *, 8> Unsupported, ICmp;
  for (const AlignmentPromise &A : Promises) {
    if (!A.Assume)
      continue;
    Chainable.insert(A.Assume);
    if (!A.isSupported())
      Unsupported.insert(A.Assume);
    if (A.Kind == PromiseKind::AssumeICmp)
      ICmp.insert(A.Assume);
  }
  SmallVector<const CallInst *, 8> Found(Chainable.begin(), Chainable.end());
  for (const CallInst *Assume : Found)
    if (Unsupported.count(Assume) ||
        !(ICmp.count(Assume) ||
          PatternMatch::match(Assume->getArgOperand(0), PatternMatch::m_One())))
      Chainable.erase(Assume);
}

Instruction *Planner::assumePlace(CallInst *Assume) const {
  Instruction *Last = Assume;
  if (!Chainable.count(Assume))
    return Last;
  for (Instruction *I = Assume->getNextNode(); I; I = I->getNextNode()) {
    auto *Call = dyn_cast<CallInst>(I);
    if (Call && Chainable.count(Call))
      Last = I;
    else if (!checkCanMovePast(*I))
      break;
  }
  return Last;
}

std::string Planner::whyNotInScope(const AlignmentPromise &A) const {
  switch (A.Kind) {
  case PromiseKind::ReturnAttr:
    if (isa<ReturnInst>(A.Inst))
      return "a function's own return promise is checked after each call "
             "that relies on it";
    if (isLibraryAlignedAllocator(*cast<CallBase>(A.Inst)))
      return libraryAllocatorGuarantee(*cast<CallBase>(A.Inst));
    return "";
  case PromiseKind::ParamAttr:
    if (!Req.IsEntry)
      return "not an entry point: its callers in this module make the "
             "promise";
    return "";
  case PromiseKind::LoadMetadata:
    if (!Req.Loads)
      return "loaded pointers' !align is checked only by align-guard<loads>";
    return "";
  case PromiseKind::Access:
    if (!Req.Accesses)
      return "accesses are checked only by align-guard<accesses>";
    if (!Req.IsEntry)
      return "accesses are checked only in entry points";
    return "";
  default:
    return "";
  }
}

bool Planner::leaveOutIfChecked(const AlignmentPromise &A) {
  std::optional<AddressQuery> Q = queryFor(A);
  if (!Q)
    return false;
  std::optional<AlignmentFact> Fact =
      Facts.find(*Q, placeOf(A), A.Inst, FactSource::CodeCheck);
  if (!Fact)
    return false;
  FactReading Reading = readFact(*Fact);
  if (Reading.Verdict == FactVerdict::None)
    return false;
  leaveOut(A,
           Reading.Verdict == FactVerdict::Guarded ? LeftOutReason::Guarded
                                                   : LeftOutReason::Checked,
           Reading.Why);
  return true;
}

CheckSite &Planner::siteAt(Instruction *At, SiteKind Kind,
                           CheckPlacement Placement) {
  auto [It, New] = SiteAt.try_emplace(key(At, Kind), Plan.Sites.size());
  if (!New)
    return Plan.Sites[It->second];
  CheckSite Site;
  Site.Kind = Kind;
  Site.InsertBefore = At;
  Site.Placement = Placement;
  // At an assume's own place: the last of adjacent ones.
  if (Kind == SiteKind::Assume && Placement == CheckPlacement::AtPromise)
    Site.Assume = cast<CallInst>(At);
  Plan.Sites.push_back(std::move(Site));
  return Plan.Sites.back();
}

CheckSite &Planner::siteFor(const AlignmentPromise &A) {
  return siteAt(placeOf(A), siteKindOf(A), CheckPlacement::AtPromise);
}

/// The outermost loop out of which Load can be checked in its preheader: its
/// address is invariant there, nothing in the loop writes memory (so every
/// iteration loads the same pointer), and it runs whenever the loop is
/// entered (so the earlier load cannot fault where the original would not
/// have run). Null when there is none.
static Loop *hoistableOutOf(LoadInst &Load, LazyLoopInfo &LI,
                            DominatorTree &DT) {
  Loop *Best = nullptr;
  for (Loop *L = loopFor(LI, Load.getParent()); L; L = L->getParentLoop()) {
    if (!L->getLoopPreheader() ||
        !L->isLoopInvariant(Load.getPointerOperand()) || Load.isVolatile() ||
        !Load.isUnordered())
      break;
    bool Writes = any_of(L->blocks(), [](BasicBlock *BB) {
      return any_of(*BB, [](Instruction &I) { return I.mayWriteToMemory(); });
    });
    if (Writes)
      break;
    SimpleLoopSafetyInfo Safety;
    Safety.computeLoopSafetyInfo(L);
    if (!Safety.isGuaranteedToExecute(Load, &DT, L))
      break;
    Best = L;
  }
  return Best;
}

bool Planner::planHoistedLoad(const AlignmentPromise &A) {
  auto *Load = cast<LoadInst>(A.Inst);
  Loop *L = hoistableOutOf(*Load, An.LI, An.DT);
  if (!L)
    return false;
  PlannedCheck Check{&A, nullptr};
  Check.Reload = Load;
  siteAt(L->getLoopPreheader()->getTerminator(), SiteKind::Result,
         CheckPlacement::Hoisted)
      .Checks.push_back(std::move(Check));
  return true;
}

/// True when Assume makes one promise, an "align" bundle, and nothing
/// else: then the promise can be checked away from it and the assume kept
/// or dropped whole (__builtin_assume_aligned, std::assume_aligned).
static bool onlyAlignBundle(const CallInst &Assume) {
  return Assume.getNumOperandBundles() == 1 &&
         Assume.getOperandBundleAt(0).getTagName() == AlignBundleTag &&
         PatternMatch::match(Assume.getArgOperand(0), PatternMatch::m_One());
}

bool Planner::planHoistedAssume(const AlignmentPromise &A) {
  // A constant alignment and offset (queryFor), so that the check can go
  // where the assume's own operands are not defined yet.
  std::optional<AddressQuery> Q = queryFor(A);
  if (A.Kind != PromiseKind::AssumeBundle || !A.Assume || !Q ||
      !onlyAlignBundle(*A.Assume) || !loopFor(An.LI, A.Inst->getParent()) ||
      !An.SE.get().isSCEVable(A.Pointer->getType()))
    return false;
  // The same answer as for an access: the first address (and the second,
  // when the step is not known to be a multiple of the alignment), before
  // the outermost loop the address stays affine in.
  std::vector<AccessCandidate> Placed =
      placeAccessChecks({&A}, An.DT, An.LI.get(), An.SE.get());
  if (Placed.empty() || Placed.front().Placement != CheckPlacement::Hoisted)
    return false;
  for (size_t I = 0; I != Placed.size(); ++I) {
    const AccessCandidate &C = Placed[I];
    CheckSite &Site =
        siteAt(C.InsertBefore, SiteKind::Assume, CheckPlacement::Hoisted);
    // The site of the first address answers for the assume (keeps or
    // drops it); the others only test.
    if (I == 0)
      Site.Promises.push_back(&A);
    Site.Checks.push_back({&A, nullptr, C.Address, C.Guards});
    AlignmentFact Planned{FactSource::PlannedCheck, nullptr, Q->Alignment,
                          Q->Offset, C.InsertBefore};
    Planned.Address = C.Address;
    Planned.Conditions = C.Guards;
    Planned.Site = &Site - Plan.Sites.data();
    Planned.Check = Site.Checks.size() - 1;
    Facts.addPlanned(std::move(Planned));
  }
  return true;
}

void Planner::planPromise(const AlignmentPromise &A) {
  if (A.Kind == PromiseKind::LoadMetadata && planHoistedLoad(A))
    return;
  if (A.Kind == PromiseKind::AssumeBundle && planHoistedAssume(A))
    return;
  CheckSite &Site = siteFor(A);
  unsigned SiteIndex = &Site - Plan.Sites.data();
  Site.Promises.push_back(&A);
  std::optional<AddressQuery> Q = queryFor(A);
  if (Q)
    if (std::optional<AlignmentFact> Fact =
            Facts.find(*Q, Site.InsertBefore, A.Inst, FactSource::PlannedCheck))
      if (Fact->Source == FactSource::PlannedCheck) {
        leaveOut(A, LeftOutReason::Covered,
                 "covered by the check of site " + std::to_string(Fact->Site),
                 Fact->Site);
        return;
      }
  Site.Checks.push_back({&A, A.Pointer});
  if (Q) {
    AlignmentFact Planned{FactSource::PlannedCheck, Q->Pointer, Q->Alignment,
                          Q->Offset, Site.InsertBefore};
    Planned.Site = SiteIndex;
    Planned.Check = Site.Checks.size() - 1;
    Facts.addPlanned(std::move(Planned));
  }
}

bool Planner::runsWithEntryChecks(const Instruction *At) const {
  if (At->getParent() != EntryPoint->getParent())
    return false;
  for (const Instruction *I = EntryPoint; I; I = I->getNextNode()) {
    if (I == At)
      return true;
    if (!isGuaranteedToTransferExecutionToSuccessor(I))
      return false;
  }
  return false;
}

int Planner::raiseParamCheckFor(const AccessCandidate &C,
                                const AddressQuery &Q) {
  // Raising tests the stronger alignment where the parameter is checked:
  // only right when C's own check would run there too, unconditionally.
  if (!C.Guards.empty() || !runsWithEntryChecks(C.InsertBefore))
    return -1;
  for (const AlignmentFact &Weaker : Facts.weakerPlanned(Q, C.InsertBefore)) {
    CheckSite &Site = Plan.Sites[Weaker.Site];
    if (Site.Kind != SiteKind::EntryParams)
      continue;
    PlannedCheck &Check = Site.Checks[Weaker.Check];
    Check.RaisedAlignment = std::max(Check.RaisedAlignment, C.Alignment);
    Facts.raisePlanned(Weaker.Site, Weaker.Check, C.Alignment);
    return Weaker.Site;
  }
  return -1;
}

void Planner::planAccess(
    const AccessCandidate &C,
    DenseMap<const AlignmentPromise *, Coverage> &CoveredBy) {
  AddressQuery Q;
  Q.Pointer = C.Address ? nullptr : C.Pointer;
  Q.Address = C.Address;
  Q.Alignment = C.Alignment;
  Q.Under = C.Guards;
  std::optional<AlignmentFact> Fact =
      Facts.find(Q, C.InsertBefore, nullptr, FactSource::PlannedCheck);
  if (Fact && Fact->Source == FactSource::PlannedCheck) {
    CheckSite &By = Plan.Sites[Fact->Site];
    if (By.Kind == SiteKind::Accesses) {
      std::vector<const AlignmentPromise *> &Covers =
          By.Checks[Fact->Check].Covers;
      if (!is_contained(Covers, C.Promise))
        Covers.push_back(C.Promise);
    } else {
      CoveredBy.try_emplace(C.Promise, Coverage{static_cast<int>(Fact->Site)});
    }
    return;
  }
  // The same pointer's parameter check, at a weaker alignment: one check.
  int Raised = raiseParamCheckFor(C, Q);
  if (Raised >= 0) {
    CoveredBy.try_emplace(C.Promise, Coverage{Raised, C.Alignment});
    return;
  }
  CheckSite &Site = siteAt(C.InsertBefore, SiteKind::Accesses, C.Placement);
  PlannedCheck Check{C.Promise,
                     C.Address ? nullptr : C.Pointer,
                     C.Address,
                     C.Guards,
                     {C.Promise}};
  Site.Checks.push_back(std::move(Check));
  AlignmentFact Planned{FactSource::PlannedCheck, Q.Pointer, C.Alignment, 0,
                        C.InsertBefore};
  Planned.Address = C.Address;
  Planned.Conditions = C.Guards;
  Planned.Site = &Site - Plan.Sites.data();
  Planned.Check = Site.Checks.size() - 1;
  Facts.addPlanned(std::move(Planned));
}

void Planner::planAccesses(ArrayRef<const AlignmentPromise *> Accesses) {
  if (Accesses.empty())
    return;
  std::vector<AccessCandidate> Candidates =
      placeAccessChecks(Accesses, An.DT, An.LI.get(), An.SE.get());
  // Dominating places first, so that a check can cover those it dominates.
  An.DT.updateDFSNumbers();
  auto Order = [&](const AccessCandidate &C) {
    return An.DT.getNode(C.InsertBefore->getParent())->getDFSNumIn();
  };
  std::stable_sort(Candidates.begin(), Candidates.end(),
                   [&](const AccessCandidate &L, const AccessCandidate &R) {
                     if (L.InsertBefore->getParent() !=
                         R.InsertBefore->getParent())
                       return Order(L) < Order(R);
                     return L.InsertBefore != R.InsertBefore &&
                            L.InsertBefore->comesBefore(R.InsertBefore);
                   });
  DenseMap<const AlignmentPromise *, Coverage> CoveredBy;
  for (const AccessCandidate &C : Candidates)
    planAccess(C, CoveredBy);
  // A promise is covered when none of its addresses got a check of its own.
  for (const AlignmentPromise *A : Accesses) {
    bool Checked = any_of(Plan.Sites, [&](const CheckSite &S) {
      return any_of(S.Checks, [&](const PlannedCheck &C) {
        return is_contained(C.Covers, A);
      });
    });
    if (Checked)
      continue;
    // Every access has a candidate (placeAccessChecks), and a candidate
    // without a check of its own was covered by a planned one.
    auto By = CoveredBy.find(A);
    assert(By != CoveredBy.end() && "an access neither checked nor covered");
    Coverage Cover = By == CoveredBy.end() ? Coverage() : By->second;
    std::string Why =
        "covered by the check of site " + std::to_string(Cover.Site);
    if (Cover.Raised)
      Why += ", raised to " + std::to_string(Cover.Raised) + " bytes for it";
    leaveOut(*A, LeftOutReason::Covered, std::move(Why), Cover.Site);
  }
}

/// True when BB can run again after it: a cycle through it, a loop or not
/// (LoopInfo sees no irreducible one).
static bool onCycle(const BasicBlock *BB) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work(succ_begin(BB), succ_end(BB));
  while (!Work.empty()) {
    const BasicBlock *Next = Work.pop_back_val();
    if (Next == BB)
      return true;
    if (Seen.insert(Next).second)
      append_range(Work, successors(Next));
  }
  return false;
}

std::vector<SmallVector<const Instruction *, 2>>
Planner::coveringChecks(const CheckSite &Site) const {
  std::vector<SmallVector<const Instruction *, 2>> Covering;
  for (const PlannedCheck &C : Site.Checks) {
    std::optional<AddressQuery> Q = queryFor(*C.Promise);
    // A reloaded pointer is a value of its own check only: nothing else
    // can cover it.
    if (!Q || C.Reload)
      return {};
    Q->Pointer = C.Address ? nullptr : C.Pointer;
    Q->Address = C.Address;
    Q->Alignment = std::max(Q->Alignment, C.RaisedAlignment);
    Q->Under = C.Guards;
    SmallVector<const Instruction *, 2> Places;
    // In a cycle, the values a check tested may have changed since.
    for (const Instruction *At : Facts.plannedCovering(*Q, Site.InsertBefore))
      if (!onCycle(At->getParent()))
        Places.push_back(At);
    if (Places.empty())
      return {};
    Covering.push_back(std::move(Places));
  }
  return Covering;
}

std::string Planner::whyCannotRunCopy(const CheckSite &Site) const {
  // An effect that only runs after checks covering each of the site's
  // has passed does not count: the site cannot fail after it (clang 19's
  // remainder iteration after a loop it unrolled, whose check is in the
  // loop's preheader).
  std::vector<SmallVector<const Instruction *, 2>> Covering =
      coveringChecks(Site);
  auto PassesAfter = [&](const Instruction &J) {
    auto RunsBefore = [&](const Instruction *K) {
      return K == &J || An.DT.dominates(K, &J);
    };
    return !Covering.empty() &&
           all_of(Covering, [&](ArrayRef<const Instruction *> Places) {
             return any_of(Places, RunsBefore);
           });
  };
  std::string Why, Effect;
  if (!Req.IsEntry)
    Why = "it is not an entry point";
  else if (!(Why = whyNotForwardable(F)).empty())
    ;
  else if (!(Effect = sideEffectMayPrecede(*Site.InsertBefore, PassesAfter))
                .empty())
    Why = "fallback-unsafe: " + Effect +
          " can run before the check, so running the copy would repeat it";
  return Why;
}

/// The scalar pointers C tests: a fixed vector of pointers lane by lane.
static unsigned scalarCount(const PlannedCheck &C) {
  Type *Ty = C.Pointer ? C.Pointer->getType() : C.Promise->Pointer->getType();
  auto *VT = dyn_cast<FixedVectorType>(Ty);
  return VT ? VT->getNumElements() : 1;
}

/// True when the runtime's table hook tests C as the check does: a
/// constant power-of-two alignment of at most 64 bits, unguarded, at a
/// constant offset (it tests (address - offset) & (alignment - 1) in 64
/// bits).
static bool tableCanTest(const PlannedCheck &C) {
  if (!C.Guards.empty())
    return false;
  const APInt *Alignment = nullptr;
  APInt Raised;
  if (C.RaisedAlignment) {
    Raised = APInt(64, C.RaisedAlignment);
    Alignment = &Raised;
  } else if (auto *CA = dyn_cast<ConstantInt>(C.Promise->Alignment)) {
    Alignment = &CA->getValue();
  }
  auto *Offset = dyn_cast_or_null<ConstantInt>(C.Promise->Offset);
  return Alignment && Alignment->getBitWidth() <= 64 &&
         Alignment->isPowerOf2() && Alignment->getActiveBits() <= 63 &&
         (!C.Promise->Offset || (Offset && Offset->getBitWidth() <= 64));
}

void Planner::decideEmission(CheckSite &Site) const {
  const FailurePolicy &P = Site.Policy;
  Site.Deferred = Req.Deferred && !Req.IsCopy && P.canDefer();
  Site.KeepsParamAttributes =
      Site.Deferred && Site.Kind == SiteKind::EntryParams && P.isTerminal() &&
      F.use_empty() && Site.InsertBefore->getParent() == &F.getEntryBlock() &&
      all_of(Site.Promises, [](const AlignmentPromise *A) {
        return A->Kind == PromiseKind::ParamAttr;
      });
  unsigned Scalars = 0;
  for (const PlannedCheck &C : Site.Checks)
    Scalars += scalarCount(C);
  Site.ReportsByTable =
      !Req.IsCopy && P.isTerminal() && P.Action != FailureAction::Trap &&
      !P.Rerun && !P.OnDevice && Scalars >= 2 && Scalars <= MaxTableChecks &&
      all_of(Site.Checks, tableCanTest);
  if (!Site.ReportsByTable)
    return;
  // The function's own arguments first, in their order; stable, so that
  // the same module gives the same table.
  auto ArgNo = [](const PlannedCheck &C) {
    const Value *V = C.Reload ? nullptr : C.Pointer;
    if (auto *U = dyn_cast_or_null<SCEVUnknown>(C.Address))
      V = U->getValue();
    auto *A = V ? dyn_cast<Argument>(V->stripPointerCasts()) : nullptr;
    return A && !A->getType()->isVectorTy() ? A->getArgNo() : ~0u;
  };
  std::stable_sort(Site.Checks.begin(), Site.Checks.end(),
                   [&](const PlannedCheck &L, const PlannedCheck &R) {
                     return ArgNo(L) < ArgNo(R);
                   });
}

FailurePolicy Planner::decidePolicy(const CheckSite &Site) const {
  Instruction *Anchor = Site.InsertBefore;
  FailurePolicy P;
  P.Action = Req.Action;
  bool Ambiguous;
  P.Funclet = funcletPadOf(Colors, Anchor->getParent(), Ambiguous);
  std::string Why;
  if (Req.Action == FailureAction::Return) {
    auto *RetTy = dyn_cast<IntegerType>(F.getReturnType());
    // A kernel returns nothing: it reports from the device and returns.
    bool Kernel = F.getReturnType()->isVoidTy() && Req.IsKernel;
    if (!Req.IsEntry)
      Why = "it is not an entry point";
    else if (!RetTy && !Kernel)
      Why = "it does not return an integer";
    else if (P.Funclet)
      Why = "the check is in an EH funclet, which cannot return";
    else if (RetTy && !isIntN(RetTy->getBitWidth(), Req.ReturnValue) &&
             !isUIntN(RetTy->getBitWidth(), Req.ReturnValue))
      Why = std::to_string(Req.ReturnValue) + " does not fit its " +
            std::to_string(RetTy->getBitWidth()) + "-bit return type";
    else if (!Req.AfterInlining || (Why = whyNotReturnAfterInlining(F)).empty())
      P.ReturnValue = Req.ReturnValue;
  } else if (Req.Action == FailureAction::Fallback) {
    Why = whyCannotRunCopy(Site);
  } else if (Req.Action == FailureAction::Recover && Req.MayRerun &&
             !Req.IsCopy) {
    // Otherwise plain recover: the promises go, as asked; no downgrade.
    P.Rerun = !P.Funclet && whyCannotRunCopy(Site).empty();
  }
  if (!Why.empty()) {
    P.Action = FailureAction::Abort;
    P.Downgrade = Why;
  }
  // On a device, abort and return=N are there only where it prints
  // (moduleAction).
  P.OnDevice =
      (P.Action == FailureAction::Abort || P.Action == FailureAction::Return) &&
      isGPUTarget(*F.getParent());
  return P;
}

CheckPlan Planner::run(ArrayRef<AlignmentPromise> Promises) {
  SubjectNamer Namer(F);
  for (const AlignmentPromise &A : Promises)
    Plan.Descriptions.try_emplace(&A, describePromise(A, Namer));
  findChainable(Promises);
  SmallVector<const AlignmentPromise *, 8> Accesses;
  for (const AlignmentPromise &A : Promises) {
    std::string Why;
    // Alignment 1 promises nothing, whatever the pointer: not even a warning.
    // A type alignment left unchecked stays one in a suppressed function;
    // the suppression covers the rest.
    bool LeftType = A.TypeImplied && !Req.TypeAlignment;
    if (A.isTrivial())
      leaveOut(A, LeftOutReason::Trivial,
               "alignment 1 promises nothing; no check needed");
    else if (!Req.SuppressedBy.empty() && !(LeftType && A.isSupported()))
      leaveOut(A, LeftOutReason::Suppressed,
               suppressionReason(Req.SuppressedBy));
    else if (!A.isSupported())
      leaveOut(A, LeftOutReason::Unsupported, A.Unsupported);
    else if (LeftType)
      leaveOut(A, LeftOutReason::TypeAlignment, TypeAlignmentWhy);
    else if (A.Guarded)
      leaveOut(A, LeftOutReason::Guarded,
               "guarded by an earlier align-guard "
               "check");
    else if (!(Why = whyNotInScope(A)).empty())
      leaveOut(A, LeftOutReason::NotInScope, Why);
    else if (leaveOutIfChecked(A))
      ;
    else if (A.Kind == PromiseKind::Access)
      Accesses.push_back(&A);
    else
      planPromise(A);
  }
  planAccesses(Accesses);
  for (CheckSite &Site : Plan.Sites) {
    Site.Policy = decidePolicy(Site);
    decideEmission(Site);
  }
  LLVM_DEBUG(Plan.print(dbgs()));
  return std::move(Plan);
}

} // namespace

PlanRequest planRequest(const AlignGuardOptions &Opts, FailureAction Action,
                        bool IsEntry, const Function &Itself) {
  PlanRequest R;
  R.Action = Action;
  R.ReturnValue = Opts.ReturnValue;
  R.Accesses = Opts.Accesses;
  R.IsEntry = IsEntry;
  R.IsKernel = isGPUKernel(Itself);
  R.TypeAlignment = Opts.TypeAlignment;
  R.Loads = Opts.Loads;
  // A build's second run checks what the inliners brought in: the
  // functions' recover copies were made (or not) by its first.
  R.MayRerun = !Opts.NoRerun && !Opts.AccessesOnly;
  R.AfterInlining = Opts.AccessesOnly;
  R.Deferred = Opts.Deferred;
  return R;
}

std::string whyNotReturnAfterInlining(const Function &F) {
  for (const User *U : F.users())
    if (auto *CB = dyn_cast<CallBase>(U))
      if (CB->getCalledOperand() == &F)
        return "its caller '" + CB->getFunction()->getName().str() +
               "' in this module may have been optimised with its return "
               "values before this check was added";
  return "";
}

std::string suppressionReason(StringRef Rule) {
  return "suppressed by " + Rule.str();
}

const char *const TypeAlignmentWhy =
    "the alignment of a reference's type, not a kernel's promise; "
    "align-guard<type-alignment> checks it";

CheckPlan planChecks(Function &F, ArrayRef<AlignmentPromise> Promises,
                     const PlanRequest &Request, PlannerAnalyses Analyses) {
  return Planner(F, Request, Analyses).run(Promises);
}

StringRef siteKindName(SiteKind K) {
  switch (K) {
  case SiteKind::Assume:
    return "assume";
  case SiteKind::EntryParams:
    return "entry-params";
  case SiteKind::Accesses:
    return "accesses";
  case SiteKind::Result:
    return "result";
  }
  llvm_unreachable("unknown site kind");
}

int CheckPlan::siteOf(const AlignmentPromise *A,
                      const LeftOutPromise **Left) const {
  if (Left)
    *Left = nullptr;
  for (const LeftOutPromise &L : LeftOut)
    if (L.Promise == A) {
      if (Left)
        *Left = &L;
      return L.CoveringSite;
    }
  for (size_t I = 0; I != Sites.size(); ++I)
    for (const PlannedCheck &C : Sites[I].Checks)
      if (C.Promise == A || is_contained(C.Covers, A))
        return I;
  return -1;
}

PromisePlan CheckPlan::planOf(const AlignmentPromise *A) const {
  PromisePlan P;
  const LeftOutPromise *Left = nullptr;
  int Site = siteOf(A, &Left);
  if (Left && Left->Reason != LeftOutReason::Covered) {
    P.Reason = Left->Why;
  } else if (Site >= 0) {
    const CheckSite &S = Sites[Site];
    P.Check = !Left;
    P.Site = Site;
    P.Action = failureActionName(S.Policy.Action).str();
    P.Placement = checkPlacementName(S.Placement).str();
    P.Reason = Left ? Left->Why : S.Policy.Downgrade;
    P.Deferred = S.Deferred;
    if (S.Policy.OnDevice)
      P.Report = "device";
    else if (S.Policy.Action != FailureAction::Trap)
      P.Report = S.ReportsByTable ? "table" : "each";
  }
  return P;
}

void CheckPlan::print(raw_ostream &OS) const {
  OS << "align-guard plan for '" << F->getName() << "':\n";
  for (size_t I = 0; I != Sites.size(); ++I) {
    const CheckSite &S = Sites[I];
    OS << "  site " << I << ": " << siteKindName(S.Kind) << ", "
       << failureActionName(S.Policy.Action)
       << (S.Policy.Rerun ? " (reruns the recover copy)" : "") << ", "
       << checkPlacementName(S.Placement) << (S.Deferred ? ", deferred" : "")
       << (S.KeepsParamAttributes ? ", keeps the attributes" : "")
       << (S.ReportsByTable ? ", reports by table" : "");
    if (!S.Policy.Downgrade.empty())
      OS << " (" << S.Policy.Downgrade << ")";
    OS << "\n";
    for (const PlannedCheck &C : S.Checks) {
      OS << "    check " << describe(C.Promise).Subject
         << (C.Address ? " (hoisted address)" : "")
         << (C.Guards.empty() ? "" : " if the loop runs");
      if (C.RaisedAlignment)
        OS << " raised to " << C.RaisedAlignment;
      OS << "\n";
    }
  }
  for (const LeftOutPromise &L : LeftOut)
    OS << "  left out: " << promiseKindName(L.Promise->Kind) << " on "
       << describe(L.Promise).Subject << ": " << L.Why << "\n";
}

} // namespace alignguard
