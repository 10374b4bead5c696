//===- Promises.cpp - Find the alignment promises in a function -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See Promises.h. Nothing here changes IR.
//
//===----------------------------------------------------------------------===//
#include "Promises.h"

#include "Compat.h"
#include "GuardMetadata.h"
#include "IRShapes.h"
#include "PointerOrigins.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
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

bool AlignmentPromise::isTrivial() const {
  auto *C = dyn_cast_or_null<ConstantInt>(Alignment);
  return C && C->isOne();
}

bool isABIAlignment(const Argument &A) {
  return A.hasByValAttr() || A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
         A.hasAttribute(Attribute::ByRef);
}

bool isTypeAlignment(const AttributeList &Attrs, int ArgNo,
                     uint64_t Alignment) {
  if (Alignment <= 1 || Alignment > 16)
    return false;
  bool Ret = ArgNo < 0;
  unsigned RetOrParam = Ret ? 0 : unsigned(ArgNo);
  uint64_t Deref = Ret ? Attrs.getRetDereferenceableBytes()
                       : Attrs.getParamDereferenceableBytes(RetOrParam);
  uint64_t DerefOrNull =
      Ret ? Attrs.getRetDereferenceableOrNullBytes()
          : Attrs.getParamDereferenceableOrNullBytes(RetOrParam);
  for (uint64_t Size : {Deref, DerefOrNull})
    if (Size && Size % Alignment == 0)
      return true;
  return Ret ? Attrs.hasRetAttr(Attribute::NonNull)
             : Attrs.hasParamAttr(RetOrParam, Attribute::NonNull);
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
      return "the promised value has type " + typeName(T) + ", not a pointer";
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
static AlignmentPromise readAlignBundle(CallInst &Assume, unsigned Index,
                                        const DataLayout &DL) {
  AlignmentPromise A;
  A.Kind = PromiseKind::AssumeBundle;
  A.F = Assume.getFunction();
  A.Assume = &Assume;
  A.Inst = &Assume;
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
    A.Unsupported = "the offset has type " + typeName(A.Offset->getType()) +
                    ", not an integer";
  return A;
}

bool matchAlignmentTest(Value *Cond, AlignmentTest &Test) {
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->isEquality())
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
  if (match(Masked, m_c_And(m_Value(Addr), m_ConstantInt(Mask)))) {
    if (!Mask->getValue().isMask())
      return false; // not 2^k-1: a bit test, not an alignment test
    // One bit wider: an all-ones mask (`and i32 %p, -1`) means 2^32.
    const APInt &M = Mask->getValue();
    Test.Alignment = M.zext(M.getBitWidth() + 1) + 1;
  } else if (match(Masked, m_URem(m_Value(Addr), m_ConstantInt(Divisor)))) {
    if (!Divisor->getValue().isPowerOf2())
      return false; // divisibility, not alignment
    Test.Alignment = Divisor->getValue();
  } else {
    return false;
  }
  // Keep the usual case in an i64 (the pass computes in the widest type).
  if (Test.Alignment.getActiveBits() <= 64)
    Test.Alignment = Test.Alignment.zextOrTrunc(64);

  Value *Ptr = nullptr, *Offset = nullptr;
  ConstantInt *AddC;
  if (match(Addr, m_PtrToInt(m_Value(Ptr)))) {
  } else if (match(Addr, m_Sub(m_PtrToInt(m_Value(Ptr)), m_Value(Offset)))) {
  } else if (match(Addr,
                   m_c_Add(m_PtrToInt(m_Value(Ptr)), m_ConstantInt(AddC)))) {
    Offset = ConstantExpr::getNeg(AddC); // p + C aligned == p - (-C) aligned
  } else if (!isa<Constant>(Addr)) {
    Test.Integer = Addr; // an integer's low bits: a stride, an offset
  } else {
    return false;
  }
  Test.Pointer = Ptr;
  Test.Offset = Offset;
  Test.AlignedWhenTrue = Cmp->getPredicate() == ICmpInst::ICMP_EQ;
  return true;
}

