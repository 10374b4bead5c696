//===- AssumeBundles.h - Rewriting an assume's bundles ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one way align-guard changes which operand bundles an assume holds:
// recover drops the promises it checked, a terminal check keeps them in the
// form the optimiser reads (KeptPromises.h), and a fallback copy holds none
// (UnalignedCopies.h). An assume is rebuilt with its new bundles, its
// metadata kept, or goes once it says nothing (no bundle, condition true).
//
//   call void @llvm.assume(i1 true) ["align"(ptr %a, i64 64), "nonnull"(ptr
//   %a)]
//     keeping bundle 1 only:
//   call void @llvm.assume(i1 true) ["nonnull"(ptr %a)]
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_ASSUMEBUNDLES_H
#define ALIGNGUARD_ASSUMEBUNDLES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"

namespace alignguard {

/// Gives Assume the bundles Keep (in their order) and, with Condition, that
/// condition. Returns the assume in force afterwards: Assume itself when
/// nothing changed, a replacement in its place (Assume's metadata copied),
/// or null when it would say nothing. Assume, when replaced or gone, is
/// erased, or put on Dead when given (a caller walking the function's
/// instructions erases it after the walk).
llvm::CallInst *replaceAssumeBundles(
    llvm::CallInst &Assume, llvm::ArrayRef<llvm::OperandBundleDef> Keep,
    llvm::Value *Condition = nullptr,
    llvm::SmallVectorImpl<llvm::Instruction *> *Dead = nullptr);

} // namespace alignguard

#endif // ALIGNGUARD_ASSUMEBUNDLES_H
