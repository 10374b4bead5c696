//===- CheckPlanner.h - Decide every check of a function, change nothing --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// planChecks reads a function and its promises (Promises.h) and returns the
// CheckPlan: which promises get a check, grouped into sites with one branch
// each; which are left out and why (unsupported, trivial, checked by the
// code or the IR's construction, guarded by an earlier run, covered by
// another planned check, not in the options' scope); each site's failure
// policy (return=N and fallback need an entry point, fallback no side effect
// before the check) and placement (AccessPlacement.h). "Already checked"
// and "covered" are both questions to AlignmentFacts, the one coverage
// engine the audit asks too.
//
//   CheckPlan P = planChecks(F, Promises, Request, {DT, LI, SE});
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_CHECKPLANNER_H
#define ALIGNGUARD_CHECKPLANNER_H

#include "CheckPlan.h"
#include "LazyAnalysis.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

namespace alignguard {

/// What the plan is for.
struct PlanRequest {
  /// The action a failing check takes where nothing forces another.
  FailureAction Action = FailureAction::Abort;
  int64_t ReturnValue = 0;
  /// Check over-aligned accesses (align-guard<accesses>).
  bool Accesses = false;
  /// The function is a kernel entry point (EntryPoints.h).
  bool IsEntry = false;
  /// The function is a GPU kernel (isGPUKernel): under return=N it reports
  /// from the device and returns nothing. Read from the function itself,
  /// not from the copy the audit plans on (planRequest).
  bool IsKernel = false;
  /// Check type alignments too (align-guard<type-alignment>).
  bool TypeAlignment = false;
  /// Check pointers loaded with `!align` (align-guard<loads>).
  bool Loads = false;
  /// Under recover, a site that fallback could use reruns the call in a
  /// recover copy (FailurePolicy::Rerun). False for the copy itself and
  /// for a build's second run.
  bool MayRerun = true;
  /// The checks are added after the inliners (a build's accesses-only run,
  /// InlinedAccessesPass.h): return=N then aborts where a caller in the
  /// module may already have been optimised with F's return values
  /// (whyNotReturnAfterInlining).
  bool AfterInlining = false;
  /// Defer what can be deferred (align-guard<deferred>, CheckSite::Deferred).
  bool Deferred = false;
  /// The plan is a recover copy's (or a callee clone's of one): its checks
  /// are branches at once and take the original's descriptors one by one.
  bool IsCopy = false;
  /// The rule that suppresses the function's checks (Suppressions.h:
  /// `fun:main at ubsan.txt:2`); empty: none. Every promise of a
  /// suppressed function is left out (a type alignment left unchecked
  /// stays LeftOutReason::TypeAlignment).
  std::string SuppressedBy;
};

/// The request align-guard's Opts make of the planner for a function
/// (IsEntry; Itself: the function, not a copy made of it to plan on) whose
/// module's checks take Action (moduleAction): the one reading of the
/// options that the guard, the build's after-inlining pass and the audit
/// share.
PlanRequest planRequest(const AlignGuardOptions &Opts, FailureAction Action,
                        bool IsEntry, const llvm::Function &Itself);

/// Why a type alignment gets no check (LeftOutReason::TypeAlignment).
extern const char *const TypeAlignmentWhy;

/// The analyses the planner reads (from the function analysis manager);
/// loops and ScalarEvolution only where a question needs them.
struct PlannerAnalyses {
  llvm::DominatorTree &DT;
  LazyLoopInfo &LI;
  LazyScalarEvolution &SE;
};

/// The action a module's checks take under Opts: device code cannot link
/// the runtime, so there a check traps, or, on a device that can print
/// (devicePrinter), reports from the device and stops (abort), or returns
/// (return=N), unless trap was asked.
FailureAction moduleAction(const llvm::Module &M,
                           const AlignGuardOptions &Opts);

/// Why F's checks, added after the inliners, cannot return N: IPSCCP has
/// run by then and may have folded what F returned without its checks into
/// its callers in the module, which would then never see N. Empty when F
/// has no such caller.
std::string whyNotReturnAfterInlining(const llvm::Function &F);

/// Plans the checks of Promises, all of F. Reads IR only.
CheckPlan planChecks(llvm::Function &F,
                     llvm::ArrayRef<AlignmentPromise> Promises,
                     const PlanRequest &Request, PlannerAnalyses Analyses);

/// The reason a suppressed promise is left out with: `suppressed by RULE`.
std::string suppressionReason(llvm::StringRef Rule);

/// Where the checks of an entry point's `align` parameters go: the first
/// instruction after the allocas (and llvm.localescape) of the entry block.
llvm::Instruction *entryInsertionPoint(llvm::Function &F);

} // namespace alignguard

#endif // ALIGNGUARD_CHECKPLANNER_H
