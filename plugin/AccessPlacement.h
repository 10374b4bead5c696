//===- AccessPlacement.h - Where to check an over-aligned access -*- C++ -*-===//
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
// loop's preheader; then again outward while it stays affine. The hoisted
// check runs only when the access will: the access must run on every
// iteration, and for a loop that tests before its body (as clang emits it)
// the check is guarded by the loop taking at least one iteration. Checks of
// addresses a multiple of the alignment apart are one check. An address
// that is not affine keeps its check in the loop, before the access.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ACCESSPLACEMENT_H
#define ALIGNGUARD_ACCESSPLACEMENT_H

#include "Promises.h"

#include "llvm/IR/Function.h"

#include <vector>

namespace alignguard {

/// One check that covers one or more access promises.
struct PlannedAccessCheck {
  /// The check goes before this instruction.
  llvm::Instruction *InsertBefore;
  /// The address to check, materialised before InsertBefore.
  llvm::Value *Pointer;
  /// When non-null, an i1 that is true when the access will run (a loop
  /// that tests first takes at least one iteration): the check fails only
  /// when both hold.
  llvm::Value *Guard = nullptr;
  uint64_t Alignment;
  /// `hoisted` (out of at least one loop), `in-loop` (before the access,
  /// in its loop) or `in-place` (before the access, which is in no loop).
  const char *Placement;
  /// The promises it covers (the first one names the check).
  std::vector<const AlignmentPromise *> Covers;
};

/// Plans the checks of F's access promises and materialises their
/// addresses and guards (instructions only: the CFG is unchanged).
std::vector<PlannedAccessCheck>
planAccessChecks(llvm::Function &F,
                 llvm::ArrayRef<const AlignmentPromise *> Accesses);

} // namespace alignguard

#endif // ALIGNGUARD_ACCESSPLACEMENT_H
