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
// trap, return=N, fallback) or dropped with everything they fed (recover).
// It decides nothing: what is checked, where and how comes from the plan.
// Every instruction it emits carries !nosanitize.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_CHECKEMITTER_H
#define ALIGNGUARD_CHECKEMITTER_H

#include "CheckPlan.h"
#include "RuntimeABI.h"
#include "UnalignedCopies.h"

#include "llvm/Analysis/ScalarEvolution.h"

namespace alignguard {

/// Emits Plan into its function. SE must be the function's, computed after
/// the preparation step (it expands hoisted addresses). Fallback sites call
/// the copy Copies made in that step.
void emitCheckPlan(const CheckPlan &Plan, SiteDescriptors &Sites,
                   UnalignedCopies &Copies, llvm::ScalarEvolution &SE);

} // namespace alignguard

#endif // ALIGNGUARD_CHECKEMITTER_H
