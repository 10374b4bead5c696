//===- AlignGuardPass.cpp - Turn alignment promises into checks ----------===//
//
// See AlignGuardPass.h for the shape of the rewrite. Per function: collect
// the promises (Promises.h); decide, on the function as it is, each
// place's failure policy (return=N and fallback need an entry point, the
// fallback no side effect before it), which checks are redundant, and where
// access checks go (AccessPlacement.h); then rewrite one place at a time:
// the bundles of one llvm.assume, the `align` parameters (a fresh assume
// after the entry block's allocas), the access checks of one place, each
// with one branch.
//
//===----------------------------------------------------------------------===//
#include "AlignGuardPass.h"

#include "AccessPlacement.h"
#include "Promises.h"
#include "Compat.h"
#include "Diagnostics.h"
#include "EntryPoints.h"
#include "PointerOrigins.h"
#include "PromiseStripping.h"
#include "RuntimeABI.h"
#include "SubjectNames.h"
#include "UnalignedCopies.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumChecks, "Alignment checks inserted");
STATISTIC(NumBundleChecks, "Checks of \"align\" assume bundles");
STATISTIC(NumICmpChecks, "Checks of legacy icmp alignment assumes");
STATISTIC(NumParamChecks, "Checks of align parameter attributes");
STATISTIC(NumAccessChecks, "Checks of over-aligned accesses (accesses)");
STATISTIC(NumTrivial, "Promises of alignment 1, which need no check");
STATISTIC(NumUnsupported, "Promises left alone, with a warning");
STATISTIC(NumFedPromisesDropped,
          "align attributes dropped below a recovering check");
STATISTIC(NumRedundant, "Checks left out: an earlier check covers them");
STATISTIC(NumEarlyReturns, "Failing checks that return (return=N, fallback)");

namespace alignguard {
namespace {

/// True when the module is device code, where no host runtime can be linked.
bool isGPUTarget(const Module &M) {
  Triple T = compat::targetTriple(M);
  StringRef Arch = T.getArchName();
  return T.isNVPTX() || T.isAMDGPU() || Arch.substr(0, 4) == "spir";
}

void warn(Module &M, const Twine &Message) {
  diagnose(M.getContext(), "align-guard: " + Message, DS_Warning);
}

/// `file:line:col: ` for a message, or "" without debug info.
std::string locationPrefix(const DebugLoc &DL) {
  if (!DL)
    return "";
  return (DL->getFilename() + ":" + Twine(DL.getLine()) + ":" +
          Twine(DL.getCol()) + ": ")
      .str();
}

/// Instructions that must stay in the entry block: static allocas (else
/// they become dynamic stack allocations that SROA no longer promotes) and
/// llvm.localescape (the verifier requires it there).
bool mustStayInEntry(const Instruction &I) {
  if (auto *AI = dyn_cast<AllocaInst>(&I))
    return AI->isStaticAlloca();
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->getIntrinsicID() == Intrinsic::localescape;
  return false;
}

/// The first instruction of F's entry block after those that must stay in
/// it: checks of parameters go there.
Instruction *entryInsertionPoint(Function &F) {
  for (Instruction &I : F.getEntryBlock())
    if (!mustStayInEntry(I) && !isa<AllocaInst>(I))
      return &I;
  return F.getEntryBlock().getTerminator();
}

/// Splitting the entry block before SplitBefore moves what follows out of
/// it: move the instructions that must stay up first. An alloca of constant
/// size depends on nothing; localescape only on allocas.
void keepEntryOnlyInstructions(Instruction *SplitBefore) {
  BasicBlock *BB = SplitBefore->getParent();
  if (BB != &BB->getParent()->getEntryBlock())
    return;
  Instruction *Top = entryInsertionPoint(*BB->getParent());
  SmallVector<Instruction *, 4> Below;
  for (auto It = SplitBefore->getIterator(); It != BB->end(); ++It)
    if (mustStayInEntry(*It))
      Below.push_back(&*It);
  for (Instruction *I : Below)
    I->moveBefore(*Top->getParent(), Top->getIterator());
}

/// One pointer to check: a scalar pointer (a lane of a vector of pointers
/// is extracted first) and what the promise says about it.
struct ScalarCheck {
  const AlignmentPromise *From;
  Value *Pointer;
  std::string Subject;
  /// An i1 that must also hold for the check to fail (a hoisted access
  /// check: the loop takes an iteration), or null.
  Value *Guard = nullptr;
};

/// How the failing side of one group of checks ends.
struct FailurePolicy {
  FailureAction Action;
  Constant *ReturnValue = nullptr; ///< Return: what the entry point returns
  Function *Copy = nullptr;        ///< Fallback: the unaligned copy to run
  Instruction *Funclet = nullptr;  ///< Windows EH: the funclet's pad
  /// Why a requested return/fallback could not be used here (then Action
  /// is Abort); the audit shows it.
  std::string Downgraded;

