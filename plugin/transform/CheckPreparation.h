//===- CheckPreparation.h - The IR changes that must precede planning -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Planning reads IR and changes nothing; a few changes must come first, and
// they all happen here, in one named step before a function is planned
// (under fallback, before any function is: AlignGuardPass.cpp):
//   - the fallback copies (UnalignedCopies.h), cloned from bodies no check
//     has touched yet;
//   - a preheader for every loop around an access promise, an `!align`
//     load or an assume, so that its check can be hoisted there (what
//     loop-simplify would give it later);
//   - in a function with an assume in a loop (not optnone), its allocas
//     promoted to registers (SROA's first step at -O1 and up), so that
//     ScalarEvolution sees clang's induction variables at pipeline start
//     and a row pointer's promise can be checked before the row loop;
//   - one read of each pointer field of an aggregate (MLIR's memref
//     descriptor), defined where the aggregate is, so that an address
//     computed from it is loop-invariant;
//   - `or disjoint` where an `or` adds (what InstCombine or a newer LLVM
//     would mark), so that ScalarEvolution reads the address as affine;
//   - an invoke whose result is promised aligned gets a normal destination
//     of its own, where the check goes;
//   - for the whole module first, a callee's return promise (`align` on its
//     return, `allocalign` on a parameter) moves onto each of its calls:
//     the check of one call can then drop the promise there without
//     dropping it from the others (ValueTracking reads the callee's too).
//
//     declare align 64 ptr @get()          declare ptr @get()
//     %p = call ptr @get()                 %p = call align 64 ptr @get()
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_CHECKPREPARATION_H
#define ALIGNGUARD_CHECKPREPARATION_H

#include "LazyAnalysis.h"
#include "Promises.h"
#include "UnalignedCopies.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/PassManager.h"

namespace alignguard {

/// Moves every callee's return promise onto its calls (see above); a type
/// alignment stays unless TypeAlignment. Returns true when anything moved.
bool prepareReturnPromises(llvm::Module &M, bool TypeAlignment);

/// Prepares F, whose promises are Promises, for planning. Fallback says
/// whether its checks may fall back (then its copy is made now). Returns
/// true when F's CFG or instructions changed (its analyses are then stale).
bool prepareForChecks(llvm::Function &F,
                      llvm::ArrayRef<AlignmentPromise> Promises, bool Fallback,
                      UnalignedCopies &Copies,
                      llvm::FunctionAnalysisManager &FAM);

/// True when one of Promises is an assume's, in a loop of LI, that
/// align-guard may check before its loop (prepareForChecks prepares F for
/// it). LI is made only for an assume outside the entry block.
bool hasAssumeInLoop(llvm::ArrayRef<AlignmentPromise> Promises,
                     LazyLoopInfo &LI);

/// Calls Use with a copy of F that is prepared as align-guard prepares F
/// (its promises collected as align-guard<accesses if Accesses; loads if
/// Loads> collects
/// them; no fallback copy is made), with fresh analyses in FAM, and erases
/// the copy afterwards. The audit plans there what align-guard would plan,
/// since align-guard plans on prepared IR.
void withPreparedCopy(llvm::Function &F, bool IsEntry, bool Accesses,
                      bool Loads, llvm::FunctionAnalysisManager &FAM,
                      llvm::function_ref<void(llvm::Function &Copy)> Use);

} // namespace alignguard

#endif // ALIGNGUARD_CHECKPREPARATION_H
