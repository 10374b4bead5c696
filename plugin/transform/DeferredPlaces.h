//===- DeferredPlaces.h - Checks placed early, expanded last ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// In clang's pipeline (Plugin.cpp) align-guard runs deferred: where a
// place's branch goes it puts one marker call, and the `align-guard-expand`
// module pass (passes/ExpandPass.h), at the optimizer-last extension point,
// makes the branch there (PlaceChecks.h, emitPlaceChecks), exactly as an
// immediate run would have:
//
//   call void @alignguard.deferred.check(i32 0) #readonly [
//       "alignguard.checks"(ptr %a, i64 64, i64 0, i1 true, ptr @site.1) ]
//   call void @llvm.assume(i1 true) [ "align"(ptr %a, i64 64) ]
//     becomes, last,
//   %bad = icmp ne (and (ptrtoint %a), 63), 0
//   br i1 %bad, label %alignguard.fail, label %alignguard.ok
//
// The argument is the action (FailureAction); the "alignguard.checks"
// bundle holds five operands per pointer: the pointer, the alignment, the
// offset (0: none), the guard (true: none), the descriptor (null under
// trap), or the table of descriptors it is an element of (RuntimeABI.h,
// createTable: the k-th check naming a table is its k-th element); a
// funclet bundle follows when in one. Bundle operands, not
// arguments: InstCombine asks of every pointer argument of every call it
// visits whether it is non-null, and a bundle operand is never replaced
// by a phi or select.
//
// Why: the optimiser's passes pay for every instruction and block on their
// way; a check is several instructions and two blocks per place, and the
// promises are checked in small functions, so they were a large share of
// what InstCombine, SimplifyCFG and ScalarEvolution's guard queries chewed
// on (bench/RESULTS.md, compile time). One call per place costs them almost
// nothing. The marker reads memory and may not return, as the branch's
// failing side may not: nothing after it moves above it, no store before it
// is dropped, and the assume after it says nothing about the code before it.
// It is `nomerge` and `nobuiltin`, so nothing merges two markers and
// InstCombine does not look its name up among library functions.
//
// Only the actions whose failing side the rest of the function cannot
// observe are deferred: abort, trap, recover. return=N and fallback leave
// the function with a value callers may see, which the optimiser must know
// about (IPSCCP, return attributes), so they are emitted at once.
//
//   opt -passes='align-guard<deferred>,default<O2>,align-guard-expand'
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_DEFERREDPLACES_H
#define ALIGNGUARD_DEFERREDPLACES_H

#include "GuardMetadata.h"
#include "PlaceChecks.h"

namespace alignguard {

/// Puts the marker of Checks under Policy before At.
void emitDeferredPlace(llvm::ArrayRef<PlaceCheck> Checks,
                       const FailurePolicy &Policy, llvm::Instruction *At);

/// Replaces every marker of M by its branch and failing side, and removes
/// the `align` of the parameters a marker checks (kept until now, see
/// CheckEmitter.cpp, keepsParamAttributes). Returns how many it expanded;
/// a marker it cannot read (not written by emitDeferredPlace) is an error.
unsigned expandDeferredChecks(llvm::Module &M);

} // namespace alignguard

#endif // ALIGNGUARD_DEFERREDPLACES_H