  /// The failing side leaves the function or the program: nothing after
  /// the check runs with a broken promise, so the promise can stay.
  bool isTerminal() const { return Action != FailureAction::Recover; }
};

/// One scalar check's values, computed before the branch.
struct PreparedCheck {
  const ScalarCheck *C;
  DebugLoc Loc;
  Value *PtrBits;   ///< ptrtoint, i64: what the runtime prints
  Value *Ptr;       ///< PtrBits in IntTy
  Value *Addr;      ///< Ptr - Offset
  Value *Alignment; ///< in IntTy
  Value *Offset;    ///< in IntTy, or null
  Value *Bad;       ///< i1: this check fails (null when merged)
  bool HasMask = false; ///< the alignment is a constant power of two
  APInt Mask;           ///< then, the alignment - 1
};

class FunctionInstrumenter {
public:
  FunctionInstrumenter(Function &F, FailureAction Action, int64_t ReturnValue,
                       SiteDescriptors &Sites, UnalignedCopies &Copies)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), Action(Action),
        ReturnValue(ReturnValue), Sites(Sites), Copies(Copies), Namer(F),
        ORE(&F) {}

  /// Rewrites the promises Found in F; returns true when F changed.
  bool run(std::vector<AlignmentPromise> &Found, bool IsEntry);

private:
  void reportUnsupported(const AlignmentPromise &A);
  void remarkTrivial(const AlignmentPromise &A);
  /// The policy for checks placed before Anchor, decided on the function
  /// as it was before instrumentation.
  FailurePolicy decidePolicy(Instruction *Anchor, bool IsEntry,
                             Instruction *Funclet, const std::string &What);
  /// Promises checked already by an earlier check of the same pointer, of at
  /// least that alignment, that dominates them: not checked again.
  SmallPtrSet<const AlignmentPromise *, 8>
  findRedundant(ArrayRef<const AlignmentPromise *> Promises,
                const DenseMap<const AlignmentPromise *, Instruction *>
                    &Anchors);
  /// Promises from `align` parameters become one assume before InsertPt
  /// (after the allocas); returns it, or null in recover mode, which keeps
  /// no promise.
  CallInst *materializeParamPromises(ArrayRef<const AlignmentPromise *>,
                                     ArrayRef<ScalarCheck> Checks,
                                     Instruction *InsertPt, bool KeepPromise);
  /// Emits the checks of one place before SplitBefore: one branch for all
  /// of them; the cold side finds which failed.
  void emitChecks(ArrayRef<ScalarCheck> Checks, Instruction *SplitBefore,
                  const FailurePolicy &Policy);
  PreparedCheck prepare(IRBuilder<> &B, const ScalarCheck &C);
  /// The failure of one check, at Term (the fail block's terminator).
  void emitFailure(Instruction *Term, const PreparedCheck &P,
                   const FailurePolicy &Policy);
  /// The funclet pad of BB's funclet; null outside funclets. Sets Ambiguous
  /// when BB belongs to several (the pass then leaves its promises alone).
  Instruction *funcletOf(BasicBlock *BB, bool &Ambiguous) const;
  SiteInfo siteFor(const PreparedCheck &P) const;
  /// After the checks: keep the promise, guarded (terminal actions), or
  /// drop it and everything it fed (recover).
  void finishAssume(CallInst *Assume,
                    ArrayRef<const AlignmentPromise *> Checked,
                    bool FromParams, const FailurePolicy &Policy);
  /// After an access check: mark the accesses guarded (terminal actions,
  /// with the check's placement for the audit), or lower them to their
  /// natural alignment (recover: the kernel goes on with the pointer).
  void finishAccesses(const PlannedAccessCheck &P, const FailurePolicy &Policy);
  std::vector<ScalarCheck> scalarize(const AlignmentPromise &A,
                                     Instruction *InsertBefore);
  DebugLoc debugLocFor(const AlignmentPromise &A) const;
  std::string subjectOf(const AlignmentPromise &A) const;

