//===- PlaceChecks.h - The checks of one place ------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One place's branch and failing side, from the checks' values there: what
// the emitter makes for an immediate site, and what align-guard-expand makes
// of a deferred one's marker (DeferredPlaces.h), so that both are the same
//
//   %ag.any = or i64 %p1, %p2              ; same mask: one test
//   %bad = icmp ne (and %ag.any, 63), 0
//   br i1 %bad, label %alignguard.fail, label %alignguard.ok, !prof !cold
//   alignguard.fail:                       ; which one failed, then the policy
//     call void @__alignguard_report_abort(ptr @site, i64 %p, i64 64, i64 0)
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_PLACECHECKS_H
#define ALIGNGUARD_PLACECHECKS_H

#include "CheckPlan.h"
#include "RuntimeABI.h"

#include "llvm/IR/IRBuilder.h"

namespace alignguard {

/// An IRBuilder whose every instruction is marked as instrumentation.
struct CheckBuilder
    : llvm::IRBuilder<llvm::ConstantFolder, llvm::IRBuilderCallbackInserter> {
  explicit CheckBuilder(llvm::Instruction *At);
};

/// One scalar pointer tested at a place, as values there, and the
/// descriptor its report names.
struct PlaceCheck {
  llvm::Value *Pointer;          ///< a scalar pointer
  llvm::Value *Alignment;        ///< an integer: what is tested
  llvm::Value *Offset = nullptr; ///< the promise's offset (an integer), or null
  llvm::Value *Guard = nullptr;  ///< an i1 that must also hold to fail, or null
  /// The descriptor, or a table of them (siteTable) with Element naming
  /// which; null under trap.
  llvm::Value *Site = nullptr;
  llvm::DebugLoc Loc;
  unsigned Element = 0; ///< when Site is a table: its Element-th descriptor
};

/// Tests Checks (at least one) before At in one rarely taken branch, and
/// builds the failing side Policy asks for: one hook call naming the first
/// check that fails (a terminal action), or each in turn (recover).
/// Copy: what a fallback or rerun side calls (null for the others).
void emitPlaceChecks(llvm::ArrayRef<PlaceCheck> Checks,
                     const FailurePolicy &Policy, llvm::Instruction *At,
                     llvm::Function *Copy);

} // namespace alignguard

#endif // ALIGNGUARD_PLACECHECKS_H
