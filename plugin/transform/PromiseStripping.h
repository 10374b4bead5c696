//===- PromiseStripping.h - Drop promises a failed check fed ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// When a failing check reports and lets the kernel continue (`recover`), the
// pointer it checked may be misaligned on the continuing path. Every promise
// that rests on that pointer must go too, or continuing is undefined
// behaviour one call further down, or one vector load later (the optimiser
// raised `align 4` to `align 32` from the promise):
//
//   call void @compute(ptr align 64 %p)          call void @compute(ptr %p)
//   define internal void @compute(ptr align 64)  define internal void
//   @compute(ptr)
//
// Only functions whose every caller is in this module (local linkage) are
// changed; a callee defined elsewhere keeps its declaration's attributes.
// In a recover copy the walk changes the copy's own clone of such a callee
// instead (PrivateCallee), so the function the original calls keeps its
// promises on the aligned path.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_PROMISESTRIPPING_H
#define ALIGNGUARD_PROMISESTRIPPING_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Value.h"

namespace alignguard {

/// The callee whose promises a walk from a call may drop: Callee itself, or
/// a clone of it for that call alone.
using PrivateCallee = llvm::function_ref<llvm::Function *(llvm::Function &)>;

/// For Pointer and the object it points into, and every pointer derived
/// from them (casts, GEPs, phis, selects, reloads from a local slot), in
/// the function and, through arguments, in local callees transitively:
/// removes `align` from call-site arguments and the matching callee
/// parameters, lowers loads, stores, masked and memory intrinsics that state
/// more than their element type's ABI alignment to it, and drops `!align` from
/// loads that produce such a pointer. Returns how many promises it removed.
/// With Private, a call into a local callee is first redirected to the
/// function Private gives for it, and the walk goes on there.
unsigned dropAlignPromisesFedBy(llvm::Value *Pointer,
                                PrivateCallee Private = nullptr);

} // namespace alignguard

#endif // ALIGNGUARD_PROMISESTRIPPING_H
