//===- UnalignedCopies.h - Copies for fallback and recover ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// align-guard<fallback> gives each instrumented entry point a copy that
// makes no alignment promise, and on a misaligned call runs that copy, so a
// misaligned view still computes the right answer (without the aligned fast
// path). The copy, `<name>.alignguard.unaligned` (internal), has
//   - no "align" assume bundles and no legacy alignment assumes;
//   - no `align` on parameters, return values and call sites (the ABI's
//     byval/byref/inalloca/preallocated alignment stays);
//   - no `!align` metadata on loads;
//   - loads, stores, masked loads/stores lowered to their element type's ABI
//     alignment, memory intrinsics to 1 (but not for memory the function
//     allocates itself, which is aligned by construction);
//   - calls to copies of the defined callees that make such promises,
//     transitively.
//
//   define i32 @k(ptr align 64 %a)      define internal i32
//     load <8 x float>, ptr %a,           @k.alignguard.unaligned(ptr %a)
//       align 32                            load <8 x float>, ptr %a, align 4
//
// Running the copy is only valid when nothing observable has happened before
// the check that decides to: the planner asks analysis/CopySafety.h.
//
// align-guard<recover> reruns a failing call the same way where it may
// (FailurePolicy::Rerun), in a recover copy, `<name>.alignguard.recover`:
// F's body as the preparation step left it, promises and all, which the
// pass then checks in plain recover (each failing pointer reported, its
// promises dropped; in its own clones of the local callees they reach,
// made with makeRecoverCopy too, so F's callees keep theirs). A later run
// checks a copy as its function (EntryPoints.h); the audit leaves it out.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_UNALIGNEDCOPIES_H
#define ALIGNGUARD_UNALIGNEDCOPIES_H

#include "SubjectNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <string>

namespace alignguard {

/// The suffix of a copy's name.
inline constexpr const char *UnalignedSuffix = ".alignguard.unaligned";

/// A recover copy of F as F is now (make it after the preparation step and
/// before F's checks): internal, not an entry point, promises kept. Its
/// reports name F (sourceFunctionName).
llvm::Function *makeRecoverCopy(llvm::Function &F);

class UnalignedCopies {
public:
  /// The assumption-free copy of F, made on first use (from F as it is
  /// then: make it before instrumenting F), or the one an earlier run left
  /// in the module (`<name>.alignguard.unaligned`, internal, of F's type).
  llvm::Function *getOrCreate(llvm::Function &F);
  /// The copy of F made so far, or null.
  llvm::Function *lookup(llvm::Function &F) const { return Copies.lookup(&F); }
  /// Erases the copies nothing calls (their functions' checks all ended up
  /// without a fallback), and then the copies only those called.
  void eraseUnused();

private:
  /// True when F or a function it calls makes an alignment promise.
  bool makesPromises(llvm::Function &F);
  void stripPromises(llvm::Function &Copy);

  llvm::DenseMap<llvm::Function *, llvm::Function *> Copies;
  llvm::DenseMap<llvm::Function *, bool> Promising;
};

/// Lowers a load, store, masked load/store or memory intrinsic to the
/// alignment its element type can count on without promises
/// (abiElementAlignment; 1 for a memory intrinsic).
void lowerToABIAlignment(llvm::Instruction &I);

} // namespace alignguard

#endif // ALIGNGUARD_UNALIGNEDCOPIES_H
