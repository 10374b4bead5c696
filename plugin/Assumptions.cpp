//===- Assumptions.cpp - Find the alignment promises in a function -------===//
//
// See Assumptions.h. Nothing here changes IR.
//
//===----------------------------------------------------------------------===//
#include "Assumptions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace alignguard {

StringRef assumptionKindName(AssumptionKind Kind) {
  switch (Kind) {
  case AssumptionKind::AssumeBundle:
    return "assume-bundle";
  case AssumptionKind::AssumeICmp:
    return "assume-icmp";
  case AssumptionKind::ParamAttr:
    return "param-attr";
  }
  llvm_unreachable("unknown assumption kind");
}

bool AlignmentAssumption::isTrivial() const {
  auto *C = dyn_cast_or_null<ConstantInt>(Alignment);
  return C && C->isOne();
}

bool isCalleeOwnedCopy(const Argument &A) {
  return A.hasByValAttr() || A.hasInAllocaAttr() || A.hasPreallocatedAttr();
}

static std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return OS.str();
}

/// The reason a pointer operand cannot be checked, or "" when it can.
static std::string whyPointerUnsupported(Value *P, const DataLayout &DL) {
  Type *T = P->getType();
  if (auto *VT = dyn_cast<VectorType>(T)) {
    if (!VT->getElementType()->isPointerTy())
      return "the promised value has type " + typeName(T) +
             ", not a pointer";
    if (!isa<FixedVectorType>(VT))
      return "alignment of a scalable vector of pointers is not checked";
    T = VT->getElementType();
  }
  if (!T->isPointerTy())
    return "the promised value has type " + typeName(T) + ", not a pointer";
  unsigned AS = T->getPointerAddressSpace();
  if (DL.isNonIntegralAddressSpace(AS))
    return "pointers in non-integral address space " + std::to_string(AS) +
           " have no stable address to check";
  return "";
}

/// Reads one "align" operand bundle: (ptr, alignment[, offset]).
static AlignmentAssumption readAlignBundle(CallInst &Assume, unsigned Index,
                                           const DataLayout &DL) {
  AlignmentAssumption A;
  A.Kind = AssumptionKind::AssumeBundle;
  A.F = Assume.getFunction();
  A.Assume = &Assume;
  A.BundleIndex = Index;
  OperandBundleUse Bundle = Assume.getOperandBundleAt(Index);
  if (Bundle.Inputs.size() < 2 || Bundle.Inputs.size() > 3) {
    A.Unsupported = "an \"align\" bundle needs 2 or 3 operands, this one has " +
                    std::to_string(Bundle.Inputs.size());
    if (!Bundle.Inputs.empty())
      A.Pointer = Bundle.Inputs[0];
    return A;
  }
  A.Pointer = Bundle.Inputs[0];
  A.Alignment = Bundle.Inputs[1];
  A.Offset = Bundle.Inputs.size() == 3 ? Bundle.Inputs[2].get() : nullptr;
  A.Unsupported = whyPointerUnsupported(A.Pointer, DL);
  if (A.Unsupported.empty() && A.Pointer->getType()->isVectorTy())
    A.Unsupported = "an \"align\" bundle on a vector of pointers is not "
                    "valid IR";
  if (A.Unsupported.empty() && !A.Alignment->getType()->isIntegerTy())
    A.Unsupported = "the alignment has type " +
                    typeName(A.Alignment->getType()) + ", not an integer";
  if (A.Unsupported.empty() && A.Offset && !A.Offset->getType()->isIntegerTy())
    A.Unsupported =
        "the offset has type " + typeName(A.Offset->getType()) +
        ", not an integer";
  return A;
}

/// Matches the pre-bundle form clang and others emitted:
///   %i = ptrtoint %p          ; optionally %o = sub %i, OFF (or add -OFF)
///   %m = and %i|%o, 2^k-1     ; or urem %i|%o, 2^k
///   %c = icmp eq %m, 0 ; llvm.assume(%c)
static bool matchLegacyCondition(Value *Cond, AlignmentAssumption &A) {
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_EQ)
    return false;
  Value *Masked = Cmp->getOperand(0);
  if (!match(Cmp->getOperand(1), m_Zero())) {
    if (!match(Masked, m_Zero()))
      return false;
    Masked = Cmp->getOperand(1);
  }
  // `and addr, 2^k-1`, or `urem addr, 2^k` as C's `(uintptr_t)p % 32 == 0`
  // arrives before InstCombine has rewritten it.
  Value *Addr;
  ConstantInt *Mask, *Divisor;
  APInt Alignment;
  if (match(Masked, m_c_And(m_Value(Addr), m_ConstantInt(Mask)))) {
    if (!Mask->getValue().isMask())
      return false; // not 2^k-1: a bit test, not an alignment promise
    Alignment = Mask->getValue() + 1;
  } else if (match(Masked, m_URem(m_Value(Addr), m_ConstantInt(Divisor)))) {
    if (!Divisor->getValue().isPowerOf2())
      return false; // divisibility, not alignment
    Alignment = Divisor->getValue();
  } else {
    return false;
  }

  Value *Ptr = nullptr, *Offset = nullptr;
  ConstantInt *AddC;
  if (match(Addr, m_PtrToInt(m_Value(Ptr)))) {
  } else if (match(Addr, m_Sub(m_PtrToInt(m_Value(Ptr)), m_Value(Offset)))) {
  } else if (match(Addr, m_c_Add(m_PtrToInt(m_Value(Ptr)),
                                 m_ConstantInt(AddC)))) {
    Offset = ConstantExpr::getNeg(AddC); // p + C aligned == p - (-C) aligned
  } else {
    return false;
  }
  A.Pointer = Ptr;
  A.Alignment = ConstantInt::get(Masked->getType(), Alignment);
  A.Offset = Offset;
  return true;
}

std::vector<AlignmentAssumption> collectAlignmentAssumptions(Function &F,
                                                             bool IsEntry) {
  std::vector<AlignmentAssumption> Found;
  const DataLayout &DL = F.getParent()->getDataLayout();

  if (IsEntry) {
    for (Argument &Arg : F.args()) {
      MaybeAlign Align = F.getParamAlign(Arg.getArgNo());
      if (!Align || isCalleeOwnedCopy(Arg))
        continue;
      AlignmentAssumption A;
      A.Kind = AssumptionKind::ParamAttr;
      A.F = &F;
      A.Param = &Arg;
      A.Pointer = &Arg;
      A.Alignment =
          ConstantInt::get(Type::getInt64Ty(F.getContext()), Align->value());
      A.Unsupported = whyPointerUnsupported(&Arg, DL);
      Found.push_back(std::move(A));
    }
  }

  for (Instruction &I : instructions(F)) {
    auto *Assume = dyn_cast<AssumeInst>(&I);
    if (!Assume || Assume->getMetadata(GuardedMDName))
      continue;
    for (unsigned Idx = 0, E = Assume->getNumOperandBundles(); Idx != E; ++Idx)
      if (Assume->getOperandBundleAt(Idx).getTagName() == "align")
        Found.push_back(readAlignBundle(*Assume, Idx, DL));

    AlignmentAssumption A;
    A.Kind = AssumptionKind::AssumeICmp;
    A.F = &F;
    A.Assume = Assume;
    if (matchLegacyCondition(Assume->getArgOperand(0), A)) {
      A.Unsupported = whyPointerUnsupported(A.Pointer, DL);
      Found.push_back(std::move(A));
    }
  }
  return Found;
}

} // namespace alignguard