/// A promise of Kind, made at Inst (null for a parameter) about Pointer,
/// with a constant alignment.
static AlignmentPromise makePromise(PromiseKind Kind, Function &F,
                                    Instruction *Inst, Value *Pointer,
                                    uint64_t Alignment, const DataLayout &DL) {
  AlignmentPromise A;
  A.Kind = Kind;
  A.F = &F;
  A.Inst = Inst;
  A.Pointer = Pointer;
  A.Alignment = ConstantInt::get(Type::getInt64Ty(F.getContext()), Alignment);
  A.Unsupported = whyPointerUnsupported(Pointer, DL);
  return A;
}

std::optional<uint64_t> loadedAlignment(const LoadInst &Load) {
  MDNode *MD = Load.getMetadata(LLVMContext::MD_align);
  if (!MD || MD->getNumOperands() != 1)
    return std::nullopt;
  auto *C = mdconst::dyn_extract_or_null<ConstantInt>(MD->getOperand(0));
  if (!C || C->getValue().getActiveBits() > 64)
    return std::nullopt;
  return C->getZExtValue();
}

bool isTypeAlignment(const LoadInst &, uint64_t Alignment) {
  // `!align` itself is the reference marker: rustc writes it only on loads
  // of references, Box and NonNull-like values (Option<&T> included, which
  // has no `!nonnull`), with the pointee type's alignment.
  return Alignment > 1 && Alignment <= 16;
}

bool isLibraryAlignedAllocator(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || CB.isNoBuiltin())
    return false;
  // LLVM's library knowledge (MemoryBuiltins, InferFunctionAttrs): these
  // return blocks aligned as their alignment argument asks, whatever the
  // IR's attributes say.
  static constexpr StringLiteral Allocators[] = {
      "aligned_alloc",
      "memalign",
      "_ZnwmSt11align_val_t",
      "_ZnamSt11align_val_t",
      "_ZnwjSt11align_val_t",
      "_ZnajSt11align_val_t",
      "_ZnwmSt11align_val_tRKSt9nothrow_t",
      "_ZnamSt11align_val_tRKSt9nothrow_t",
      "_ZnwjSt11align_val_tRKSt9nothrow_t",
      "_ZnajSt11align_val_tRKSt9nothrow_t"};
  return is_contained(Allocators, Callee->getName());
}

std::string libraryAllocatorGuarantee(const CallBase &CB) {
  return "the library's guarantee for '" +
         CB.getCalledFunction()->getName().str() +
         "', which LLVM relies on whatever the attributes say: a check would "
         "be folded away";
}

Instruction *resultCheckPoint(const Instruction &I) {
  Instruction *At = nullptr;
  if (auto *Invoke = dyn_cast<InvokeInst>(&I)) {
    BasicBlock *Normal = Invoke->getNormalDest();
    BasicBlock::iterator It = Normal->getFirstInsertionPt();
    At = It == Normal->end() ? nullptr : &*It;
  } else if (isa<CallInst>(I) || isa<LoadInst>(I)) {
    At = const_cast<Instruction *>(I.getNextNode());
  } // callbr: the result is defined on every edge
  // Static allocas (and localescape) stay in the entry block, before every
  // check (CheckEmitter moves them up): the check goes after them.
  while (At && At->getParent()->isEntryBlock() && staysAtEntryTop(*At))
    At = At->getNextNode();
  return At;
}