  Function &F;
  Module &M;
  LLVMContext &Ctx;
  FailureAction Action;
  int64_t ReturnValue;
  SiteDescriptors &Sites;
  UnalignedCopies &Copies;
  SubjectNamer Namer;
  OptimizationRemarkEmitter ORE;
  /// Subjects named before the first split: naming follows spill slots,
  /// which only the unsplit entry block shows for certain.
  DenseMap<const AlignmentPromise *, std::string> Subjects;
  /// Funclet colours of the blocks, before any split (Windows EH only):
  /// calls in a funclet need a "funclet" bundle or WinEHPrepare drops them.
  DenseMap<BasicBlock *, ColorVector> FuncletColors;
};

Instruction *FunctionInstrumenter::funcletOf(BasicBlock *BB,
                                             bool &Ambiguous) const {
  Ambiguous = false;
  auto It = FuncletColors.find(BB);
  if (It == FuncletColors.end() || It->second.empty())
    return nullptr;
  if (It->second.size() != 1) {
    Ambiguous = true;
    return nullptr;
  }
  BasicBlock *Color = It->second.front();
  if (Color == &F.getEntryBlock())
    return nullptr;
  return compat::firstNonPHI(*Color);
}

DebugLoc FunctionInstrumenter::debugLocFor(const AlignmentPromise &A) const {
  if (A.Assume && A.Assume->getDebugLoc())
    return A.Assume->getDebugLoc();
  // A parameter's promise is made where the function begins.
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(Ctx, SP->getLine(), 0, SP);
  return DebugLoc();
}

std::string FunctionInstrumenter::subjectOf(const AlignmentPromise &A) const {
  auto Known = Subjects.find(&A);
  if (Known != Subjects.end())
    return Known->second;
  // An access is through a GEP of the buffer: name the buffer.
  if (A.Kind == PromiseKind::Access)
    return Namer.describe(pointerRoot(A.Pointer));
  if (!A.Param)
    return A.Pointer ? Namer.describe(A.Pointer) : "a value";
  std::string Subject = "argument #" + std::to_string(A.Param->getArgNo());
  std::string Name = Namer.argumentName(*A.Param);
  return Name.empty() ? Subject : Subject + " '" + Name + "'";
}

void FunctionInstrumenter::reportUnsupported(const AlignmentPromise &A) {
  ++NumUnsupported;
  warn(M, locationPrefix(debugLocFor(A)) + "in function '" + F.getName() +
              "': " + promiseKindName(A.Kind) + " on " + subjectOf(A) +
              " left unchecked: " + A.Unsupported);
  if (A.Assume)
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "Unsupported", A.Assume)
             << promiseKindName(A.Kind) << " left unchecked: "
             << A.Unsupported;
    });
}

void FunctionInstrumenter::remarkTrivial(const AlignmentPromise &A) {
  ++NumTrivial;
  if (A.Assume)
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "Trivial", A.Assume)
             << "alignment 1 promises nothing; no check needed";
    });
}

std::vector<ScalarCheck>
FunctionInstrumenter::scalarize(const AlignmentPromise &A,
                                Instruction *InsertBefore) {
  std::string Subject = subjectOf(A);
  auto *VT = dyn_cast<FixedVectorType>(A.Pointer->getType());
  if (!VT)
    return {ScalarCheck{&A, A.Pointer, Subject}};
  // LangRef: `align` on a vector of pointers holds for every element.
  std::vector<ScalarCheck> Lanes;
  IRBuilder<> B(InsertBefore);
  for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
    Lanes.push_back({&A, B.CreateExtractElement(A.Pointer, B.getInt64(I)),
                     Subject + " element " + std::to_string(I)});
  return Lanes;
}

FailurePolicy FunctionInstrumenter::decidePolicy(Instruction *Anchor,
                                                 bool IsEntry,
                                                 Instruction *Funclet,
                                                 const std::string &What) {
  FailurePolicy P;
  P.Action = Action;
  P.Funclet = Funclet;
  std::string Why;
  if (Action == FailureAction::Return) {
    auto *RetTy = dyn_cast<IntegerType>(F.getReturnType());
    if (!IsEntry)
      Why = "it is not an entry point";
    else if (!RetTy)
      Why = "it does not return an integer";
    else if (Funclet)
      Why = "the check is in an EH funclet, which cannot return";
    else if (!isIntN(RetTy->getBitWidth(), ReturnValue) &&
             !isUIntN(RetTy->getBitWidth(), ReturnValue))
      Why = std::to_string(ReturnValue) + " does not fit its " +
            std::to_string(RetTy->getBitWidth()) + "-bit return type";
    else
      P.ReturnValue = ConstantInt::get(RetTy, ReturnValue, /*IsSigned=*/true);
  } else if (Action == FailureAction::Fallback) {
    std::string Effect;
    if (!IsEntry)
      Why = "it is not an entry point";
    else if (!(Why = whyNotForwardable(F)).empty())
      ;
    else if (!(Effect = sideEffectMayPrecede(*Anchor)).empty())
      Why = "fallback-unsafe: " + Effect +
            " can run before the check, so running the copy would repeat it";
    else
      P.Copy = Copies.getOrCreate(F);
  }
  if (!Why.empty()) {
    P.Action = FailureAction::Abort;
    P.Downgraded = Why;
    warn(M, locationPrefix(Anchor->getDebugLoc()) + "in function '" +
                F.getName() + "': " + failureActionName(Action) +
                " cannot be used for the check of " + What + ": " + Why +
                "; a violation there aborts");
  }
  return P;
}

