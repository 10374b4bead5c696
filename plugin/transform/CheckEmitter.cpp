//===- CheckEmitter.cpp - Carry out a CheckPlan --------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "CheckEmitter.h"

#include "AssumeBundles.h"
#include "CheckPlanner.h"
#include "Compat.h"
#include "DeferredPlaces.h"
#include "DeviceReport.h"
#include "GuardMarking.h"
#include "IRShapes.h"
#include "KeptPromises.h"
#include "PromiseStripping.h"
#include "ReturnContract.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumChecks, "Alignment checks inserted");
STATISTIC(NumBundleChecks, "Checks of \"align\" assume bundles");
STATISTIC(NumICmpChecks, "Checks of legacy icmp alignment assumes");
STATISTIC(NumParamChecks, "Checks of align parameter attributes");
STATISTIC(NumReturnChecks, "Checks of pointers returned with a promise");
STATISTIC(NumLoadChecks, "Checks of pointers loaded with !align (loads)");
STATISTIC(NumAccessChecks, "Checks of over-aligned accesses (accesses)");
STATISTIC(NumFedPromisesDropped,
          "align attributes dropped below a recovering check");

namespace alignguard {
namespace {

/// One scalar pointer to test at a site, and the promise it answers for.
struct ScalarCheck {
  const AlignmentPromise *From;
  /// Its alignment is From's, or the one the plan raised it to.
  PlaceCheck Check;
};

/// Carries out a plan: each site's values, then its branch (or marker),
/// then what becomes of its promises.
class Emitter {
public:
  Emitter(const CheckPlan &Plan, SiteDescriptors &Sites,
          UnalignedCopies &Copies, LazyScalarEvolution &SE,
          Function *RecoverCopy, CopyEmission *AsCopy)
      : Plan(Plan), F(*Plan.F), Sites(Sites), Copies(Copies), SE(SE),
        RecoverCopy(RecoverCopy), AsCopy(AsCopy),
        Private(AsCopy ? AsCopy->Private : PrivateCallee()) {}

  void run();

private:
  /// A site's values, made before any block is split.
  struct Materialized {
    std::vector<ScalarCheck> Checks;
    Instruction *SplitBefore;
    /// The assume a parameter or return site's promises moved into
    /// (materializeAttributePromises), or null; an assume site's promises
    /// stay in their own assumes.
    CallInst *Assume;
  };
  Materialized materialize(const CheckSite &S);
  /// Where S's checks go: before S.InsertBefore, or, at an assume site that
  /// took in the promises of earlier assumes (the planner's assumePlace),
  /// before those assumes, moved down to just before it: no promise comes
  /// before its check.
  Instruction *bringAssumesDown(const CheckSite &S);
  /// What C's report names (the subject; the alignment when the plan
  /// raised it).
  SiteInfo siteInfo(const PlannedCheck &C, const std::string &Subject,
                    Value *Alignment) const;
  /// The descriptors of M's checks, from Infos (none under trap: it says
  /// nothing): one table for a place a table hook can report
  /// (PlaceEmitter::tableFailure), else one each.
  void makeDescriptors(const CheckSite &S, Materialized &M,
                       ArrayRef<SiteInfo> Infos);
  /// Moves the promises of a parameter or return site from their
  /// attributes into an assume at the site (none under recover), or, for
  /// the parameters of a deferred site that nothing can inline, leaves them
  /// to the expansion (keepsParamAttributes).
  CallInst *materializeAttributePromises(const CheckSite &S,
                                         ArrayRef<ScalarCheck> Checks);
  void emitSite(const CheckSite &S, const Materialized &M);
  void finishPromises(const CheckSite &S, CallInst *Assume);
  /// Keeps Promises, all made by Assume, guarded (terminal actions) or
  /// drops them (recover).
  void finishAssume(const CheckSite &S, CallInst *Assume,
                    ArrayRef<const AlignmentPromise *> Promises);
  void finishAccess(const AlignmentPromise &A, const CheckSite &By);

