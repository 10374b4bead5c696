//===- GuardMarking.h - align-guard's marks, written ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The writing half of the contract in analysis/GuardMetadata.h: the marks on
// what align-guard guarded, `!nosanitize` on what it emits, and a deferred
// place's bundle operands. The analyses read them; only this file writes them.
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_GUARDMARKING_H
#define ALIGNGUARD_GUARDMARKING_H

#include "GuardMetadata.h"

#include <vector>

namespace alignguard {

/// Marks I guarded, with N; records the contract's version in I's module.
void writeGuardNote(llvm::Instruction &I, const GuardNote &N);

/// Marks what the pass emits as instrumentation (`!nosanitize`), so that
/// sanitizers do not instrument the checks again (BoundsChecking does the
/// same) and align-guard's later passes find their own calls. The kind and
/// the empty node are looked up once, not per instruction (LLVM 14 has no
/// fixed kind for `nosanitize`; by name, marking was a string-map lookup
/// and a node lookup per emitted instruction).
struct NoSanitizeMarker {
  unsigned Kind;
  llvm::MDNode *Empty;
  explicit NoSanitizeMarker(llvm::LLVMContext &Ctx);
  void operator()(llvm::Instruction *I) const { I->setMetadata(Kind, Empty); }
};

/// NoSanitizeMarker for one instruction.
void markNoSanitize(llvm::Instruction *I);

/// Appends C to a marker's bundle operands.
void appendDeferredCheck(std::vector<llvm::Value *> &Bundle,
                         const DeferredCheckOperands &C);

} // namespace alignguard

#endif // ALIGNGUARD_GUARDMARKING_H
