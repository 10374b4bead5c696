//===- AccessPlacement.h - Where an access is checked -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// align-guard<accesses> checks the alignment that loads, stores, masked
// accesses and memory intrinsics promise themselves (Halide never writes an
// assume: it puts `align 32` on its vector loads). A check per access per
// iteration would cost more than the aligned access saves, so each check
// goes as early as it is valid:
//
//   loop:                                 preheader:
//     %p = gep %in, 8*%i                    check %in (the first address)
//     load <8 x float>, %p, align 32        br loop
//                                         loop: (no check)
//
// An address `start + i*step` in a loop whose step is a multiple of the
// alignment (ScalarEvolution) is checked once, as its first address, in the
// loop's preheader; then again outward while it stays affine. This file
// only decides where: CheckPlanner merges the places (one check for
// addresses AlignmentFacts shows a multiple of the alignment apart) and
// CheckEmitter expands the addresses. An assume's promise in a loop (a row
// pointer `img + y*stride` given to __builtin_assume_aligned in the row
// loop) is placed by the same rules, and the assume stays in the loop
// behind the check. The hoisted
// check runs only when the access will: the access must run on every
// iteration, and for a loop that tests before its body (as clang emits it)
// the check is guarded by the loop taking at least one iteration. Checks of
// addresses a multiple of the alignment apart are one check. An address
// that is not affine keeps its check in the loop, before the access.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ACCESSPLACEMENT_H
#define ALIGNGUARD_ACCESSPLACEMENT_H

#include "AlignmentFacts.h"
#include "GuardMetadata.h"
#include "Promises.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"

#include <vector>

namespace alignguard {

/// Where one access (or assume) promise can be checked: the earliest valid
/// place, with
/// the address there still symbolic. A promise whose step is not known to
/// be a multiple of the alignment has two (first and second address).
struct AccessCandidate {
  /// The check goes before this instruction.
  llvm::Instruction *InsertBefore;
  /// The address to check: Pointer itself when not hoisted.
  llvm::Value *Pointer;
  /// The address at InsertBefore when hoisted (expanded by the emitter);
  /// null otherwise.
  const llvm::SCEV *Address = nullptr;
  /// The check fails only when all of these hold (the loop runs).
  llvm::SmallVector<LoopGuard, 2> Guards;
  uint64_t Alignment;
  CheckPlacement Placement;
  const AlignmentPromise *Promise;
};

/// Places the checks of F's access promises, or of an assume's promise on
/// a scalar pointer (reads IR only): each stands for its address before
/// A->Inst. Loops must have preheaders to hoist to (the preparation step
/// inserts them).
std::vector<AccessCandidate>
placeAccessChecks(llvm::ArrayRef<const AlignmentPromise *> Accesses,
                  llvm::DominatorTree &DT, llvm::LoopInfo &LI,
                  llvm::ScalarEvolution &SE);

} // namespace alignguard

#endif // ALIGNGUARD_ACCESSPLACEMENT_H
