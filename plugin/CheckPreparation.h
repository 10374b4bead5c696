//===- CheckPreparation.h - The IR changes that must precede planning -----===//
//
// Planning reads IR and changes nothing; a few changes must come first, and
// they all happen here, in one named step before any function is planned:
//   - the fallback copies (UnalignedCopies.h), cloned from bodies no check
//     has touched yet;
//   - a preheader for every loop around an access promise, so that its
//     check can be hoisted there (what loop-simplify would give it later);
//   - `or disjoint` where an `or` adds (what InstCombine or a newer LLVM
//     would mark), so that ScalarEvolution reads the address as affine.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_CHECKPREPARATION_H
#define ALIGNGUARD_CHECKPREPARATION_H

#include "Promises.h"
#include "UnalignedCopies.h"

#include "llvm/IR/PassManager.h"

namespace alignguard {

/// Prepares F, whose promises are Promises, for planning. Fallback says
/// whether its checks may fall back (then its copy is made now). Returns
/// true when F's CFG or instructions changed (its analyses are then stale).
bool prepareForChecks(llvm::Function &F,
                      llvm::ArrayRef<AlignmentPromise> Promises, bool Fallback,
                      UnalignedCopies &Copies,
                      llvm::FunctionAnalysisManager &FAM);

} // namespace alignguard

#endif // ALIGNGUARD_CHECKPREPARATION_H
