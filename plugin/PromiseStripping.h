//===- PromiseStripping.h - Drop promises a failed check fed ----*- C++ -*-===//
//
// When a failing check reports and lets the kernel continue (`recover`), the
// pointer it checked may be misaligned on the continuing path. Every promise
// that rests on that pointer must go too, or continuing is undefined
// behaviour one call further down:
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

/// Removes `align` from every call-site argument that is Pointer or derived
/// from it (casts, GEPs, phis, selects), and from the matching parameters of
/// local callees, transitively. Returns how many attributes it removed.
unsigned dropAlignPromisesFedBy(llvm::Value *Pointer);

} // namespace alignguard

#endif // ALIGNGUARD_PROMISESTRIPPING_H
