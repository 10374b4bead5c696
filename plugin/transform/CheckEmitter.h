//===- CheckEmitter.h - Carry out a CheckPlan -------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The emitter materialises a CheckPlan (CheckPlan.h) in its function, one
// site at a time, through one loop: the checks of a site in one branch,
//
//   %ag.any = or i64 %p1, %p2              ; same mask: one test
//   %bad = icmp ne (and %ag.any, 63), 0
//   br i1 %bad, label %alignguard.fail, label %alignguard.ok, !prof !cold
//   alignguard.fail:                       ; which one failed, then the policy
//     call void @__alignguard_report_abort(ptr @site, i64 %p, i64 64, i64 0)
//
// then the promises the site answers for: kept in a guarded assume (abort,
// trap, return=N, fallback, recover's rerun) or dropped with everything
// they fed (recover).
// It decides nothing: what is checked, where and how comes from the plan.
// Every instruction it emits carries !nosanitize. A deferred run
// (`align-guard<deferred>`, what clang's pipeline runs) puts a marker call
// where the branch goes (DeferredPlaces.h), and align-guard-expand makes the
// branch there at the end of the pipeline (PlaceChecks.h, both ways).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_CHECKEMITTER_H
#define ALIGNGUARD_CHECKEMITTER_H

#include "CheckPlan.h"
#include "LazyAnalysis.h"
#include "PlaceChecks.h"
#include "PromiseStripping.h"
#include "RuntimeABI.h"
#include "UnalignedCopies.h"

namespace alignguard {

/// How a recover copy (or a callee clone of one) is emitted unlike its
/// original: its dropped promises go in its own clones of the callees they
/// reach (PromiseStripping.h), and its checks take the original's
/// descriptors.
struct CopyEmission {
  PrivateCallee Private;
  SiteDescriptors::Reuse Descriptors;
};

/// Emits Plan into its function. SE must be the function's, made (if at
/// all) after the preparation step (it expands hoisted addresses). Fallback
/// sites call the copy Copies made in that step, rerun sites RecoverCopy (made
/// from the function after that step, before this call). Deferred sites
/// (CheckSite::Deferred) get a marker (DeferredPlaces.h) instead of their
/// branch. AsCopy: Plan is a recover copy's (or of a callee clone of one).
void emitCheckPlan(const CheckPlan &Plan, SiteDescriptors &Sites,
                   UnalignedCopies &Copies, LazyScalarEvolution &SE,
                   llvm::Function *RecoverCopy, CopyEmission *AsCopy = nullptr);

} // namespace alignguard

#endif // ALIGNGUARD_CHECKEMITTER_H