SmallPtrSet<const AlignmentPromise *, 8> FunctionInstrumenter::findRedundant(
    ArrayRef<const AlignmentPromise *> Promises,
    const DenseMap<const AlignmentPromise *, Instruction *> &Anchors) {
  SmallPtrSet<const AlignmentPromise *, 8> Redundant;
  DominatorTree DT(F);
  auto ConstantOf = [](Value *V, int64_t &Out) {
    auto *C = dyn_cast_or_null<ConstantInt>(V);
    if (V && (!C || C->getBitWidth() > 64))
      return false;
    Out = C ? C->getSExtValue() : 0;
    return true;
  };
  for (const AlignmentPromise *A : Promises) {
    auto *AlignA = dyn_cast<ConstantInt>(A->Alignment);
    int64_t OffA;
    if (!AlignA || !AlignA->getValue().isPowerOf2() ||
        AlignA->getValue().getActiveBits() > 64 || !ConstantOf(A->Offset, OffA) ||
        A->Pointer->getType()->isVectorTy())
      continue;
    uint64_t Need = AlignA->getZExtValue();
    for (const AlignmentPromise *B : Promises) {
      auto *AlignB = dyn_cast<ConstantInt>(B->Alignment);
      int64_t OffB;
      if (B == A || Redundant.count(B) || !AlignB ||
          !AlignB->getValue().isPowerOf2() ||
          AlignB->getValue().getActiveBits() > 64 ||
          AlignB->getZExtValue() < Need || !ConstantOf(B->Offset, OffB) ||
          sameAddress(B->Pointer) != sameAddress(A->Pointer) ||
          static_cast<uint64_t>(OffA - OffB) % Need != 0)
        continue;
      Instruction *AtA = Anchors.lookup(A), *AtB = Anchors.lookup(B);
      // At the same place the first one stays; else B must dominate A.
      bool Earlier = AtA == AtB ? is_contained(Promises, B) &&
                                      find(Promises, B) < find(Promises, A)
                                : DT.dominates(AtB, AtA);
      if (Earlier) {
        Redundant.insert(A);
        break;
      }
    }
  }
  return Redundant;
}

CallInst *FunctionInstrumenter::materializeParamPromises(
    ArrayRef<const AlignmentPromise *> Params, ArrayRef<ScalarCheck> Checks,
    Instruction *InsertPt, bool KeepPromise) {
  // The attribute goes: the optimiser would otherwise prove the check false.
  for (const AlignmentPromise *A : Params)
    F.removeParamAttr(A->Param->getArgNo(), Attribute::Alignment);
  if (!KeepPromise)
    return nullptr;

  IRBuilder<> B(InsertPt);
  SmallVector<OperandBundleDef, 4> Bundles;
  for (const ScalarCheck &C : Checks)
    Bundles.emplace_back("align",
                         std::vector<Value *>{C.Pointer, C.From->Alignment});
  CallInst *Assume = B.CreateAssumption(B.getTrue(), Bundles);
  Assume->setDebugLoc(debugLocFor(*Params.front()));
  return Assume;
}

SiteInfo FunctionInstrumenter::siteFor(const PreparedCheck &P) const {
  SiteInfo Site;
  Site.Kind = P.C->From->Kind;
  // Reports are for people: Particle::step(float), not _ZN8Particle4stepEf
  // (demangle returns a name that is not mangled unchanged).
  Site.Function = llvm::demangle(F.getName().str());
  Site.Subject = P.C->Subject;
  if (P.Loc) {
    Site.File = P.Loc->getFilename().str();
    Site.Line = P.Loc.getLine();
    Site.Column = P.Loc.getCol();
  }
  if (auto *CA = dyn_cast<ConstantInt>(P.C->From->Alignment))
    Site.Alignment = CA->getValue().getLimitedValue();
  if (auto *CO = dyn_cast_or_null<ConstantInt>(P.C->From->Offset))
    Site.Offset = CO->getValue().sextOrTrunc(64).getSExtValue();
  return Site;
}