/// The promises a call makes about the pointer it returns: `align N` on the
/// call or its callee, and the run-time alignment of an `allocalign`
/// argument. Intrinsics are left out: what they return is the compiler's
/// own construction (llvm.threadlocal.address, llvm.ptrmask).
static void collectReturnPromises(CallBase &CB,
                                  std::vector<AlignmentPromise> &Found,
                                  const DataLayout &DL) {
  if (isa<IntrinsicInst>(CB) || !CB.getType()->isPtrOrPtrVectorTy())
    return;
  Function &F = *CB.getFunction();
  size_t First = Found.size();
  if (MaybeAlign RetAlign = CB.getRetAlign()) {
    Found.push_back(makePromise(PromiseKind::ReturnAttr, F, &CB, &CB,
                                RetAlign->value(), DL));
    // The call's attributes, or its callee's where it has none.
    const Function *Callee = CB.getCalledFunction();
    Found.back().TypeImplied =
        isTypeAlignment(CB.getAttributes(), /*ArgNo=*/-1, RetAlign->value()) ||
        (Callee && isTypeAlignment(Callee->getAttributes(), /*ArgNo=*/-1,
                                   RetAlign->value()));
  }
  if (Value *Alignment = compat::allocAlignArgument(CB)) {
    AlignmentPromise A = makePromise(PromiseKind::ReturnAttr, F, &CB, &CB,
                                     /*Alignment=*/1, DL);
    A.Alignment = Alignment;
    A.FromAllocAlign = true;
    if (A.isSupported() && !Alignment->getType()->isIntegerTy())
      A.Unsupported = "the allocalign argument has type " +
                      typeName(Alignment->getType()) + ", not an integer";
    Found.push_back(std::move(A));
  }
  for (size_t I = First; I != Found.size(); ++I) {
    AlignmentPromise &A = Found[I];
    if (!A.isSupported())
      continue;
    if (auto *Call = dyn_cast<CallInst>(&CB); Call && Call->isMustTailCall())
      A.Unsupported = "a musttail call's result is returned at once: no "
                      "check can run between the call and the return";
    else if (!resultCheckPoint(CB))
      A.Unsupported = "the call's result has no single place after it";
  }
}

/// What no check can be inserted for, whatever the promise: a naked
/// function's body is its prologue; a call in a block shared by several EH
/// funclets has no single funclet to name.
static void markUncheckable(Function &F, std::vector<AlignmentPromise> &Found) {
  if (Found.empty())
    return;
  if (F.hasFnAttribute(Attribute::Naked)) {
    for (AlignmentPromise &A : Found)
      if (A.isSupported())
        A.Unsupported = "the function is naked; no check can be inserted";
    return;
  }
  auto Colors = funcletColors(F);
  if (Colors.empty())
    return;
  for (AlignmentPromise &A : Found) {
    bool Ambiguous = false;
    if (A.Inst && A.isSupported())
      funcletPadOf(Colors, A.Inst->getParent(), Ambiguous);
    if (Ambiguous)
      A.Unsupported = std::string("the ") + (A.Assume ? "assume" : "promise") +
                      " is in a block shared by several EH funclets; a call "
                      "there has no single funclet";
  }
}

/// F's `align` parameters (an entry point's, or every function's with
/// AllParams).
static void collectParamPromises(Function &F, const CollectScope &Scope,
                                 std::vector<AlignmentPromise> &Found,
                                 const DataLayout &DL) {
  for (Argument &Arg : F.args()) {
    MaybeAlign Align = F.getParamAlign(Arg.getArgNo());
    if (!Align || isABIAlignment(Arg))
      continue;
    // A deferred run's check keeps the attribute until the expansion.
    bool Guarded = isCheckedByDeferredPlace(Arg, Align->value());
    if (Guarded && !Scope.GuardedAssumes)
      continue;
    Found.push_back(makePromise(PromiseKind::ParamAttr, F, nullptr, &Arg,
                                Align->value(), DL));
    Found.back().Param = &Arg;
    Found.back().Guarded = Guarded;
    Found.back().TypeImplied =
        isTypeAlignment(F.getAttributes(), Arg.getArgNo(), Align->value());
  }
}

