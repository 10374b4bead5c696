//===- ColdExitsPass.h - Failing sides that leave by a tail call -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `align-guard-cold-exits` module pass runs last in the optimisation
// pipeline (Plugin.cpp registers it at the optimizer-last extension point).
// It rewrites the end of each failing side align-guard left, when that side
// leaves the function, into one tail call of a function that does the rest:
//
//   call @__alignguard_report_abort(..)
//   unreachable
//     becomes
//   %r = tail call @__alignguard_report_abort.thunk.i32(..)
//   ret i32 %r
//
//   call @__alignguard_report(..)                  (return=-1)
//   ret i32 -1
//     becomes
//   %r = tail call @__alignguard_report.thunk.i32.m1(..)
//   ret i32 %r
//
//   call @__alignguard_fallback(..)
//   %r = call @k.alignguard.unaligned(%a, %b, ..)
//   ret i32 %r
//     becomes
//   %r = tail call @k.alignguard.fallback(%a, %b, .., %bits)
//   ret i32 %r
//
//   %r = call @k.alignguard.recover(%a, ..)      (recover's rerun, whose
//   ret i32 0                                      result the optimiser
//     becomes                                      found constant)
//   %r = tail call @k.alignguard.rerun(%a, ..)
//   ret i32 %r
//
// (a `ret` may also be a branch to a block that only returns). A thunk
// named `<hook>.thunk.<return type>[.<value>]` calls the hook and returns
// the value, or does not return; a fallback's, private to its function,
// calls the hook and then the copy, with the arguments the block passed
// that are not constants; a rerun's, private too, calls the recover copy
// and returns the constant.
//
// Before the rewrite, each `or` of a check's addresses in those functions
// is put back in the order the emitter wrote (the new address first, the
// running value second, CheckEmitter.cpp): InstCombine reverses it in a
// check emitted at once (fallback, recover's rerun), and x86's selector
// then copies each address that stays live before OR-ing into it.
//
// A call in the middle of a function needs the stack aligned and whatever
// lives across it saved, and the code generator sets that up on the entry,
// where the aligned path pays for it on every call (a push and pop around
// saxpy; on LLVM 14 the fallback's arguments kept in callee-saved
// registers). A tail call needs none of it: the failing side is a jump.
//
// The rewrite is exact (the thunk does what the block did, in the same
// order), so it is left to the end: the optimiser before it sees the plain
// form, whose call does not return. The thunks shared by a module (abort,
// return N) are linkonce_odr: a definition the optimiser may not look into,
// so an LTO link does not learn that the abort thunk never returns (which
// would turn the `ret` back into `unreachable`). A side the rewrite does not
// recognise, or one inside an EH funclet (a `ret` is invalid there), stays
// as it is.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_COLDEXITPASS_H
#define ALIGNGUARD_COLDEXITPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
} // namespace llvm

namespace alignguard {

/// Whether BB is a failing side that leaves by a tail call: it ends in a
/// tail call of a cold thunk this pass made, marked as align-guard's, or of
/// its function's recover copy (recover's rerun), and the `ret` of its
/// result (or a branch to a block that returns it).
bool isColdExit(const llvm::BasicBlock &BB);

class ColdExitsPass : public llvm::PassInfoMixin<ColdExitsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  /// Prints the pass's pipeline name (-print-pipeline-passes reads it back).
  void printPipeline(
      llvm::raw_ostream &OS,
      llvm::function_ref<llvm::StringRef(llvm::StringRef)> /*MapClassName*/) {
    OS << "align-guard-cold-exits";
  }
};

} // namespace alignguard

#endif // ALIGNGUARD_COLDEXITPASS_H
