//===- CheckPlan.h - What align-guard will do to one function ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The plan is a value: CheckPlanner makes it without touching IR, the audit
// can print it, tests can read it, and CheckEmitter carries it out. For one
// function it lists the sites (places that get one branch each), for each
// its checks, the promises it answers for, its failure policy and
// placement; and every promise left out, with why.
//
//   site 0: entry-params before %0, abort, at-promise
//     check argument #1 'b' (64)
//   site 1: accesses before preheader's br, abort, hoisted
//     check {%in,+,32}<loop> first address (32), covers 2 accesses
//   site 2: assume before preheader's br, abort, hoisted
//     check {%img,+,%stride}<loop> first address, and second if it loops
//   left out: assume-bundle on 'p': covered by site 0
//
// A parameter and an access of one pointer at one place are one check: an
// access an entry parameter's check covers is left out (covered by its
// site); one that needs more than the parameter's alignment, and whose check
// would run whenever the parameter's does, raises that check instead
// (`check argument #0 'x' raised to 32`).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_CHECKPLAN_H
#define ALIGNGUARD_CHECKPLAN_H

#include "AlignmentFacts.h"
#include "GuardMetadata.h"
#include "Options.h"
#include "PromiseDescription.h"
#include "Promises.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace alignguard {

/// What a site checks: the promises of one assume, the `align` parameters
/// of an entry point, the over-aligned accesses checked at one place, or
/// the pointer an instruction produces (a call's result, a load with
/// `!align`), right after it.
enum class SiteKind { Assume, EntryParams, Accesses, Result };

/// `assume`, `entry-params`, `accesses`, `result`.
llvm::StringRef siteKindName(SiteKind K);

/// How the failing side of a site's checks ends.
struct FailurePolicy {
  FailureAction Action = FailureAction::Abort;
  int64_t ReturnValue = 0; ///< Return: what the entry point returns
  /// The funclet the site is in (Windows EH), or null.
  llvm::Instruction *Funclet = nullptr;
  /// Why the requested return/fallback could not be used (then Action is
  /// Abort); empty when it was.
  std::string Downgrade;

  /// Recover at an entry point where nothing observable can run before the
  /// check: the failing side reruns the call in the function's recover copy
  /// (UnalignedCopies.h: the same body, checked in plain recover, so it
  /// reports and goes on without the promises) and returns what it returns.
  /// The aligned path keeps every promise.
  bool Rerun = false;

  /// Abort or return=N on a device (devicePrinter): the failing side
  /// prints the report from the device, then stops the kernel or returns
  /// (DeviceReport.h).
  bool OnDevice = false;

  /// The failing side leaves the function or the program: nothing after
  /// the check runs with a broken promise, so the promise can stay.
  bool isTerminal() const { return Action != FailureAction::Recover || Rerun; }
  /// The actions a deferred run defers (abort, trap, recover but not its
  /// rerun): the rest of the function cannot observe their failing side.
  /// return=N and fallback leave with a value callers may see, which the
  /// optimiser must know about (DeferredPlaces.h).
  bool canDefer() const {
    return (Action == FailureAction::Abort && !OnDevice) ||
           Action == FailureAction::Trap ||
           (Action == FailureAction::Recover && !Rerun);
  }
};

/// One pointer tested at a site.
struct PlannedCheck {
  /// The promise that names the check in the report.
  const AlignmentPromise *Promise;
  /// The pointer, when it is a value at the site (a fixed vector of
  /// pointers is tested lane by lane).
  llvm::Value *Pointer = nullptr;
  /// Otherwise the address, symbolic until the emitter expands it.
  const llvm::SCEV *Address = nullptr;
  /// The check fails only when all of these hold (a hoisted access or
  /// assume check: the loop runs, or runs twice).
  llvm::SmallVector<LoopGuard, 2> Guards;
  /// The access promises this check answers for (accesses only).
  std::vector<const AlignmentPromise *> Covers;
  /// A loop-invariant load with `!align` whose check was hoisted to the
  /// loop's preheader: the emitter loads the pointer again there (without
  /// the metadata) and tests that; the load in the loop keeps its promise
  /// (nothing in the loop writes memory, so it loads the same pointer).
  llvm::LoadInst *Reload = nullptr;
  /// Non-zero when the check tests more than Promise's alignment: an entry
  /// parameter's check raised to the alignment of an access of the same
  /// pointer at the same place, so that one check (named after the
  /// parameter) answers for both.
  uint64_t RaisedAlignment = 0;
};

