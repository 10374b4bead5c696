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
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_PROMISESTRIPPING_H
#define ALIGNGUARD_PROMISESTRIPPING_H

#include "llvm/IR/Value.h"

namespace alignguard {

/// For Pointer and the object it points into, and every pointer derived
/// from them (casts, GEPs, phis, selects, reloads from a local slot), in
/// the function and, through arguments, in local callees transitively:
/// removes `align` from call-site arguments and the matching callee
/// parameters, lowers loads, stores, masked and memory intrinsics that state
/// more than their element type's ABI alignment to it, and drops `!align` from
/// loads that produce such a pointer. Returns how many promises it removed.
unsigned dropAlignPromisesFedBy(llvm::Value *Pointer);

} // namespace alignguard

#endif // ALIGNGUARD_PROMISESTRIPPING_H