PreparedCheck FunctionInstrumenter::prepare(IRBuilder<> &B,
                                            const ScalarCheck &C) {
  const AlignmentPromise &A = *C.From;
  PreparedCheck P;
  P.C = &C;
  P.Loc = debugLocFor(A);
  B.SetCurrentDebugLocation(P.Loc);

  // All arithmetic in one integer type wide enough for the pointer's low
  // 64 bits, the alignment and the offset (an i128 alignment stays exact).
  unsigned Width = std::max<unsigned>(
      {64, A.Alignment->getType()->getIntegerBitWidth(),
       A.Offset ? A.Offset->getType()->getIntegerBitWidth() : 0});
  Type *IntTy = B.getIntNTy(Width);
  P.PtrBits = B.CreatePtrToInt(C.Pointer, B.getInt64Ty(), "ag.ptr");
  P.Ptr = B.CreateZExtOrTrunc(P.PtrBits, IntTy);
  P.Addr = P.Ptr;
  P.Offset = nullptr;
  if (A.Offset) {
    P.Offset = B.CreateSExtOrTrunc(A.Offset, IntTy);
    P.Addr = B.CreateSub(P.Ptr, P.Offset, "ag.addr");
  }
  Value *Zero = ConstantInt::get(IntTy, 0);
  P.Alignment = B.CreateZExtOrTrunc(A.Alignment, IntTy);

  // LangRef: a non-power-of-two (or zero) alignment promises a null pointer.
  if (auto *CA = dyn_cast<ConstantInt>(P.Alignment)) {
    if (CA->getValue().isPowerOf2() && C.Guard) {
      // A guarded check cannot share the mask test of the others.
      P.Bad = B.CreateAnd(
          B.CreateICmpNE(
              B.CreateAnd(P.Addr, ConstantInt::get(IntTy, CA->getValue() - 1)),
              Zero, "ag.misaligned"),
          C.Guard, "ag.bad");
    } else if (CA->getValue().isPowerOf2()) {
      P.Mask = CA->getValue() - 1;
      P.HasMask = true;
      P.Bad = nullptr; // tested with the others of its mask, see emitChecks
    } else {
      P.Bad = B.CreateICmpNE(P.Ptr, Zero, "ag.nonnull");
    }
  } else {
    // One statement per instruction: argument evaluation order is
    // unspecified, and the emitted order should not depend on the compiler.
    Value *Mask = B.CreateSub(P.Alignment, ConstantInt::get(IntTy, 1));
    Value *NonZero = B.CreateICmpNE(P.Alignment, Zero);
    Value *OneBit = B.CreateICmpEQ(B.CreateAnd(P.Alignment, Mask), Zero);
    Value *IsPow2 = B.CreateAnd(NonZero, OneBit, "ag.pow2");
    Value *Misaligned = B.CreateICmpNE(B.CreateAnd(P.Addr, Mask), Zero);
    Value *NonNull = B.CreateICmpNE(P.Ptr, Zero);
    P.Bad = B.CreateSelect(IsPow2, Misaligned, NonNull, "ag.bad");
  }
  return P;
}

void FunctionInstrumenter::emitFailure(Instruction *Term,
                                       const PreparedCheck &P,
                                       const FailurePolicy &Policy) {
  IRBuilder<> FB(Term);
  FB.SetCurrentDebugLocation(P.Loc);
  SmallVector<OperandBundleDef, 1> Bundles;
  if (Policy.Funclet)
    Bundles.emplace_back("funclet", Policy.Funclet);
  if (Policy.Action == FailureAction::Trap) {
    compat::createTrap(FB, Bundles);
    return;
  }
  HookKind Kind = Policy.Action == FailureAction::Abort      ? HookKind::Abort
                  : Policy.Action == FailureAction::Fallback ? HookKind::Fallback
                                                             : HookKind::Report;
  Type *I64 = FB.getInt64Ty();
  Constant *Site = Sites.create(siteFor(P));
  CallInst *Call = FB.CreateCall(
      getHook(M, Kind, Sites.pointerType()),
      {Site, P.PtrBits, FB.CreateTrunc(P.Alignment, I64),
       P.Offset ? FB.CreateTrunc(P.Offset, I64) : FB.getInt64(0)},
      Bundles);
  if (Kind == HookKind::Abort)
    Call->setDoesNotReturn();

  Value *Result = nullptr;
  if (Policy.Action == FailureAction::Return) {
    Result = Policy.ReturnValue;
  } else if (Policy.Action == FailureAction::Fallback) {
    // The same call, to the copy that makes no promise.
    SmallVector<Value *, 8> Args;
    for (Argument &Arg : F.args())
      Args.push_back(&Arg);
    CallInst *Slow = FB.CreateCall(Policy.Copy, Args);
    Slow->setAttributes(F.getAttributes());
    Slow->setCallingConv(F.getCallingConv());
    Slow->addFnAttr(Attribute::NoInline); // keep the entry point small
    Result = F.getReturnType()->isVoidTy() ? nullptr : Slow;
  } else {
    return; // abort: unreachable; recover: on to the continuation
  }
  ++NumEarlyReturns;
  FB.SetInsertPoint(Term);
  Instruction *Ret = Result ? FB.CreateRet(Result) : FB.CreateRetVoid();
  Ret->setDebugLoc(P.Loc);
  Term->eraseFromParent();
}

