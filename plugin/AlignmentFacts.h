//===- AlignmentFacts.h - What a function already knows about alignment ---===//
//
// The audit asks, for each promise, whether something established it first.
// A fact says "Pointer - Offset is Alignment-aligned" from some program point
// on; this file finds them and answers whether one covers a promise:
//
//   guarded: an assume align-guard has guarded        (!alignguard.guarded),
//            or a check whose failing side calls the AlignGuard runtime
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
// Checks are found in a conditional branch (through `and`/`or`/`not` and
// llvm.expect) and in Halide's merged asserts: each failing condition sets
// a bit of a mask, `select c, 0, 2^k` OR-ed together, and the code goes on
// where the mask is zero (`icmp eq mask, 0`, or the default of a `switch`
// over `cttz(mask)` with a case per bit). The same tests of an integer (a
// row stride: `and %stride, 31 == 0`) are integer facts.
//
// Coverage sees through spill reloads and constant offsets, and uses
// ScalarEvolution for addresses that move in a loop or by a stride: the
// difference from the checked pointer must have enough low zero bits,
// counting those integer facts.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ALIGNMENTFACTS_H
#define ALIGNGUARD_ALIGNMENTFACTS_H

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace llvm {
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace alignguard {

enum class FactSource { GuardedAssume, CodeCheck, UncheckedAssume };

struct AlignmentFact {
  FactSource Source;
  llvm::Value *Pointer; ///< null for an integer fact (then Integer)
  uint64_t Alignment; ///< a power of two
  int64_t Offset;     ///< Pointer - Offset is aligned
  /// The assume, or the branch whose good edge establishes the fact.
  const llvm::Instruction *Where;
  const llvm::BasicBlock *GoodSuccessor = nullptr; ///< checks only
  llvm::Value *Integer = nullptr; ///< an integer known to be a multiple
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
              int64_t Offset, const llvm::Instruction *At) const;
  /// Low bits of S known to be zero at At, with the integer facts.
  unsigned trailingZeros(const llvm::SCEV *S, const llvm::Instruction *At,
                         unsigned Depth) const;
  void addTest(const struct AlignmentTest &Test, FactSource Source,
               const llvm::Instruction *Where,
               const llvm::BasicBlock *GoodSuccessor);
  void addChecks(llvm::BranchInst &Br);
  void addChecks(llvm::SwitchInst &Switch);

  const llvm::DominatorTree &DT;
  llvm::ScalarEvolution *SE;
  std::vector<AlignmentFact> Facts;
};

} // namespace alignguard

#endif // ALIGNGUARD_ALIGNMENTFACTS_H