  const CheckPlan &Plan;
  Function &F;
  SiteDescriptors &Sites;
  UnalignedCopies &Copies;
  LazyScalarEvolution &SE;
  /// What rerun sites call (FailurePolicy::Rerun).
  Function *RecoverCopy;
  /// Set when F is a recover copy (or a callee clone of one).
  CopyEmission *AsCopy;
  /// Where dropped promises may be dropped in callees (PromiseStripping.h).
  PrivateCallee Private;
};

/// Removes the attribute or metadata that makes A (a parameter's, a call's
/// return or a load's promise): the optimiser would otherwise prove A's
/// check false. A callee's own return promise moved to its calls before
/// planning (prepareReturnPromises).
void removePromiseAttribute(const AlignmentPromise &A) {
  if (A.Kind == PromiseKind::ParamAttr) {
    A.F->removeParamAttr(A.Param->getArgNo(), Attribute::Alignment);
    return;
  }
  if (A.Kind == PromiseKind::LoadMetadata) {
    A.Inst->setMetadata(LLVMContext::MD_align, nullptr);
    return;
  }
  auto *CB = cast<CallBase>(A.Inst);
  if (A.FromAllocAlign)
    CB->setAttributes(compat::withoutAllocAlign(
        CB->getContext(), CB->getAttributes(), CB->arg_size()));
  else
    CB->removeRetAttr(Attribute::Alignment);
}

CallInst *Emitter::materializeAttributePromises(const CheckSite &S,
                                                ArrayRef<ScalarCheck> Checks) {
  if (S.KeepsParamAttributes)
    return nullptr;
  for (const AlignmentPromise *A : S.Promises)
    removePromiseAttribute(*A);
  if (!S.Policy.isTerminal() || S.Promises.empty())
    return nullptr; // recover keeps no promise; a hoisted load keeps its own
  // The promise itself, not instrumentation: no !nosanitize.
  IRBuilder<> B(S.InsertBefore);
  SmallVector<OperandBundleDef, 4> Bundles;
  // One bundle per scalar check: a bundle on a vector of pointers is not
  // valid IR, so a vector parameter's promise is kept lane by lane.
  for (const ScalarCheck &C : Checks)
    if (is_contained(S.Promises, C.From))
      Bundles.emplace_back(
          AlignBundleTag,
          std::vector<Value *>{C.Check.Pointer, C.From->Alignment});
  CallInst *Assume = B.CreateAssumption(B.getTrue(), Bundles);
  Assume->setDebugLoc(promiseDebugLoc(*S.Promises.front()));
  return Assume;
}

Emitter::Materialized Emitter::materialize(const CheckSite &S) {
  Materialized M{{}, bringAssumesDown(S), nullptr};
  CheckBuilder B(M.SplitBefore);
  // Made for the first address that is not a value yet (hoisted checks).
  std::unique_ptr<SCEVExpander> Expander;
  auto Expand = [&](const SCEV *S, Type *Ty) {
    if (!Expander)
      Expander = compat::makeSCEVExpander(
          SE.get(), F.getParent()->getDataLayout(), "ag.first");
    return Expander->expandCodeFor(S, Ty, M.SplitBefore);
  };
  std::vector<SiteInfo> Infos; // one per check of M
  for (const PlannedCheck &C : S.Checks) {
    std::string Subject = Plan.describe(C.Promise).Subject;
    Value *Ptr = C.Pointer;
    if (C.Reload) {
      // The same pointer, loaded again before the loop, without the promise
      // (or the optimiser would fold the check with it).
      Instruction *Again = C.Reload->clone();
      Again->setMetadata(LLVMContext::MD_align, nullptr);
      Ptr = B.Insert(Again, "ag.reload");
    }
    if (C.Address)
      Ptr = Expand(C.Address, C.Promise->Pointer->getType());
    Value *Guard = nullptr;
    for (const LoopGuard &G : C.Guards) {
      Value *LHS = Expand(G.LHS, G.LHS->getType());
      Value *RHS = Expand(G.RHS, G.RHS->getType());
      Value *Runs = B.CreateICmp(G.Pred, LHS, RHS, "ag.loop.runs");
      Guard = Guard ? B.CreateAnd(Guard, Runs) : Runs;
    }
    Value *Alignment = C.RaisedAlignment
                           ? ConstantInt::get(C.Promise->Alignment->getType(),
                                              C.RaisedAlignment)
                           : C.Promise->Alignment;
    auto Add = [&](Value *Scalar, const std::string &Name) {
      PlaceCheck PC{Scalar,
                    Alignment,
                    C.Promise->Offset,
                    Guard,
                    /*Site=*/nullptr, // makeDescriptors
                    promiseDebugLoc(*C.Promise)};
      M.Checks.push_back({C.Promise, PC});
      Infos.push_back(siteInfo(C, Name, Alignment));
    };
    auto *VT = dyn_cast<FixedVectorType>(Ptr->getType());
    if (!VT) {
      Add(Ptr, Subject);
      continue;
    }
    // LangRef: `align` on a vector of pointers holds for every element.
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
      Add(B.CreateExtractElement(Ptr, B.getInt64(I)),
          Subject + " element " + std::to_string(I));
  }
  makeDescriptors(S, M, Infos);
  if ((S.Kind == SiteKind::EntryParams || S.Kind == SiteKind::Result) &&
      (M.Assume = materializeAttributePromises(S, M.Checks)))
    M.SplitBefore = M.Assume;
  return M;
}

Instruction *Emitter::bringAssumesDown(const CheckSite &S) {
  if (S.Kind != SiteKind::Assume || !S.Assume)
    return S.InsertBefore;
  SmallVector<CallInst *, 4> Earlier;
  for (const AlignmentPromise *A : S.Promises)
    if (A->Assume != S.InsertBefore && !is_contained(Earlier, A->Assume))
      Earlier.push_back(A->Assume);
  llvm::sort(Earlier,
             [](CallInst *L, CallInst *R) { return L->comesBefore(R); });
  for (CallInst *Assume : Earlier)
    Assume->moveBefore(*S.InsertBefore->getParent(),
                       S.InsertBefore->getIterator());
  return Earlier.empty() ? S.InsertBefore : Earlier.front();
}

SiteInfo Emitter::siteInfo(const PlannedCheck &C, const std::string &Subject,
                           Value *Alignment) const {
  SiteInfo Site = SiteInfo::from(Plan.describe(C.Promise));
  Site.Subject = Subject;
  if (Alignment != C.Promise->Alignment) // raised by the plan
    Site.Alignment = cast<ConstantInt>(Alignment)->getZExtValue();
  return Site;
}

void Emitter::makeDescriptors(const CheckSite &S, Materialized &M,
                              ArrayRef<SiteInfo> Infos) {
  if (S.Policy.Action == FailureAction::Trap)
    return;
  if (S.Policy.OnDevice) {
    for (size_t I = 0; I != M.Checks.size(); ++I)
      M.Checks[I].Check.Site = deviceReportFormat(*F.getParent(), Infos[I]);
    return;
  }
  if (S.ReportsByTable) {
    assert(!AsCopy && "a recover copy takes its original's descriptors");
    assert(M.Checks.size() >= 2 && M.Checks.size() <= MaxTableChecks &&
           "the planner counted the scalar checks");
    // The k-th check names the table and its k-th element: a pointer to
    // the element is made only where a one-check hook takes it
    // (PlaceEmitter::descriptorOf); a marker's operands name the table for
    // each check (emitDeferredPlace).
    GlobalVariable *Table = Sites.createTable(Infos);
    for (size_t I = 0; I != M.Checks.size(); ++I) {
      M.Checks[I].Check.Site = Table;
      M.Checks[I].Check.Element = static_cast<unsigned>(I);
    }
    return;
  }
  for (size_t I = 0; I != M.Checks.size(); ++I)
    M.Checks[I].Check.Site =
        Sites.create(Infos[I], AsCopy ? &AsCopy->Descriptors : nullptr);
}

void countCheck(PromiseKind Kind) {
  ++NumChecks;
  switch (Kind) {
  case PromiseKind::AssumeBundle:
    ++NumBundleChecks;
    break;
  case PromiseKind::AssumeICmp:
    ++NumICmpChecks;
    break;
  case PromiseKind::ParamAttr:
    ++NumParamChecks;
    break;
  case PromiseKind::Access:
    ++NumAccessChecks;
    break;
  case PromiseKind::ReturnAttr:
    ++NumReturnChecks;
    break;
  case PromiseKind::LoadMetadata:
    ++NumLoadChecks;
    break;
  }
}

void Emitter::emitSite(const CheckSite &S, const Materialized &M) {
  if (!M.Checks.empty()) {
    std::vector<PlaceCheck> Checks;
    for (const ScalarCheck &C : M.Checks) {
      countCheck(C.From->Kind);
      Checks.push_back(C.Check);
    }
    if (S.Deferred)
      emitDeferredPlace(Checks, S.Policy, M.SplitBefore);
    else
      emitPlaceChecks(Checks, S.Policy, M.SplitBefore,
                      S.Policy.Action == FailureAction::Fallback
                          ? Copies.lookup(F)
                      : S.Policy.Rerun ? RecoverCopy
                                       : nullptr);
  }
  finishPromises(S, M.Assume);
}

/// Under recover, the promise may be false from here on: drop the checked
/// bundles (and the legacy condition) of Assume, then what those pointers
/// fed (in Private's callees).
void dropPromises(CallInst *Assume, ArrayRef<const AlignmentPromise *> Checked,
                  PrivateCallee Private) {
  SmallVector<unsigned, 4> DropBundles;
  bool DropCondition = false;
  for (const AlignmentPromise *A : Checked) {
    if (A->Kind == PromiseKind::AssumeBundle)
      DropBundles.push_back(A->BundleIndex);
    else if (A->Kind == PromiseKind::AssumeICmp)
      DropCondition = true;
    NumFedPromisesDropped += dropAlignPromisesFedBy(A->Pointer, Private);
  }
  if (!Assume)
    return; // parameter promises in recover mode: no assume was made
  SmallVector<OperandBundleDef, 4> Keep;
  for (unsigned I = 0, E = Assume->getNumOperandBundles(); I != E; ++I)
    if (!is_contained(DropBundles, I))
      Keep.emplace_back(Assume->getOperandBundleAt(I));
  replaceAssumeBundles(
      *Assume, Keep,
      DropCondition ? ConstantInt::getTrue(Assume->getContext()) : nullptr);
}

/// A load whose check was hoisted keeps its `!align` when the check is
/// terminal (marked guarded, as a hoisted access is); under recover it and
/// what it fed go (in Private's callees).
void finishHoistedLoad(LoadInst &Load, const CheckSite &By,
                       PrivateCallee Private) {
  if (!By.Policy.isTerminal()) {
    Load.setMetadata(LLVMContext::MD_align, nullptr);
    NumFedPromisesDropped += dropAlignPromisesFedBy(&Load, Private);
    return;
  }
  GuardNote Note;
  Note.Placement = By.Placement;
  Note.Downgrade = By.Policy.Downgrade;
  writeGuardNote(Load, Note);
}

void Emitter::finishAccess(const AlignmentPromise &A, const CheckSite &By) {
  if (!By.Policy.isTerminal()) {
    // Recover: the kernel goes on with the pointer, at the alignment its
    // element type can count on.
    lowerToABIAlignment(*A.Inst);
    return;
  }
  GuardNote Note;
  Note.Placement = By.Placement;
  Note.Downgrade = By.Policy.Downgrade;
  writeGuardNote(*A.Inst, Note);
}

void Emitter::finishPromises(const CheckSite &S, CallInst *Assume) {
  if (S.Kind == SiteKind::Accesses) {
    for (const PlannedCheck &C : S.Checks)
      for (const AlignmentPromise *A : C.Covers)
        finishAccess(*A, S);
    return;
  }
  for (const PlannedCheck &C : S.Checks)
    if (C.Reload)
      finishHoistedLoad(*C.Reload, S, Private);
  if (S.Promises.empty())
    return; // only hoisted loads
  if (S.KeepsParamAttributes)
    return; // the attributes stay until the expansion, which checks them
  if (S.Kind == SiteKind::Assume) {
    // Each assume's promises stay in (or, under recover, go from) it: one
    // assume at the promise, several adjacent ones, or, for checks hoisted
    // before a loop, the assume in the loop.
    MapVector<CallInst *, SmallVector<const AlignmentPromise *, 2>> ByAssume;
    for (const AlignmentPromise *A : S.Promises)
      ByAssume[A->Assume].push_back(A);
    for (auto &[Made, Promises] : ByAssume)
      finishAssume(S, Made, Promises);
    return;
  }
  finishAssume(S, Assume, S.Promises);
}

void Emitter::finishAssume(const CheckSite &S, CallInst *Assume,
                           ArrayRef<const AlignmentPromise *> Promises) {
  if (!S.Policy.isTerminal())
    return dropPromises(Assume, Promises, Private);
  assert(Assume && "terminal actions keep every promise in an assume");
  // A legacy condition is kept as a bundle (KeptPromises.h), where the
  // check's branch would fold it away; the audit still names it by what was
  // written. A deferred site has no branch until the pipeline's end: there
  // the condition stays as written, and costs the optimiser what it costs
  // without align-guard (AlignmentFromAssumptions reads bundles only).
  bool Legacy = all_of(Promises, [](const AlignmentPromise *A) {
    return A->Kind == PromiseKind::AssumeICmp;
  });
  bool AsWritten = Legacy && S.Deferred;
  if (!AsWritten && !(Assume = keepCheckedBundles(*Assume, Promises)))
    return; // it promised only what the checks' branches now say
  GuardNote Note;
  if (S.Kind != SiteKind::Assume || (Legacy && !AsWritten))
    Note.MadeFrom = Promises.front()->Kind;
  Note.Placement = S.Placement; // `hoisted` when checked before its loop
  Note.Downgrade = S.Policy.Downgrade;
  writeGuardNote(*Assume, Note);
}

void Emitter::run() {
  // Values first (hoisted addresses need ScalarEvolution on the unsplit
  // function), then one site at a time.
  std::vector<Materialized> Values;
  for (const CheckSite &S : Plan.Sites)
    Values.push_back(materialize(S));
  for (size_t I = 0; I != Plan.Sites.size(); ++I)
    emitSite(Plan.Sites[I], Values[I]);
  // Accesses covered by a check at another site follow that site's policy.
  for (const LeftOutPromise &L : Plan.LeftOut)
    if (L.Reason == LeftOutReason::Covered &&
        L.Promise->Kind == PromiseKind::Access)
      finishAccess(*L.Promise, Plan.Sites[L.CoveringSite]);
}

} // namespace

void emitCheckPlan(const CheckPlan &Plan, SiteDescriptors &Sites,
                   UnalignedCopies &Copies, LazyScalarEvolution &SE,
                   Function *RecoverCopy, CopyEmission *AsCopy) {
  Emitter(Plan, Sites, Copies, SE, RecoverCopy, AsCopy).run();
}

} // namespace alignguard