void FunctionInstrumenter::emitChecks(ArrayRef<ScalarCheck> Checks,
                                      Instruction *SplitBefore,
                                      const FailurePolicy &Policy) {
  IRBuilder<> B(SplitBefore);
  std::vector<PreparedCheck> Prepared;
  for (const ScalarCheck &C : Checks)
    Prepared.push_back(prepare(B, C));
  B.SetCurrentDebugLocation(Prepared.front().Loc);

  // One branch for the place: checks with the same power-of-two mask test
  // ((p1 | p2 | ...) & mask) != 0, the others their own condition, all OR-ed.
  Value *Bad = nullptr;
  auto Or = [&](Value *Cond) { Bad = Bad ? B.CreateOr(Bad, Cond) : Cond; };
  std::vector<bool> Done(Prepared.size(), false);
  for (size_t I = 0; I != Prepared.size(); ++I) {
    if (Done[I])
      continue;
    PreparedCheck &P = Prepared[I];
    if (!P.HasMask) {
      Or(P.Bad);
      continue;
    }
    Value *Bits = P.Addr;
    for (size_t J = I + 1; J != Prepared.size(); ++J)
      if (!Done[J] && Prepared[J].HasMask &&
          Prepared[J].Addr->getType() == P.Addr->getType() &&
          Prepared[J].Mask == P.Mask) {
        Bits = B.CreateOr(Bits, Prepared[J].Addr, "ag.any");
        Done[J] = true;
      }
    Or(B.CreateICmpNE(B.CreateAnd(Bits, ConstantInt::get(P.Addr->getType(),
                                                         P.Mask)),
                      ConstantInt::get(P.Addr->getType(), 0),
                      "ag.misaligned"));
  }

  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, (1u << 20) - 1);
  bool Terminal = Policy.isTerminal();
  Instruction *Fail =
      SplitBlockAndInsertIfThen(Bad, SplitBefore, Terminal, Unlikely);
  Fail->getParent()->getSinglePredecessor()->getTerminator()->setDebugLoc(
      Prepared.front().Loc);
  Fail->getParent()->setName("alignguard.fail");
  SplitBefore->getParent()->setName("alignguard.ok");
  NumChecks += Prepared.size();
  for (const PreparedCheck &P : Prepared)
    switch (P.C->From->Kind) {
    case PromiseKind::AssumeBundle:
      ++NumBundleChecks;
      break;
    case PromiseKind::AssumeICmp:
      ++NumICmpChecks;
      break;
    case PromiseKind::ParamAttr:
      ++NumParamChecks;
      break;
    case PromiseKind::Access:
      ++NumAccessChecks;
      break;
    case PromiseKind::ReturnAttr:
      llvm_unreachable("align-guard does not check return attributes");
    }

  // One check, or a trap (which does not say which): the fail block acts.
  if (Prepared.size() == 1 || Policy.Action == FailureAction::Trap)
    return emitFailure(Fail, Prepared.front(), Policy);
  // Several: the cold side tests them one by one to find the culprit.
  for (PreparedCheck &P : Prepared) {
    IRBuilder<> CB(Fail);
    CB.SetCurrentDebugLocation(P.Loc);
    Value *Cond =
        P.HasMask ? CB.CreateICmpNE(
                     CB.CreateAnd(P.Addr,
                                  ConstantInt::get(P.Addr->getType(), P.Mask)),
                     ConstantInt::get(P.Addr->getType(), 0))
               : P.Bad;
    Instruction *Then = SplitBlockAndInsertIfThen(Cond, Fail, Terminal);
    Then->getParent()->getSinglePredecessor()->getTerminator()->setDebugLoc(
        P.Loc);
    Then->getParent()->setName("alignguard.culprit");
    Fail->getParent()->setName("alignguard.next");
    emitFailure(Then, P, Policy);
  }
}

