//===- ReturnContract.h - Let an entry point's contract admit N -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// With align-guard<return=N>, a failing check makes an entry point return N.
// What the entry point promised its callers about its return value must
// then admit N, or the optimiser folds a caller's test of N away (TVM's
// tvm-ffi functions declare `range(i32 -1, 1)`; with return=-24, -O2 deletes
// a same-module caller's `rc == -24` branch):
//
//   define range(i32 -1, 1) i32 @k(...)      define range(i32 -24, 1) i32 @k
//   %rc = call i32 @k(...), !range !{i32 0,  %rc = call i32 @k(...),
//                                  i32 1}        !range !{i32 -24, i32 -23,
//                                                       i32 0, i32 1}
//
// A range is widened to hold N; where no range can say what it then holds
// (every value), it is dropped. The value contracts of an integer return
// are the `range` attribute (LLVM 19 on) of the function and of its call
// sites, `!range` metadata on its calls, and `returned` on a parameter (of
// the function or at a call: the call's value is that argument), which is
// dropped. The others do not concern N: N is a defined constant
// (`noundef`), it fits the return type, so `zeroext` and `signext` extend
// it as they would any value, and `nonnull`, `align`, `dereferenceable`,
// `noalias` and `nofpclass` are not allowed on integers.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_RETURNCONTRACT_H
#define ALIGNGUARD_RETURNCONTRACT_H

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"

namespace alignguard {

/// Widens, or drops, every promise about F's return value that N would
/// break: on F and on its calls in F's module. Returns how many it changed.
unsigned admitReturnValue(llvm::Function &F, const llvm::ConstantInt &N);

} // namespace alignguard

#endif // ALIGNGUARD_RETURNCONTRACT_H
