//===- AlignGuardPass.cpp - Turn alignment promises into checks ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See AlignGuardPass.h for the shape of the rewrite. The module driver: the
// data path is collect (Promises.h) -> prepare (CheckPreparation.h, the only
// IR change before planning) -> plan (CheckPlanner.h, reads IR only) ->
// report the plan (warnings, remarks) -> emit (CheckEmitter.h), one
// function at a time, with the analyses of the function analysis manager.
//
//===----------------------------------------------------------------------===//
#include "AlignGuardPass.h"

#include "CheckEmitter.h"
#include "CheckPlanner.h"
#include "CheckPreparation.h"
#include "Compat.h"
#include "DeviceReport.h"
#include "Diagnostics.h"
#include "EntryPoints.h"
#include "IRShapes.h"
#include "LazyAnalysis.h"
#include "Promises.h"
#include "RuntimeABI.h"
#include "Suppressions.h"
#include "UnalignedCopies.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumTrivial, "Promises of alignment 1, which need no check");
STATISTIC(NumTypeAlignment,
          "Type alignments on references, not checked by default");
STATISTIC(NumUnsupported, "Promises left alone, with a warning");
STATISTIC(NumRedundant, "Checks left out: an earlier check covers them");
STATISTIC(NumAlreadyChecked,
          "Checks left out: the code or an earlier run checks them");

