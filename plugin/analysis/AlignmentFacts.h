//===- AlignmentFacts.h - What a function already knows about alignment ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one answer to "is this promise already checked", for the audit and
// the guard alike: each asks whether something established it first.
// A fact says "Pointer - Offset is Alignment-aligned" from some program point
// on; this file finds them and answers whether one covers a promise:
//
//   guarded: an assume align-guard has guarded        (!alignguard.guarded),
//            or a check whose failing side calls the AlignGuard runtime
//   check:   code that tests the low bits itself and branches away when
//            they are not zero (Halide's host-alignment assert, a C
//            `if ((uintptr_t)p & 63) abort();`): holds below the good edge
//   construction: null, an alloca or a global of that alignment
//   planned: a check the guard's planner has decided on (CheckPlanner.h);
//            the planner may raise the alignment it tests
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
// counting those integer facts and, for a phi, the zeros that each value
// coming in has (an index merged after a loop).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ALIGNMENTFACTS_H
#define ALIGNGUARD_ALIGNMENTFACTS_H

#include "LazyAnalysis.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace alignguard {

/// Where a fact comes from, best first: find() returns the best that holds.
enum class FactSource {
  Construction,  ///< null, or an alloca or global of enough alignment
  GuardedAssume, ///< a check align-guard inserted (an earlier run)
  CodeCheck,     ///< the code's own low-bits test
  PlannedCheck,  ///< a check the planner has decided to insert
  UncheckedAssume,
};

/// A condition under which a hoisted check tests, evaluated before the
/// loop: `LHS Pred RHS`. Either the loop's backedge-taken count is at least
/// N (the access runs at all, or a second time: `Taken uge N`), or, when
/// the count is unknown (no no-wrap flags), the loop's first test enters
/// it (its exit compare with each recurrence at its start).
struct LoopGuard {
  llvm::CmpInst::Predicate Pred;
  const llvm::SCEV *LHS;
  const llvm::SCEV *RHS;
  bool operator==(const LoopGuard &O) const {
    return Pred == O.Pred && LHS == O.LHS && RHS == O.RHS;
  }
};

struct AlignmentFact {
  FactSource Source;
  llvm::Value *Pointer; ///< null for an integer fact or a SCEV address
  uint64_t Alignment;   ///< a power of two
  int64_t Offset;       ///< Pointer - Offset is aligned
  /// The assume, the branch whose good edge establishes the fact, or the
  /// instruction a planned check goes before.
  const llvm::Instruction *Where;
  const llvm::BasicBlock *GoodSuccessor = nullptr; ///< checks only
  llvm::Value *Integer = nullptr; ///< an integer known to be a multiple
  /// A planned check's address when it is not a value yet (hoisted).
  const llvm::SCEV *Address = nullptr;
  /// The fact holds only under these conditions (hoisted checks).
  llvm::SmallVector<LoopGuard, 2> Conditions;
  /// PlannedCheck: the index of the site in the plan, and of the check
  /// in the site.
  unsigned Site = 0, Check = 0;
};

/// What a fact found for a promise makes of it, the one reading the
/// planner (which leaves the promise out) and the audit (which lists its
/// status) share: checked already (by the code, or aligned by
/// construction), guarded by an earlier align-guard run, or neither (a
/// planned check is no check yet; an unchecked assume proves nothing).
enum class FactVerdict { Checked, Guarded, None };
struct FactReading {
  FactVerdict Verdict;
  /// Why, for warnings, remarks and the audit: "checked by the code at
  /// k.c:3:7", "rests on an unchecked assume at k.c:2:3", ...
  std::string Why;
};
FactReading readFact(const AlignmentFact &Fact);

/// A pointer, or an address that is not a value yet, to ask about.
struct AddressQuery {
  llvm::Value *Pointer = nullptr;      ///< or null, then Address
  const llvm::SCEV *Address = nullptr; ///< or null, then Pointer's SCEV
  uint64_t Alignment;
  int64_t Offset = 0;
  /// The conditions under which the asker needs the fact.
  llvm::ArrayRef<LoopGuard> Under = {};
};

class AlignmentFacts {
public:
  /// SE may be null: then only constant offsets are understood. It is
  /// made only for a question that needs it.
  AlignmentFacts(llvm::Function &F, const llvm::DominatorTree &DT,
                 LazyScalarEvolution *SE);

  /// The best fact that holds at At and shows `Ptr - Offset` aligned to
  /// Alignment; none when nothing does. Ignore is a fact-making instruction
  /// not to count (the promise itself). Facts worse than Worst are not
  /// looked at (the planner has no use for an unchecked assume, and
  /// comparing addresses with ScalarEvolution is the costly part).
  std::optional<AlignmentFact>
  find(const AddressQuery &Q, const llvm::Instruction *At,
       const llvm::Instruction *Ignore = nullptr,
       FactSource Worst = FactSource::UncheckedAssume) const;

  /// Where the planned checks go that, under no condition, test an address
  /// a multiple of the alignment away from Q at At, whether or not they
  /// dominate At: once one of them has passed, Q is aligned at At (if the
  /// values it tests have not changed since).
  llvm::SmallVector<const llvm::Instruction *, 2>
  plannedCovering(const AddressQuery &Q, const llvm::Instruction *At) const;

  /// Records a check the planner will insert before Where: from there on
  /// (and under Fact.Conditions) it is a fact.
  void addPlanned(AlignmentFact Fact);

  /// The planned checks that hold at At, under no condition, and test Q's
  /// address (a multiple of Q.Alignment apart) for less than Q.Alignment:
  /// each would cover Q if it tested Q.Alignment (raisePlanned).
  std::vector<AlignmentFact> weakerPlanned(const AddressQuery &Q,
                                           const llvm::Instruction *At) const;

  /// The planned check Check of site Site tests Alignment from now on.
  void raisePlanned(unsigned Site, unsigned Check, uint64_t Alignment);

private:
  bool holdsAt(const AlignmentFact &Fact, const llvm::Instruction *At) const;
  bool covers(const AlignmentFact &Fact, const AddressQuery &Q,
              const llvm::Instruction *At) const;
  /// True when Q's address (less its offset) and Fact's are a multiple of
  /// Q.Alignment apart at At, whatever alignment Fact shows.
  bool sameResidue(const AlignmentFact &Fact, const AddressQuery &Q,
                   const llvm::Instruction *At) const;
  /// Low bits of S known to be zero at At, with the integer facts.
  unsigned trailingZeros(llvm::ScalarEvolution &SE, const llvm::SCEV *S,
                         const llvm::Instruction *At, unsigned Depth) const;
  void addTest(const struct AlignmentTest &Test, FactSource Source,
               const llvm::Instruction *Where,
               const llvm::BasicBlock *GoodSuccessor);
  void addChecks(llvm::BranchInst &Br);
  void addChecks(llvm::SwitchInst &Switch);

  const llvm::DominatorTree &DT;
  LazyScalarEvolution *LazySE; ///< null: constant offsets only
  const llvm::DataLayout &DL;
  std::vector<AlignmentFact> Facts;
};

/// True when the IR itself makes Ptr Alignment-aligned: null, or an alloca
/// or global of that alignment (not an argument or a load: their alignment
/// is a promise).
bool alignedByConstruction(const llvm::Value *Ptr, uint64_t Alignment,
                           const llvm::DataLayout &DL);

} // namespace alignguard

#endif // ALIGNGUARD_ALIGNMENTFACTS_H