struct CheckSite {
  SiteKind Kind;
  /// The checks go before this instruction.
  llvm::Instruction *InsertBefore;
  /// Assume sites at their promises: the assume the checks go before, the
  /// last of adjacent ones whose promises they all check (the emitter moves
  /// the others down to after the checks); null for checks hoisted before
  /// a loop. Each promise stays in (or, under recover, goes from) its own
  /// assume, AlignmentPromise::Assume.
  llvm::CallInst *Assume = nullptr;
  CheckPlacement Placement = CheckPlacement::AtPromise;
  FailurePolicy Policy;
  /// The checks; may be empty when every promise of the site is covered.
  std::vector<PlannedCheck> Checks;
  /// Every promise made here that the site answers for (assume and
  /// parameter sites), covered ones included: the emitter keeps them
  /// guarded or, under recover, drops them.
  std::vector<const AlignmentPromise *> Promises;
  /// A marker now, the branch at the end of the pipeline (DeferredPlaces.h).
  bool Deferred = false;
  /// A deferred entry site of a function nothing calls: its parameters keep
  /// their `align` until the expansion removes it. Until then nothing but
  /// the marker reads the pointers before the check, and the optimiser
  /// reads the attribute for free where an assume costs it
  /// (AlignmentFromAssumptions, assume queries in InstCombine). A function
  /// with a caller here could be inlined first, and the inliner drops
  /// parameter attributes: there the promise goes into an assume.
  bool KeepsParamAttributes = false;
  /// The failing side reports through one table of the checks'
  /// descriptors, in Checks' order, and the runtime's table hook finds the
  /// failing pointer (RuntimeABI.h); otherwise each check has its own
  /// descriptor. Checks are then ordered by argument number, so that the
  /// function's own arguments are passed on in the registers they arrived
  /// in.
  bool ReportsByTable = false;
};

/// Why a promise gets no check of its own.
enum class LeftOutReason {
  Unsupported,   ///< no check can be inserted (Promises.h says why)
  Trivial,       ///< alignment 1
  TypeAlignment, ///< the type's alignment on a reference (Promises.h)
  Checked,       ///< the code's own test, or the IR's construction
  Guarded,       ///< an earlier align-guard run's check
  Covered,       ///< another planned check covers it
  NotInScope,    ///< align-guard with these options does not check it
  Suppressed,    ///< the ignorelist or the source opts its function out
};

struct LeftOutPromise {
  const AlignmentPromise *Promise;
  LeftOutReason Reason;
  /// The text for warnings, remarks and the audit.
  std::string Why;
  /// Covered: the covering site.
  int CoveringSite = -1;
};

/// What a plan does with one promise, as the audit's `plan` object shows it
/// and align-guard's remarks carry it (their YAML arguments), so that the
/// two can be compared field by field.
struct PromisePlan {
  bool Check = false;      ///< it gets a check of its own
  std::optional<int> Site; ///< the site that checks or covers it
  std::string Action;      ///< that site's failure action
  std::string Placement;   ///< that site's placement
  std::string Reason;      ///< why no check, or why the action changed
  /// How that site is emitted (CheckSite): deferred to the end of the
  /// pipeline, and reported by one table (`table`) or by each check's own
  /// descriptor (`each`), or printed from the device (`device`); empty
  /// under trap, which names nothing.
  bool Deferred = false;
  std::string Report;
};

struct CheckPlan {
  llvm::Function *F = nullptr;
  std::vector<CheckSite> Sites;
  std::vector<LeftOutPromise> LeftOut;
  /// Every promise's description, made before any IR changed.
  llvm::DenseMap<const AlignmentPromise *, PromiseDescription> Descriptions;

  /// True when the plan changes nothing.
  bool empty() const { return Sites.empty(); }
  /// The site that checks or covers A (or -1), and, through Left, A's
  /// left-out record when it has one.
  int siteOf(const AlignmentPromise *A,
             const LeftOutPromise **Left = nullptr) const;
  /// What the plan does with A, one of its promises.
  PromisePlan planOf(const AlignmentPromise *A) const;
  const PromiseDescription &describe(const AlignmentPromise *A) const {
    return Descriptions.find(A)->second;
  }
  /// A readable dump (LLVM_DEBUG, unit tests).
  void print(llvm::raw_ostream &OS) const;
};

} // namespace alignguard

#endif // ALIGNGUARD_CHECKPLAN_H