namespace alignguard {
namespace {

/// The promises of one function that align-guard looks at (with
/// accesses-only, only the accesses).
std::vector<AlignmentPromise> collect(Function &F, bool IsEntry,
                                      const AlignGuardOptions &Opts) {
  CollectScope Scope;
  Scope.Accesses = Opts.Accesses;
  Scope.Returns = true;
  Scope.Loads = Opts.Loads;
  std::vector<AlignmentPromise> Promises =
      collectAlignmentPromises(F, IsEntry, Scope);
  if (Opts.AccessesOnly)
    llvm::erase_if(Promises, [](const AlignmentPromise &A) {
      return A.Kind != PromiseKind::Access;
    });
  return Promises;
}

/// The action of this module (moduleAction), with a warning when it is not
/// the one requested.
FailureAction decideModuleAction(Module &M, const AlignGuardOptions &Opts) {
  FailureAction Action = moduleAction(M, Opts);
  if (Action == Opts.Action)
    return Action;
  // An AMDGPU kernel prints only through the ROCm device libraries.
  bool NoLibraries = Action == FailureAction::Trap &&
                     compat::targetTriple(M).getOS() == Triple::AMDHSA;
  diagnose(M.getContext(),
           "align-guard: target '" + compat::targetTriple(M).str() +
               "' cannot link the AlignGuard runtime" +
               (NoLibraries ? " and its device report needs the ROCm device "
                              "libraries linked after align-guard "
                              "('device-libs-after')"
                            : "") +
               "; failing checks in this module " +
               (Action == FailureAction::Trap
                    ? "trap"
                    : "report from the device and stop") +
               " instead of '" + failureActionName(Opts.Action) + "'",
           DS_Warning);
  return Action;
}

} // namespace

/// The promise's plan (CheckPlan::planOf), the fields of the audit's `plan`
/// object, as a remark's extra arguments: in the remark file, not in the
/// message (tests/tools/agreement.py compares the two).
template <typename RemarkT>
RemarkT withPlan(RemarkT R, const CheckPlan &Plan, const AlignmentPromise &A) {
  PromisePlan P = Plan.planOf(&A);
  R << ore::setExtraArgs() << ore::NV("Check", P.Check)
    << ore::NV("Site", P.Site ? *P.Site : -1) << ore::NV("Action", P.Action)
    << ore::NV("Placement", P.Placement) << ore::NV("Reason", P.Reason)
    << ore::NV("Deferred", P.Deferred) << ore::NV("Report", P.Report);
  return R;
}

/// Tells the user what the plan leaves out and where it could not use the
/// requested action: warnings for what needs attention, remarks for the
/// rest (-pass-remarks=align-guard), each with the promise's plan.
void reportPlan(const CheckPlan &Plan, OptimizationRemarkEmitter &ORE,
                FailureAction Requested) {
  Function &F = *Plan.F;
  for (const LeftOutPromise &L : Plan.LeftOut) {
    const AlignmentPromise &A = *L.Promise;
    const PromiseDescription &D = Plan.describe(&A);
    if (L.Reason == LeftOutReason::Unsupported) {
      ++NumUnsupported;
      warnAt(F, promiseDebugLoc(A),
             "in function '" + F.getName() + "': " + promiseKindName(A.Kind) +
                 " on " + D.Subject + " left unchecked: " + L.Why);
    }
    NumTypeAlignment += L.Reason == LeftOutReason::TypeAlignment;
    // Alignment 1 is no promise at all: no remark, as the audit lists none.
    if (L.Reason == LeftOutReason::Trivial) {
      ++NumTrivial;
      continue;
    }
    NumRedundant += L.Reason == LeftOutReason::Covered;
    NumAlreadyChecked += L.Reason == LeftOutReason::Checked ||
                         L.Reason == LeftOutReason::Guarded;
    ORE.emit([&] {
      return withPlan(OptimizationRemarkAnalysis(
                          DEBUG_TYPE, "NoCheck",
                          DiagnosticLocation(promiseDebugLoc(A)),
                          A.Inst ? A.Inst->getParent() : &F.getEntryBlock())
                          << promiseKindName(A.Kind) << " on " << D.Subject
                          << " gets no check: " << L.Why,
                      Plan, A);
    });
  }
  for (size_t I = 0; I != Plan.Sites.size(); ++I) {
    const CheckSite &S = Plan.Sites[I];
    if (S.Checks.empty())
      continue;
    const AlignmentPromise &First = *S.Checks.front().Promise;
    if (!S.Policy.Downgrade.empty()) {
      std::string What = Plan.describe(&First).Subject;
      if (S.Checks.size() > 1)
        What += " and " + std::to_string(S.Checks.size() - 1) + " more";
      if (S.Kind == SiteKind::Accesses)
        What = "the access to " + Plan.describe(&First).Subject;
      warnAt(
          F, S.InsertBefore->getDebugLoc(),
          "in function '" + F.getName() + "': " + failureActionName(Requested) +
              " cannot be used for the "
              "check of " +
              What + ": " + S.Policy.Downgrade + "; a violation there aborts");
    }
    // One remark per promise the site checks: an access check can answer
    // for several accesses, and one access can need two checks (its first
    // and second address).
    SetVector<const AlignmentPromise *> Checked;
    for (const PlannedCheck &C : S.Checks) {
      Checked.insert(C.Promise);
      Checked.insert(C.Covers.begin(), C.Covers.end());
    }
    for (const AlignmentPromise *A : Checked)
      ORE.emit([&] {
        return withPlan(
            OptimizationRemark(DEBUG_TYPE, "Checked", S.InsertBefore)
                << promiseKindName(A->Kind) << " on "
                << Plan.describe(A).Subject << " checked at site "
                << std::to_string(I) << " ("
                << failureActionName(S.Policy.Action) << ", "
                << checkPlacementName(S.Placement) << ")",
            Plan, *A);
      });
  }
}

namespace {

/// One run of align-guard on a module: every function prepared
/// (CheckPreparation.h), planned (CheckPlanner.h), its plan reported and
/// emitted (CheckEmitter.h), with the analyses of the function analysis
/// manager; then the recover copies' private callee clones.
class ModuleRun {
public:
  ModuleRun(Module &M, FunctionAnalysisManager &FAM,
            const AlignGuardOptions &Opts, FailureAction Action,
            const Suppressions &Suppressed)
      : M(M), FAM(FAM), Opts(Opts), Action(Action), Suppressed(Suppressed),
        Sites(M), Entries(M, Opts) {}

