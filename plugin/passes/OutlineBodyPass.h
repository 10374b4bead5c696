//===- OutlineBodyPass.h - A checked body in a function of its own -*- C++ -*-//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `align-guard-outline-body` module pass runs last in the optimisation
// pipeline, after `align-guard-cold-exits` (Plugin.cpp). It takes the body
// of a function whose entry is only a check into a function of its own:
//
//   define i32 @k(ptr %a, ptr %b, i64 %n) {
//   entry:                              ; the check, nothing else
//     %bad = icmp ne i64 (or ...), 0
//     br i1 %bad, label %fail, label %body
//   fail:                               ; a cold exit (ColdExitsPass.h)
//     %r = tail call i32 @<thunk>(...)
//     ret i32 %r
//   body:                               ; the kernel, with its loops
//     ...
//     becomes
//   define i32 @k(ptr %a, ptr %b, i64 %n) optsize {
//   entry:
//     %bad = icmp ne i64 (or ...), 0
//     br i1 %bad, label %fail, label %aligned
//   fail: ...                           ; as it was
//   aligned:
//     %r = tail call i32 @k.alignguard.body(ptr %a, ptr %b, i64 %n)
//     ret i32 %r
//   }
//   define internal i32 @k.alignguard.body(ptr %a, ptr %b, i64 %n)
//                                       ; k's blocks from %body on
//
// Why: the check is one more block at the kernel's entry with one more
// call, and the register allocator and the block layout decide the whole
// function anew around it: the hot loop stays the same, but the kernel's
// set-up and a loop nest's outer loops come out differently from the
// unchecked kernel's (stencil3x3 on LLVM 14: two reloads per row, +37
// instructions a call; gemm +2). In a function of its own, the body is
// compiled as the unchecked kernel is, and the entry is the check and a
// jump with the arguments in the registers they arrived in; on x86 the
// jump is the check's branch itself (`test; je k.alignguard.body`, a
// conditional tail call, which LLVM 14 forms in a function optimised for
// size: hence `optsize` on the entry, which holds nothing else).
//
// The body's instructions stay in the function they are in (renamed,
// internal); the check and the failing side, a few instructions, are
// copied into a new function that takes its name, linkage, comdat and
// uses, with a subprogram of its own (no variables: theirs are the
// body's). Cloning the body instead cost as much again as the rest of the
// plugin's compile time on modules of small kernels.
//
// Only where it is exact and pays: the entry block holds nothing but
// computations without memory or effects (so the body may compute them
// again), the failing side is a cold exit that only the entry reaches, the
// body has a loop nest (a single loop is at the limit without it), and the
// function's arguments can be passed on by a tail call (no varargs, byval,
// inalloca, preallocated, sret, swift or nest parameters) to a body that does
// not ask for its own frame or return address. Not in functions compiled
// without optimisation or for minimum size, available_externally ones, or ones
// with prologue or prefix data or patchable entries.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_OUTLINEBODYPASS_H
#define ALIGNGUARD_OUTLINEBODYPASS_H

#include "llvm/IR/PassManager.h"

namespace alignguard {

class OutlineBodyPass : public llvm::PassInfoMixin<OutlineBodyPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  /// Prints the pass's pipeline name (-print-pipeline-passes reads it back).
  void printPipeline(
      llvm::raw_ostream &OS,
      llvm::function_ref<llvm::StringRef(llvm::StringRef)> /*MapClassName*/) {
    OS << "align-guard-outline-body";
  }
};

} // namespace alignguard

#endif // ALIGNGUARD_OUTLINEBODYPASS_H