/// An assume's "align" bundles, and its legacy icmp test.
static void collectAssumePromises(AssumeInst &Assume, const CollectScope &Scope,
                                  std::vector<AlignmentPromise> &Found,
                                  const DataLayout &DL) {
  bool Guarded = isGuarded(Assume);
  if (Guarded && !Scope.GuardedAssumes)
    return;
  forEachAlignBundle(Assume, [&](unsigned Idx, OperandBundleUse) {
    Found.push_back(readAlignBundle(Assume, Idx, DL));
    Found.back().Guarded = Guarded;
  });
  AlignmentTest Test;
  if (!matchAlignmentTest(Assume.getArgOperand(0), Test) || !Test.Pointer ||
      !Test.AlignedWhenTrue)
    return;
  AlignmentPromise A;
  A.Kind = PromiseKind::AssumeICmp;
  A.F = Assume.getFunction();
  A.Assume = &Assume;
  A.Inst = &Assume;
  A.Pointer = Test.Pointer;
  A.Alignment = ConstantInt::get(Assume.getContext(), Test.Alignment);
  A.Offset = Test.Offset;
  A.Guarded = Guarded;
  A.Unsupported = whyPointerUnsupported(A.Pointer, DL);
  Found.push_back(std::move(A));
}

std::vector<AlignmentPromise>
collectAlignmentPromises(Function &F, bool IsEntry, const CollectScope &Scope) {
  std::vector<AlignmentPromise> Found;
  const DataLayout &DL = F.getParent()->getDataLayout();

  if (Scope.AllParams || (Scope.EntryParams && IsEntry))
    collectParamPromises(F, Scope, Found, DL);

  // F's own return promise, once, at its first `ret` (the audit looks at
  // every `ret`).
  if (Scope.Returns)
    if (MaybeAlign RetAlign = F.getAttributes().getRetAlignment())
      for (BasicBlock &BB : F)
        if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
          if (Value *V = Ret->getReturnValue()) {
            Found.push_back(makePromise(PromiseKind::ReturnAttr, F, Ret, V,
                                        RetAlign->value(), DL));
            Found.back().TypeImplied = isTypeAlignment(
                F.getAttributes(), /*ArgNo=*/-1, RetAlign->value());
            break;
          }

  for (Instruction &I : instructions(F)) {
    if (auto *Assume = dyn_cast<AssumeInst>(&I)) {
      collectAssumePromises(*Assume, Scope, Found, DL);
      continue;
    }

    if (Scope.Returns)
      if (auto *CB = dyn_cast<CallBase>(&I))
        collectReturnPromises(*CB, Found, DL);

    if (Scope.Loads)
      if (auto *Load = dyn_cast<LoadInst>(&I))
        if (std::optional<uint64_t> Align = loadedAlignment(*Load)) {
          // A load whose check was hoisted keeps `!align`, marked guarded.
          bool Guarded = isGuarded(*Load);
          if (!Guarded || Scope.GuardedAssumes) {
            Found.push_back(makePromise(PromiseKind::LoadMetadata, F, Load,
                                        Load, *Align, DL));
            Found.back().TypeImplied = isTypeAlignment(*Load, *Align);
            Found.back().Guarded = Guarded;
          }
        }

    if (Scope.Accesses && IsEntry) {
      // align-guard<accesses> marks what it checked, like guarded assumes.
      bool Guarded = isGuarded(I);
      if (Guarded && !Scope.GuardedAssumes)
        continue;
      for (const MemoryAccessOperand &Op : memoryAccessOperands(I)) {
        if (!Op.Alignment ||
            *Op.Alignment <= naturalAccessAlignment(Op.AccessType, DL))
          continue;
        // A field of a `T*` aligned as T's layout says is the type's
        // promise, like every naturally aligned access: not listed.
        if (!comesFromArgument(Op.Pointer) ||
            *Op.Alignment <= alignmentFromType(Op.Pointer, DL))
          continue;
        Found.push_back(makePromise(PromiseKind::Access, F, &I, Op.Pointer,
                                    Op.Alignment->value(), DL));
        Found.back().Guarded = Guarded;
      }
    }
  }
  markUncheckable(F, Found);
  return Found;
}

} // namespace alignguard
