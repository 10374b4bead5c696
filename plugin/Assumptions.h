//===- Assumptions.h - Find the alignment promises in a function -*- C++ -*-===//
//
// "Collect first, then rewrite": this file only reads IR. It lists every
// alignment promise of a function in the forms LLVM and its frontends write:
//
//   call void @llvm.assume(i1 true) ["align"(ptr %p, i64 64)]        bundle
//   call void @llvm.assume(i1 true) ["align"(ptr %p, i64 %a, i64 16)]
//   %m = and i64 (ptrtoint %p), 63 ; %c = icmp eq %m, 0
//   call void @llvm.assume(i1 %c)                                     icmp
//   define void @k(ptr align 64 %p)                  param-attr (entry only)
//
// A promise the pass cannot check keeps a reason in Unsupported instead of
// being dropped, so callers can report it.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ASSUMPTIONS_H
#define ALIGNGUARD_ASSUMPTIONS_H

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <string>
#include <vector>

namespace alignguard {

/// The metadata kind that marks an llvm.assume whose promises AlignGuard
/// already guards, so that a second run (clang's pipeline-start hook and an
/// explicit opt run, say) leaves it alone.
inline constexpr const char *GuardedMDName = "alignguard.guarded";

enum class AssumptionKind { AssumeBundle, AssumeICmp, ParamAttr };

/// `assume-bundle`, `assume-icmp`, `param-attr`: the names the docs use.
llvm::StringRef assumptionKindName(AssumptionKind Kind);

struct AlignmentAssumption {
  AssumptionKind Kind;
  llvm::Function *F = nullptr;
  /// The llvm.assume making the promise (bundle and icmp kinds).
  llvm::CallInst *Assume = nullptr;
  /// Which operand bundle of Assume (bundle kind).
  unsigned BundleIndex = 0;
  /// The parameter carrying `align N` (param-attr kind).
  llvm::Argument *Param = nullptr;
  /// The pointer (or fixed vector of pointers) promised to be aligned.
  llvm::Value *Pointer = nullptr;
  /// An integer; a ConstantInt when the alignment is known when compiling.
  llvm::Value *Alignment = nullptr;
  /// An integer or null (zero): the promise is about `Pointer - Offset`.
  llvm::Value *Offset = nullptr;
  /// Why the pass leaves this promise alone; empty when it can check it.
  std::string Unsupported;

  bool isSupported() const { return Unsupported.empty(); }
  /// A compile-time alignment of 1 promises nothing: no check needed.
  bool isTrivial() const;
};

/// All alignment promises of F, in instruction order, parameter attributes
/// first. Parameter attributes are collected only when IsEntry. Assumes that
/// carry GuardedMDName are skipped: they are already checked.
std::vector<AlignmentAssumption> collectAlignmentAssumptions(llvm::Function &F,
                                                             bool IsEntry);

/// True when an `align` on this parameter is ABI bookkeeping for a copy the
/// callee owns (byval, inalloca, preallocated), not a caller's promise.
bool isCalleeOwnedCopy(const llvm::Argument &A);

} // namespace alignguard

#endif // ALIGNGUARD_ASSUMPTIONS_H