void FunctionInstrumenter::finishAssume(
    CallInst *Assume, ArrayRef<const AlignmentPromise *> Checked,
    bool FromParams, const FailurePolicy &Policy) {
  if (Policy.isTerminal()) {
    assert(Assume && "terminal actions keep every promise in an assume");
    // The audit reads where the promise came from and what became of a
    // fallback (see GuardedMDName).
    SmallVector<Metadata *, 2> Notes;
    if (FromParams)
      Notes.push_back(
          MDString::get(Ctx, promiseKindName(PromiseKind::ParamAttr)));
    if (!Policy.Downgraded.empty())
      Notes.push_back(MDString::get(Ctx, Policy.Downgraded));
    Assume->setMetadata(GuardedMDName, MDNode::get(Ctx, Notes));
    return;
  }
  // Recover: the promise may be false from here on. Drop the bundles that
  // were checked (and the legacy condition), then what those pointers fed.
  SmallVector<unsigned, 4> DropBundles;
  bool DropCondition = false;
  for (const AlignmentPromise *A : Checked) {
    if (A->Kind == PromiseKind::AssumeBundle)
      DropBundles.push_back(A->BundleIndex);
    else if (A->Kind == PromiseKind::AssumeICmp)
      DropCondition = true;
    NumFedPromisesDropped += dropAlignPromisesFedBy(A->Pointer);
  }
  if (!Assume)
    return; // parameter promises in recover mode: no assume was made
  SmallVector<OperandBundleDef, 4> Keep;
  for (unsigned I = 0, E = Assume->getNumOperandBundles(); I != E; ++I)
    if (!is_contained(DropBundles, I))
      Keep.emplace_back(Assume->getOperandBundleAt(I));
  if (DropCondition)
    Assume->setArgOperand(0, ConstantInt::getTrue(Ctx));
  bool CondTrue = match(Assume->getArgOperand(0), PatternMatch::m_One());
  if (Keep.empty() && CondTrue) {
    Assume->eraseFromParent();
    return;
  }
  if (Keep.size() != Assume->getNumOperandBundles()) {
    CallInst *Replacement = compat::cloneCallWithBundles(Assume, Keep);
    Replacement->copyMetadata(*Assume);
    Assume->eraseFromParent();
  }
}

void FunctionInstrumenter::finishAccesses(const PlannedAccessCheck &P,
                                          const FailurePolicy &Policy) {
  for (const AlignmentPromise *A : P.Covers) {
    Instruction *Access = A->Inst;
    if (!Policy.isTerminal()) {
      lowerToNaturalAlignment(*Access);
      continue;
    }
    SmallVector<Metadata *, 2> Notes{MDString::get(Ctx, P.Placement)};
    if (!Policy.Downgraded.empty())
      Notes.push_back(MDString::get(Ctx, Policy.Downgraded));
    Access->setMetadata(GuardedMDName, MDNode::get(Ctx, Notes));
  }
}

