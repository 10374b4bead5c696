//===- CopySafety.h - When running a copy from the start is valid -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A failing check under fallback, or under recover with a rerun, calls a
// copy of its function from the start (transform/UnalignedCopies.h). That is
// only valid when nothing a caller could observe has happened before the
// check, and when the function's calls can be forwarded at all. The planner
// asks these questions; they only read IR.
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_COPYSAFETY_H
#define ALIGNGUARD_COPYSAFETY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Function.h"

#include <string>

namespace alignguard {

/// Why the fallback may not run the copy from before I: the first
/// instruction that can run before I on some path from the entry and has an
/// observable effect (a store to memory the function did not allocate, a
/// call that may write, a volatile or atomic access). Empty when none.
/// Effects after which the check cannot fail (PassesAfter says so: an
/// earlier check that covers it runs before them) do not count.
std::string sideEffectMayPrecede(
    llvm::Instruction &I,
    llvm::function_ref<bool(const llvm::Instruction &)> PassesAfter = nullptr);

/// Why F's calls cannot be forwarded to a copy (varargs, inalloca,
/// preallocated, swifterror); empty when they can.
std::string whyNotForwardable(const llvm::Function &F);

} // namespace alignguard

#endif // ALIGNGUARD_COPYSAFETY_H
