//===- KeptPromises.h - The form a checked promise keeps --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where a failing check stops the kernel or leaves it (abort, trap,
// return=N, fallback), the continuation is reached only when the check
// passed, and the promise stays there for the optimiser. An "align" bundle
// stays as it was written, except where LLVM cannot read it safely:
//
//   ["align"(ptr %p, i64 0)]      dropped. 0, or any constant that is not
//                                 a power of two, promised that %p is null
//                                 (LangRef); the check's branch now says
//                                 so, and LLVM 14 takes log2 of the
//                                 alignment (0 crashes it in
//                                 APInt::setBitsSlowCase).
//   ["align"(ptr %p, i64 %a)]     ["align"(ptr %p, i64 %ag.kept.align)],
//                                 %ag.kept.align = select(%a is a power of
//                                 two, %a, 1): the same promise wherever it
//                                 was one, and never one that constant
//                                 propagation can turn into alignment 0.
//
// A constant power-of-two alignment (the usual case) is left as it is,
// unless it is above the largest alignment LLVM represents
// (Value::MaximumAlignment, 2^32): then it is kept as that largest, since
// AlignmentFromAssumptions would write the larger one onto the accesses,
// which the verifier rejects. A legacy promise becomes a bundle:
//
//   assume(icmp eq (and (ptrtoint %p - off), A-1), 0)
//                                 assume(true) ["align"(%p, A[, off])]: the
//                                 check's branch tests the same condition,
//                                 so the condition would fold to true and
//                                 the promise be gone before
//                                 AlignmentFromAssumptions reads it.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_KEPTPROMISES_H
#define ALIGNGUARD_KEPTPROMISES_H

#include "Promises.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Instructions.h"

namespace alignguard {

/// Puts the promises of Assume that Checked holds (its "align" bundles and
/// its legacy condition, whose checks precede it) in the form above. Returns
/// the assume that holds the promises now: Assume, a copy of it (Assume is
/// erased), or null when nothing was left to keep (Assume is erased).
llvm::CallInst *
keepCheckedBundles(llvm::CallInst &Assume,
                   llvm::ArrayRef<const AlignmentPromise *> Checked);

} // namespace alignguard

#endif // ALIGNGUARD_KEPTPROMISES_H