bool FunctionInstrumenter::run(std::vector<AlignmentPromise> &Found,
                               bool IsEntry) {
  // A naked function's body is its prologue: nothing may be inserted.
  if (F.hasFnAttribute(Attribute::Naked))
    for (AlignmentPromise &A : Found)
      A.Unsupported = "the function is naked; no check can be inserted";
  if (F.hasPersonalityFn() &&
      isFuncletEHPersonality(classifyEHPersonality(F.getPersonalityFn())))
    FuncletColors = colorEHFunclets(F);
  // Funclets are known for the blocks as they are before any split.
  DenseMap<CallInst *, Instruction *> FuncletOfAssume;
  for (AlignmentPromise &A : Found) {
    bool Ambiguous = false;
    if (A.Assume && A.isSupported())
      FuncletOfAssume[A.Assume] = funcletOf(A.Assume->getParent(), Ambiguous);
    if (Ambiguous)
      A.Unsupported = "the assume is in a block shared by several EH "
                      "funclets; a call there has no single funclet";
  }

  // Group the checkable promises by the assume that makes them; parameter
  // promises (no assume yet) go under nullptr; accesses are placed apart.
  MapVector<CallInst *, SmallVector<const AlignmentPromise *, 4>> Groups;
  SmallVector<const AlignmentPromise *, 8> All, Accesses;
  for (const AlignmentPromise &A : Found) {
    if (!A.isSupported())
      reportUnsupported(A);
    else if (A.isTrivial())
      remarkTrivial(A);
    else if (A.Kind == PromiseKind::Access)
      Accesses.push_back(&A);
    else {
      Groups[A.Assume].push_back(&A);
      All.push_back(&A);
    }
  }
  if (Groups.empty() && Accesses.empty())
    return false;

  // Decide everything on the function as it is, before the first split:
  // where each group's checks go, what its failure does (a fallback copy is
  // made now, from the uninstrumented body), which checks are redundant.
  for (const AlignmentPromise *A : Accesses)
    Subjects[A] = subjectOf(*A);
  std::vector<PlannedAccessCheck> AccessPlan = planAccessChecks(F, Accesses);
  DenseMap<const AlignmentPromise *, Instruction *> Anchors;
  std::vector<FailurePolicy> Policies;
  for (auto &Group : Groups) {
    Instruction *Anchor = Group.first ? Group.first : entryInsertionPoint(F);
    for (const AlignmentPromise *A : Group.second)
      Anchors[A] = Anchor;
    std::string What = subjectOf(*Group.second.front());
    if (Group.second.size() > 1)
      What += " and " + std::to_string(Group.second.size() - 1) + " more";
    Policies.push_back(
        decidePolicy(Anchor, IsEntry,
                     Group.first ? FuncletOfAssume.lookup(Group.first) : nullptr,
                     What));
  }
  // The access checks by place: one branch for all of one place.
  MapVector<Instruction *, SmallVector<const PlannedAccessCheck *, 4>> AccessGroups;
  for (const PlannedAccessCheck &P : AccessPlan)
    AccessGroups[P.InsertBefore].push_back(&P);
  std::vector<FailurePolicy> AccessPolicies;
  for (auto &Group : AccessGroups) {
    bool Ambiguous;
    AccessPolicies.push_back(decidePolicy(
        Group.first, IsEntry, funcletOf(Group.first->getParent(), Ambiguous),
        "the access to " + subjectOf(*Group.second.front()->Covers.front())));
  }
  SmallPtrSet<const AlignmentPromise *, 8> Redundant =
      findRedundant(All, Anchors);
  for (const AlignmentPromise *A : All)
    Subjects[A] = subjectOf(*A);

  size_t GroupIndex = 0;
  for (auto &Group : Groups) {
    const FailurePolicy &Policy = Policies[GroupIndex++];
    CallInst *Assume = Group.first;
    bool FromParams = !Assume;
    ArrayRef<const AlignmentPromise *> Promises = Group.second;
    Instruction *SplitBefore = Assume ? Assume : entryInsertionPoint(F);
    keepEntryOnlyInstructions(SplitBefore);
    std::vector<ScalarCheck> Checks;
    for (const AlignmentPromise *A : Promises) {
      std::vector<ScalarCheck> Lanes = scalarize(*A, SplitBefore);
      Checks.insert(Checks.end(), Lanes.begin(), Lanes.end());
    }
    if (!Assume && (Assume = materializeParamPromises(
                        Promises, Checks, SplitBefore, Policy.isTerminal())))
      SplitBefore = Assume;
    std::vector<ScalarCheck> Needed;
    for (const ScalarCheck &C : Checks)
      if (!Redundant.count(C.From))
        Needed.push_back(C);
    NumRedundant += Checks.size() - Needed.size();
    if (!Needed.empty())
      emitChecks(Needed, SplitBefore, Policy);
    for (const AlignmentPromise *A : Promises)
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Guarded", SplitBefore)
               << promiseKindName(A->Kind) << " on " << subjectOf(*A)
               << (Redundant.count(A) ? " already checked by an earlier check"
                                      : " checked (" +
                                            failureActionName(Policy.Action)
                                                .str() +
                                            ")");
      });
    finishAssume(Assume, Promises, FromParams, Policy);
  }

  size_t AccessIndex = 0;
  for (auto &Group : AccessGroups) {
    const FailurePolicy &Policy = AccessPolicies[AccessIndex++];
    Instruction *SplitBefore = Group.first;
    keepEntryOnlyInstructions(SplitBefore);
    std::vector<ScalarCheck> Checks;
    for (const PlannedAccessCheck *P : Group.second) {
      const AlignmentPromise &Rep = *P->Covers.front();
      Checks.push_back({&Rep, P->Pointer, subjectOf(Rep), P->Guard});
    }
    emitChecks(Checks, SplitBefore, Policy);
    for (const PlannedAccessCheck *P : Group.second)
      finishAccesses(*P, Policy);
  }
  return true;
}

} // namespace

PreservedAnalyses AlignGuardPass::run(Module &M, ModuleAnalysisManager &) {
  FailureAction Action = Opts.Action;
  if (Action != FailureAction::Trap && isGPUTarget(M)) {
    warn(M, "target '" + compat::targetTriple(M).str() +
                "' cannot link the AlignGuard runtime; failing checks in "
                "this module trap instead of '" +
                failureActionName(Action) + "'");
    Action = FailureAction::Trap;
  }

  SiteDescriptors Sites(M);
  if (Action != FailureAction::Trap) {
    std::string Clash = checkReportHooks(M, Sites.pointerType());
    if (!Clash.empty()) {
      diagnose(M.getContext(),
               "align-guard: cannot call the AlignGuard runtime: " + Clash,
               DS_Error);
      return PreservedAnalyses::all();
    }
  }
  EntryPoints Entries(M, Opts);
  UnalignedCopies Copies;
  // The functions as they are now: fallback copies are added as we go.
  SmallVector<Function *, 16> Functions;
  for (Function &F : M)
    if (!F.isDeclaration() && !isOptedOut(F))
      Functions.push_back(&F);
  bool Changed = false;
  for (Function *F : Functions) {
    // Collect first; only a function with promises pays for naming them.
    bool IsEntry = Entries.isEntry(*F);
    CollectScope Scope;
    Scope.Accesses = Opts.Accesses;
    std::vector<AlignmentPromise> Found =
        collectAlignmentPromises(*F, IsEntry, Scope);
    if (!Found.empty())
      Changed |= FunctionInstrumenter(*F, Action, Opts.ReturnValue, Sites,
                                      Copies)
                     .run(Found, IsEntry);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace alignguard
