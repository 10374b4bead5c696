//===- AlignmentFacts.h - What a function already knows about alignment ---===//
//
// The audit asks, for each promise, whether something established it first.
// A fact says "Pointer - Offset is Alignment-aligned" from some program point
// on; this file finds them and answers whether one covers a promise:
//
//   guarded: an assume align-guard has guarded        (!alignguard.guarded)
//   check:   code that tests the low bits itself and branches away when
//            they are not zero (Halide's host-alignment assert, a C
//            `if ((uintptr_t)p & 63) abort();`): holds below the good edge
//   unchecked: an assume nobody checks (a fact the optimiser will use, so
//            a promise resting on it is as unchecked as the assume)
//
//   %ok = icmp eq (and (ptrtoint %in), 31), 0
//   br i1 %ok, label %body, label %fail        ; fact on %in, 32, from the
//                                              ; edge entry->body
//   body: load <8 x float>, ptr (gep %in, 8*i), align 32   ; covered
//
// Coverage sees through spill reloads and constant offsets, and uses
// ScalarEvolution for addresses that move in a loop by a multiple of the
// alignment.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ALIGNMENTFACTS_H
#define ALIGNGUARD_ALIGNMENTFACTS_H

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace llvm {
class ScalarEvolution;
} // namespace llvm

namespace alignguard {

enum class FactSource { GuardedAssume, CodeCheck, UncheckedAssume };

struct AlignmentFact {
  FactSource Source;
  llvm::Value *Pointer;
  uint64_t Alignment; ///< a power of two
  int64_t Offset;     ///< Pointer - Offset is aligned
  /// The assume, or the branch whose good edge establishes the fact.
  const llvm::Instruction *Where;
  const llvm::BasicBlock *GoodSuccessor = nullptr; ///< checks only
};

class AlignmentFacts {
public:
  /// SE may be null: then only constant offsets are understood.
  AlignmentFacts(llvm::Function &F, const llvm::DominatorTree &DT,
                 llvm::ScalarEvolution *SE);

  /// The best fact (guarded, then check, then unchecked assume) that holds
  /// at At and shows `Ptr - Offset` aligned to Alignment; null when none.
  /// Ignore is a fact-making instruction not to count (the promise itself).
  const AlignmentFact *find(llvm::Value *Ptr, uint64_t Alignment,
                            int64_t Offset, const llvm::Instruction *At,
                            const llvm::Instruction *Ignore = nullptr) const;

private:
  bool holdsAt(const AlignmentFact &Fact, const llvm::Instruction *At) const;
  bool covers(const AlignmentFact &Fact, llvm::Value *Ptr, uint64_t Alignment,
              int64_t Offset) const;
  void addChecks(llvm::BranchInst &Br);

  const llvm::DominatorTree &DT;
  llvm::ScalarEvolution *SE;
  std::vector<AlignmentFact> Facts;
};

} // namespace alignguard

#endif // ALIGNGUARD_ALIGNMENTFACTS_H
