//===- KeptPromises.cpp - The form a checked promise keeps ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "KeptPromises.h"

#include "AssumeBundles.h"

#include "Compat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumNullPromisesDropped,
          "Checked non-power-of-two alignments not kept (the pointer is null)");
STATISTIC(NumRuntimeAlignmentsKept,
          "Checked run-time alignments kept as select(power of two, A, 1)");
STATISTIC(NumLegacyPromisesKeptAsBundles,
          "Checked legacy icmp promises kept as \"align\" bundles");
STATISTIC(NumHugeAlignmentsCapped,
          "Checked alignments above LLVM's largest kept as the largest");

namespace alignguard {
namespace {

/// select(A is a power of two, A, 1), built before Before.
Value *powerOfTwoOrOne(Value *A, Instruction *Before) {
  IRBuilder<> B(Before);
  Type *Ty = A->getType();
  Value *Zero = ConstantInt::get(Ty, 0);
  Value *NonZero = B.CreateICmpNE(A, Zero);
  Value *Below = B.CreateSub(A, ConstantInt::get(Ty, 1));
  Value *OneBit = B.CreateICmpEQ(B.CreateAnd(A, Below), Zero);
  Value *IsPow2 = B.CreateAnd(NonZero, OneBit, "ag.kept.pow2");
  return B.CreateSelect(IsPow2, A, ConstantInt::get(Ty, 1), "ag.kept.align");
}

} // namespace

/// A constant power-of-two alignment, at most the largest LLVM represents
/// (Value::MaximumAlignment): AlignmentFromAssumptions writes a bundle's
/// alignment onto the accesses it covers as it is, and the verifier
/// rejects an access above that ("huge alignment values are
/// unsupported", LLVM 14 and 22). The check tests the alignment written.
Value *representable(ConstantInt *C) {
  if (C->getValue().ule(Value::MaximumAlignment))
    return C;
  ++NumHugeAlignmentsCapped;
  return ConstantInt::get(C->getType(), Value::MaximumAlignment);
}

CallInst *keepCheckedBundles(CallInst &Assume,
                             ArrayRef<const AlignmentPromise *> Checked) {
  auto IsChecked = [&](unsigned Index) {
    return any_of(Checked, [&](const AlignmentPromise *A) {
      return A->Kind == PromiseKind::AssumeBundle && A->Assume == &Assume &&
             A->BundleIndex == Index;
    });
  };
  SmallVector<OperandBundleDef, 4> Keep;
  bool Changed = false;
  for (unsigned I = 0, E = Assume.getNumOperandBundles(); I != E; ++I) {
    OperandBundleUse Bundle = Assume.getOperandBundleAt(I);
    if (!IsChecked(I) || Bundle.Inputs.size() < 2) {
      Keep.emplace_back(Bundle);
      continue;
    }
    Value *Alignment = Bundle.Inputs[1];
    if (auto *C = dyn_cast<ConstantInt>(Alignment)) {
      Value *Kept = C->getValue().isPowerOf2() ? representable(C) : nullptr;
      if (Kept == C) {
        Keep.emplace_back(Bundle);
      } else if (Kept) {
        std::vector<Value *> Inputs(Bundle.Inputs.begin(), Bundle.Inputs.end());
        Inputs[1] = Kept;
        Keep.emplace_back(std::string(Bundle.getTagName()), Inputs);
        Changed = true;
      } else {
        ++NumNullPromisesDropped; // the check proved the pointer null
        Changed = true;
      }
      continue;
    }
    std::vector<Value *> Inputs(Bundle.Inputs.begin(), Bundle.Inputs.end());
    Inputs[1] = powerOfTwoOrOne(Alignment, &Assume);
    Keep.emplace_back(std::string(Bundle.getTagName()), Inputs);
    ++NumRuntimeAlignmentsKept;
    Changed = true;
  }
  // A checked legacy promise, `assume((ptrtoint %p - off) & (A-1) == 0)`:
  // the check's branch tests the same condition, so EarlyCSE and
  // InstCombine fold the assume to `assume(true)` and delete it before
  // AlignmentFromAssumptions reads it, and the aligned path lost the
  // promise (vector accesses at `align 4`). As a bundle it stays.
  bool ConditionKept = true;
  for (const AlignmentPromise *A : Checked) {
    auto *C = dyn_cast_or_null<ConstantInt>(A->Alignment);
    if (A->Kind != PromiseKind::AssumeICmp || A->Assume != &Assume || !C ||
        !C->getValue().isPowerOf2() || !A->Pointer->getType()->isPointerTy() ||
        !isa<ICmpInst>(Assume.getArgOperand(0)))
      continue;
    std::vector<Value *> Inputs = {A->Pointer, representable(C)};
    if (A->Offset)
      Inputs.push_back(A->Offset);
    Keep.emplace_back("align", Inputs);
    ConditionKept = false;
    Changed = true;
    ++NumLegacyPromisesKeptAsBundles;
  }
  if (!Changed)
    return &Assume;
  return replaceAssumeBundles(
      Assume, Keep,
      ConditionKept ? nullptr : ConstantInt::getTrue(Assume.getContext()));
}

} // namespace alignguard