  /// Empty when the module's hooks can be called; otherwise why not.
  std::string checkHooks() const { return checkFailureCalls(M, Action); }
  /// True when the module changed.
  bool run();

private:
  /// Prepares F (CheckPreparation.h), checked as As is (itself, or the
  /// callee F is a clone of); true when F changed.
  bool prepare(Function &F, bool IsEntry, const Function &As);
  /// prepare, right before F's instrumentation: the dominator tree and
  /// loops the preparation kept up to date stay for the planner.
  bool prepareNow(Function &F, bool IsEntry, const Function &As);
  /// The recover copy's own clone of Callee (PromiseStripping.h), checked
  /// after the functions.
  Function *privateClone(Function &Callee);
  /// Plans and emits F's checks; true when F changed. A plan with rerun
  /// sites makes F's recover copy first (RecoverCopy). CopyOf: the
  /// function F is a recover copy (or a callee clone) of, whose checks F's
  /// take, in plain recover, without remarks of their own.
  bool instrument(Function &F, bool IsEntry, Function *CopyOf,
                  Function *&RecoverCopy);
  /// Each function, prepared (now or before all: PrepareAllFirst) and
  /// instrumented, then its recover copy.
  bool instrumentFunctions(ArrayRef<Function *> Functions);
  /// The callee clones the recover copies made, which may clone more.
  bool instrumentClones();

