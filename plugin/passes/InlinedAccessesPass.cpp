//===- InlinedAccessesPass.cpp - Accesses checked before inlining ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See InlinedAccessesPass.h.
//
//===----------------------------------------------------------------------===//
#include "InlinedAccessesPass.h"

#include "AlignGuardPass.h"
#include "CheckEmitter.h"
#include "CheckPlanner.h"
#include "DeviceReport.h"
#include "Diagnostics.h"
#include "LazyAnalysis.h"
#include "PromiseDescription.h"
#include "Promises.h"
#include "RuntimeABI.h"
#include "SubjectNames.h"
#include "UnalignedCopies.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;

namespace alignguard {
namespace {

/// The over-aligned accesses on F's arguments.
std::vector<AlignmentPromise> collectAccesses(Function &F) {
  CollectScope Scope;
  Scope.EntryParams = false;
  Scope.Accesses = true;
  std::vector<AlignmentPromise> Promises =
      collectAlignmentPromises(F, /*IsEntry=*/true, Scope);
  llvm::erase_if(Promises, [](const AlignmentPromise &A) {
    return A.Kind != PromiseKind::Access;
  });
  return Promises;
}

/// One warning for an entry point whose plan, had `accesses` been asked
/// for, would check accesses on its arguments.
void warnUnchecked(const CheckPlan &Plan) {
  unsigned Checks = 0;
  const AlignmentPromise *First = nullptr;
  for (const CheckSite &S : Plan.Sites)
    if (S.Kind == SiteKind::Accesses && !S.Checks.empty()) {
      Checks += S.Checks.size();
      if (!First)
        First = S.Checks.front().Promise;
    }
  if (!First)
    return;
  Function &F = *Plan.F;
  std::string More =
      Checks > 1 ? " and " + std::to_string(Checks - 1) + " more" : "";
  warnAt(F, promiseDebugLoc(*First),
         "in function '" + F.getName() + "': over-aligned accesses to " +
             Plan.describe(First).Subject + More +
             " are not checked; add the 'accesses' option to check them "
             "(align-guard<ACTION;accesses>, --alignguard=ACTION,accesses, "
             "alignguard_instrument(... ACCESSES))");
}

/// Whether pipeline start made a recover copy of F (UnalignedCopies.h).
bool hasRecoverCopy(const Function &F) {
  return F.getParent()->getFunction((F.getName() + RecoverSuffix).str());
}

} // namespace

InlinedAccessesPass::InlinedAccessesPass(AlignGuardOptions Opts, bool Report)
    : Opts(std::move(Opts)), Report(Report),
      Facts(std::make_shared<ModuleFacts>()) {}

InlinedAccessesPass::ModuleFacts &InlinedAccessesPass::facts(Function &F) {
  Module &M = *F.getParent();
  if (Facts->M == &M && Facts->Anchor)
    return *Facts;
  *Facts = ModuleFacts();
  Facts->M = &M;
  Facts->Anchor = &F;
  Facts->Entries = std::make_unique<EntryPoints>(M, Opts);
  Expected<Suppressions> Suppressed = Suppressions::load(M, Opts.Ignorelist);
  if (!Suppressed) {
    consumeError(Suppressed.takeError()); // the module-level run reports it
    return *Facts;
  }
  Facts->Suppressed = std::make_unique<Suppressions>(std::move(*Suppressed));
  Facts->Action = moduleAction(M, Opts);
  Facts->Usable = checkFailureCalls(M, Facts->Action).empty();
  return *Facts;
}

PreservedAnalyses InlinedAccessesPass::run(Function &F,
                                           FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || isOptedOut(F) || isRecoverCopy(F))
    return PreservedAnalyses::all();
  ModuleFacts &MF = facts(F);
  if (!MF.Usable || !MF.Entries->isEntry(F) || MF.Suppressed->of(F))
    return PreservedAnalyses::all();
  std::vector<AlignmentPromise> Promises = collectAccesses(F);
  if (Promises.empty())
    return PreservedAnalyses::all();

  // As the build's accesses-only run after the inliners will check F.
  AlignGuardOptions AsAfterInlining = Opts;
  AsAfterInlining.Accesses = AsAfterInlining.AccessesOnly = true;
  AsAfterInlining.Deferred = true;
  PlanRequest Request =
      planRequest(AsAfterInlining, MF.Action, /*IsEntry=*/true, F);
  LazyLoopInfo LI = lazily<LoopAnalysis>(FAM, F);
  LazyScalarEvolution SE = lazily<ScalarEvolutionAnalysis>(FAM, F);
  CheckPlan Plan = planChecks(
      F, Promises, Request, {FAM.getResult<DominatorTreeAnalysis>(F), LI, SE});
  if (!Opts.Accesses) {
    if (Report)
      warnUnchecked(Plan);
    return PreservedAnalyses::all();
  }
  if (Plan.empty())
    return PreservedAnalyses::all();
  if (MF.Action == FailureAction::Fallback || hasRecoverCopy(F)) {
    // The module-level run after the inliners checks F with the copy made
    // from it (fallback's, or recover's rerun copy, whose checks take F's
    // descriptors); it cannot reach copies of F already inlined into
    // callers, so F stays out of them.
    F.addFnAttr(Attribute::NoInline);
    return PreservedAnalyses::none();
  }
  // What the plan leaves out, the module-level run lists.
  Plan.LeftOut.clear();
  if (Report)
    reportPlan(Plan, FAM.getResult<OptimizationRemarkEmitterAnalysis>(F),
               MF.Action);
  SiteDescriptors Sites(*F.getParent());
  UnalignedCopies NoCopies;
  emitCheckPlan(Plan, Sites, NoCopies, SE, /*RecoverCopy=*/nullptr);
  return PreservedAnalyses::none();
}

} // namespace alignguard