  Module &M;
  FunctionAnalysisManager &FAM;
  const AlignGuardOptions &Opts;
  FailureAction Action;
  const Suppressions &Suppressed;
  SiteDescriptors Sites;
  EntryPoints Entries;
  UnalignedCopies Copies;
  /// Under fallback every function is prepared before any is instrumented:
  /// a fallback copy is cloned from a body (and callees) that no check has
  /// touched, and each function's analyses are dropped as it is prepared.
  /// Under the other actions each function is prepared just before it is
  /// instrumented, whose planning then reuses the dominator tree and loops
  /// the preparation asked for.
  bool PrepareAllFirst = false;
  DenseSet<const Function *> Prepared;
  DenseMap<Function *, Function *> PrivateClones;
  std::vector<std::pair<Function *, Function *>> ClonesToCheck;
  /// Clones of callees not prepared yet when they were cloned (a later
  /// function): prepared as their callee is.
  DenseSet<const Function *> UnpreparedClones;
};

bool ModuleRun::prepare(Function &F, bool IsEntry, const Function &As) {
  Prepared.insert(&F);
  // A type alignment left unchecked needs no preparation (no fallback
  // copy for a function whose only promises are references); a suppressed
  // function gets no check: nothing to prepare for.
  std::vector<AlignmentPromise> ToPrepare = collect(F, IsEntry, Opts);
  if (!Opts.TypeAlignment)
    llvm::erase_if(ToPrepare,
                   [](const AlignmentPromise &A) { return A.TypeImplied; });
  if (Suppressed.of(As))
    return false;
  return prepareForChecks(
      F, ToPrepare, IsEntry && Action == FailureAction::Fallback, Copies, FAM);
}

bool ModuleRun::prepareNow(Function &F, bool IsEntry, const Function &As) {
  if (!prepare(F, IsEntry, As))
    return false;
  // What the preparation changes keeps the dominator tree and loops it
  // asked for up to date (CheckPreparation.cpp); the rest is dropped.
  PreservedAnalyses PA;
  PA.preserve<DominatorTreeAnalysis>();
  PA.preserve<LoopAnalysis>();
  FAM.invalidate(F, PA);
  return true;
}

Function *ModuleRun::privateClone(Function &Callee) {
  if (isRecoverCopy(Callee))
    return &Callee;
  Function *&Clone = PrivateClones[&Callee];
  if (!Clone) {
    Clone = makeRecoverCopy(Callee);
    ClonesToCheck.emplace_back(Clone, &Callee);
    // (An opted-out callee is never prepared, nor is its clone.)
    if (!Prepared.count(&Callee) && !isOptedOut(Callee))
      UnpreparedClones.insert(Clone);
  }
  return Clone;
}

bool ModuleRun::instrument(Function &F, bool IsEntry, Function *CopyOf,
                           Function *&RecoverCopy) {
  std::vector<AlignmentPromise> Promises = collect(F, IsEntry, Opts);
  if (Promises.empty())
    return false;
  PlanRequest Request =
      planRequest(Opts, Action, IsEntry, CopyOf ? *CopyOf : F);
  Request.IsCopy = CopyOf != nullptr;
  if (std::optional<Suppression> Why = Suppressed.of(CopyOf ? *CopyOf : F))
    Request.SuppressedBy = Why->Rule;
  // Loops and ScalarEvolution only where a promise needs them
  // (LazyAnalysis.h).
  LazyLoopInfo LI = lazily<LoopAnalysis>(FAM, F);
  LazyScalarEvolution SE = lazily<ScalarEvolutionAnalysis>(FAM, F);
  CheckPlan Plan = planChecks(
      F, Promises, Request, {FAM.getResult<DominatorTreeAnalysis>(F), LI, SE});
  if (!CopyOf)
    reportPlan(Plan, FAM.getResult<OptimizationRemarkEmitterAnalysis>(F),
               Action);
  if (Plan.empty())
    return false;
  if (any_of(Plan.Sites, [](const CheckSite &S) { return S.Policy.Rerun; }))
    RecoverCopy = makeRecoverCopy(F);
  // The copy's checks are branches at once: a deferred marker reads
  // memory only, which would let the optimiser find the copy free of
  // effects and delete its call with the reports in it.
  auto PrivateClone = [this](Function &Callee) { return privateClone(Callee); };
  CopyEmission AsCopy;
  AsCopy.Private = PrivateClone;
  emitCheckPlan(Plan, Sites, Copies, SE, RecoverCopy,
                CopyOf ? &AsCopy : nullptr);
  // None of F's analyses survives its checks: dropped, not asked one by
  // one whether they are still valid (which costs more than the drop).
  FAM.clear(F, F.getName());
  return true;
}

bool ModuleRun::instrumentFunctions(ArrayRef<Function *> Functions) {
  bool Changed = false;
  for (Function *F : Functions) {
    bool IsEntry = Entries.isEntry(*F);
    if (!PrepareAllFirst)
      Changed |= prepareNow(*F, IsEntry, *F);
    Function *RecoverCopy = nullptr;
    // A recover copy an earlier run made (a build's second run checks the
    // accesses the inliner brought into it) is checked as it was then.
    Function *CopyOf = nullptr;
    if (isRecoverCopy(*F))
      if (!(CopyOf = M.getFunction(sourceFunctionName(*F))))
        CopyOf = F;
    Changed |= instrument(*F, IsEntry, CopyOf, RecoverCopy);
    Function *None = nullptr;
    if (RecoverCopy)
      instrument(*RecoverCopy, IsEntry, F, None);
  }
  return Changed;
}

bool ModuleRun::instrumentClones() {
  bool Changed = false;
  for (size_t I = 0; I != ClonesToCheck.size(); ++I) {
    auto [Clone, Callee] = ClonesToCheck[I];
    Function *None = nullptr;
    if (UnpreparedClones.count(Clone))
      Changed |= prepareNow(*Clone, Entries.isEntry(*Callee), *Callee);
    instrument(*Clone, Entries.isEntry(*Callee), Callee, None);
  }
  return Changed;
}

bool ModuleRun::run() {
  // The functions as they are now: copies are added as the run goes.
  SmallVector<Function *, 16> Functions;
  for (Function &F : M)
    if (!F.isDeclaration() && !isOptedOut(F))
      Functions.push_back(&F);
  // The second run of a build checks accesses only: the return promises
  // were moved (and checked) at pipeline start.
  bool Changed =
      !Opts.AccessesOnly && prepareReturnPromises(M, Opts.TypeAlignment);
  PrepareAllFirst = Action == FailureAction::Fallback;
  if (PrepareAllFirst)
    for (Function *F : Functions) {
      Changed |= prepare(*F, Entries.isEntry(*F), *F);
      FAM.clear(*F, F->getName());
    }
  Changed |= instrumentFunctions(Functions);
  Changed |= instrumentClones();
  Copies.eraseUnused();
  return Changed;
}

} // namespace

PreservedAnalyses AlignGuardPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  Expected<Suppressions> Suppressed = Suppressions::load(M, Opts.Ignorelist);
  if (!Suppressed) {
    diagnose(M.getContext(), "align-guard: " + toString(Suppressed.takeError()),
             DS_Error);
    return PreservedAnalyses::all();
  }
  ModuleRun Run(M, FAM, Opts, decideModuleAction(M, Opts), *Suppressed);
  std::string Clash = Run.checkHooks();
  if (!Clash.empty()) {
    diagnose(M.getContext(),
             "align-guard: cannot call the AlignGuard runtime: " + Clash,
             DS_Error);
    return PreservedAnalyses::all();
  }
  return Run.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace alignguard
