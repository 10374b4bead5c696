//===- AlignGuardPass.cpp - Turn alignment promises into checks ----------===//
//
// See AlignGuardPass.h for the shape of the rewrite. Per function: collect
// the promises (Assumptions.h), then rewrite them one llvm.assume at a time;
// promises made by `align` parameter attributes become a fresh assume placed
// after the entry block's allocas and are rewritten the same way.
//
//===----------------------------------------------------------------------===//
#include "AlignGuardPass.h"

#include "Assumptions.h"
#include "Compat.h"
#include "Diagnostics.h"
#include "EntryPoints.h"
#include "PromiseStripping.h"
#include "RuntimeABI.h"
#include "SubjectNames.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
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
STATISTIC(NumTrivial, "Promises of alignment 1, which need no check");
STATISTIC(NumUnsupported, "Promises left alone, with a warning");
STATISTIC(NumFedPromisesDropped,
          "align attributes dropped below a recovering check");

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
  const AlignmentAssumption *From;
  Value *Pointer;
  std::string Subject;
};

class FunctionInstrumenter {
public:
  FunctionInstrumenter(Function &F, FailureAction Action,
                       SiteDescriptors &Sites)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), Action(Action),
        Sites(Sites), Namer(F), ORE(&F) {}

  /// Rewrites the promises Found in F; returns true when F changed.
  bool run(std::vector<AlignmentAssumption> &Found);

private:
  void reportUnsupported(const AlignmentAssumption &A);
  void remarkTrivial(const AlignmentAssumption &A);
  /// Promises from `align` parameters become one assume before InsertPt
  /// (after the allocas); returns it, or null in recover mode, which keeps
  /// no promise.
  CallInst *materializeParamPromises(ArrayRef<const AlignmentAssumption *>,
                                     ArrayRef<ScalarCheck> Checks,
                                     Instruction *InsertPt);
  /// Emits the check of one pointer before SplitBefore. Funclet is the EH
  /// pad whose funclet SplitBefore is in (Windows EH), or null.
  void emitCheck(const ScalarCheck &C, Instruction *SplitBefore,
                 const DebugLoc &Loc, Instruction *Funclet);
  /// The funclet pad of BB's funclet; null outside funclets. Sets Ambiguous
  /// when BB belongs to several (the pass then leaves its promises alone).
  Instruction *funcletOf(BasicBlock *BB, bool &Ambiguous) const;
  SiteInfo siteFor(const ScalarCheck &C, Value *Alignment, Value *Offset,
                   const DebugLoc &Loc) const;
  /// After the checks: keep the promise, guarded (abort, trap), or drop it
  /// and everything it fed (recover).
  void finishAssume(CallInst *Assume,
                    ArrayRef<const AlignmentAssumption *> Checked,
                    bool FromParams);
  std::vector<ScalarCheck> scalarize(const AlignmentAssumption &A,
                                     Instruction *InsertBefore);
  DebugLoc debugLocFor(const AlignmentAssumption &A) const;

  Function &F;
  Module &M;
  LLVMContext &Ctx;
  FailureAction Action;
  SiteDescriptors &Sites;
  SubjectNamer Namer;
  OptimizationRemarkEmitter ORE;
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

DebugLoc FunctionInstrumenter::debugLocFor(const AlignmentAssumption &A) const {
  if (A.Assume && A.Assume->getDebugLoc())
    return A.Assume->getDebugLoc();
  // A parameter's promise is made where the function begins.
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(Ctx, SP->getLine(), 0, SP);
  return DebugLoc();
}

void FunctionInstrumenter::reportUnsupported(const AlignmentAssumption &A) {
  ++NumUnsupported;
  std::string Subject = A.Pointer ? Namer.describe(A.Pointer) : "a value";
  warn(M, locationPrefix(debugLocFor(A)) + "in function '" + F.getName() +
              "': " + assumptionKindName(A.Kind) + " on " + Subject +
              " left unchecked: " + A.Unsupported);
  if (A.Assume)
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "Unsupported", A.Assume)
             << assumptionKindName(A.Kind) << " left unchecked: "
             << A.Unsupported;
    });
}

void FunctionInstrumenter::remarkTrivial(const AlignmentAssumption &A) {
  ++NumTrivial;
  if (A.Assume)
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "Trivial", A.Assume)
             << "alignment 1 promises nothing; no check needed";
    });
}

std::vector<ScalarCheck>
FunctionInstrumenter::scalarize(const AlignmentAssumption &A,
                                Instruction *InsertBefore) {
  std::string Subject = A.Param ? "argument #" +
                                      std::to_string(A.Param->getArgNo())
                                : Namer.describe(A.Pointer);
  if (A.Param) {
    std::string Name = Namer.argumentName(*A.Param);
    if (!Name.empty())
      Subject += " '" + Name + "'";
  }
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

CallInst *FunctionInstrumenter::materializeParamPromises(
    ArrayRef<const AlignmentAssumption *> Params, ArrayRef<ScalarCheck> Checks,
    Instruction *InsertPt) {
  // The attribute goes: the optimiser would otherwise prove the check false.
  for (const AlignmentAssumption *A : Params)
    F.removeParamAttr(A->Param->getArgNo(), Attribute::Alignment);
  if (Action == FailureAction::Recover)
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

SiteInfo FunctionInstrumenter::siteFor(const ScalarCheck &C, Value *Alignment,
                                       Value *Offset,
                                       const DebugLoc &Loc) const {
  SiteInfo Site;
  Site.Kind = C.From->Kind;
  // Reports are for people: Particle::step(float), not _ZN8Particle4stepEf
  // (demangle returns a name that is not mangled unchanged).
  Site.Function = llvm::demangle(F.getName().str());
  Site.Subject = C.Subject;
  if (Loc) {
    Site.File = Loc->getFilename().str();
    Site.Line = Loc.getLine();
    Site.Column = Loc.getCol();
  }
  if (auto *CA = dyn_cast<ConstantInt>(Alignment))
    Site.Alignment = CA->getValue().getLimitedValue();
  if (auto *CO = dyn_cast_or_null<ConstantInt>(Offset))
    Site.Offset = CO->getValue().sextOrTrunc(64).getSExtValue();
  return Site;
}

void FunctionInstrumenter::emitCheck(const ScalarCheck &C,
                                     Instruction *SplitBefore,
                                     const DebugLoc &Loc,
                                     Instruction *Funclet) {
  const AlignmentAssumption &A = *C.From;
  IRBuilder<> B(SplitBefore);
  B.SetCurrentDebugLocation(Loc);

  // All arithmetic in one integer type wide enough for the pointer's low
  // 64 bits, the alignment and the offset (an i128 alignment stays exact).
  unsigned Width = std::max<unsigned>(
      {64, A.Alignment->getType()->getIntegerBitWidth(),
       A.Offset ? A.Offset->getType()->getIntegerBitWidth() : 0});
  Type *I64 = B.getInt64Ty();
  Type *IntTy = B.getIntNTy(Width);
  Value *PtrBits = B.CreatePtrToInt(C.Pointer, I64, "ag.ptr");
  Value *Ptr = B.CreateZExtOrTrunc(PtrBits, IntTy);
  Value *Addr = Ptr;
  Value *Offset = nullptr;
  if (A.Offset) {
    Offset = B.CreateSExtOrTrunc(A.Offset, IntTy);
    Addr = B.CreateSub(Ptr, Offset, "ag.addr");
  }
  Value *Zero = ConstantInt::get(IntTy, 0);
  Value *Alignment = B.CreateZExtOrTrunc(A.Alignment, IntTy);

  // LangRef: a non-power-of-two (or zero) alignment promises a null pointer.
  Value *Bad;
  if (auto *CA = dyn_cast<ConstantInt>(Alignment)) {
    if (CA->getValue().isPowerOf2())
      Bad = B.CreateICmpNE(
          B.CreateAnd(Addr, ConstantInt::get(IntTy, CA->getValue() - 1)), Zero,
          "ag.misaligned");
    else
      Bad = B.CreateICmpNE(Ptr, Zero, "ag.nonnull");
  } else {
    // One statement per instruction: argument evaluation order is
    // unspecified, and the emitted order should not depend on the compiler.
    Value *Mask = B.CreateSub(Alignment, ConstantInt::get(IntTy, 1));
    Value *NonZero = B.CreateICmpNE(Alignment, Zero);
    Value *OneBit = B.CreateICmpEQ(B.CreateAnd(Alignment, Mask), Zero);
    Value *IsPow2 = B.CreateAnd(NonZero, OneBit, "ag.pow2");
    Value *Misaligned = B.CreateICmpNE(B.CreateAnd(Addr, Mask), Zero);
    Value *NonNull = B.CreateICmpNE(Ptr, Zero);
    Bad = B.CreateSelect(IsPow2, Misaligned, NonNull, "ag.bad");
  }

  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, (1u << 20) - 1);
  bool Continues = Action == FailureAction::Recover;
  Instruction *Fail =
      SplitBlockAndInsertIfThen(Bad, SplitBefore, !Continues, Unlikely);
  Fail->getParent()->getSinglePredecessor()->getTerminator()->setDebugLoc(Loc);
  Fail->getParent()->setName("alignguard.fail");
  SplitBefore->getParent()->setName("alignguard.ok");

  IRBuilder<> FB(Fail);
  FB.SetCurrentDebugLocation(Loc);
  SmallVector<OperandBundleDef, 1> Bundles;
  if (Funclet)
    Bundles.emplace_back("funclet", Funclet);
  if (Action == FailureAction::Trap) {
    compat::createTrap(FB, Bundles);
  } else {
    Constant *Site = Sites.create(siteFor(C, A.Alignment, A.Offset, Loc));
    FunctionCallee Hook =
        getReportHook(M, /*Abort=*/!Continues, Sites.pointerType());
    CallInst *Call = FB.CreateCall(
        Hook,
        {Site, PtrBits, FB.CreateTrunc(Alignment, I64),
         Offset ? FB.CreateTrunc(Offset, I64) : FB.getInt64(0)},
        Bundles);
    if (!Continues)
      Call->setDoesNotReturn();
  }
  ++NumChecks;
  switch (A.Kind) {
  case AssumptionKind::AssumeBundle:
    ++NumBundleChecks;
    break;
  case AssumptionKind::AssumeICmp:
    ++NumICmpChecks;
    break;
  case AssumptionKind::ParamAttr:
    ++NumParamChecks;
    break;
  case AssumptionKind::ReturnAttr:
  case AssumptionKind::Access:
    llvm_unreachable("align-guard does not collect these kinds");
  }
}

void FunctionInstrumenter::finishAssume(
    CallInst *Assume, ArrayRef<const AlignmentAssumption *> Checked,
    bool FromParams) {
  if (Action != FailureAction::Recover) {
    assert(Assume && "abort and trap keep every promise in an assume");
    // The audit reads where the promise came from (see GuardedMDName).
    SmallVector<Metadata *, 1> Origin;
    if (FromParams)
      Origin.push_back(
          MDString::get(Ctx, assumptionKindName(AssumptionKind::ParamAttr)));
    Assume->setMetadata(GuardedMDName, MDNode::get(Ctx, Origin));
    return;
  }
  // Recover: the promise may be false from here on. Drop the bundles that
  // were checked (and the legacy condition), then what those pointers fed.
  SmallVector<unsigned, 4> DropBundles;
  bool DropCondition = false;
  for (const AlignmentAssumption *A : Checked) {
    if (A->Kind == AssumptionKind::AssumeBundle)
      DropBundles.push_back(A->BundleIndex);
    else if (A->Kind == AssumptionKind::AssumeICmp)
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

bool FunctionInstrumenter::run(std::vector<AlignmentAssumption> &Found) {
  // A naked function's body is its prologue: nothing may be inserted.
  if (F.hasFnAttribute(Attribute::Naked))
    for (AlignmentAssumption &A : Found)
      A.Unsupported = "the function is naked; no check can be inserted";
  if (F.hasPersonalityFn() &&
      isFuncletEHPersonality(classifyEHPersonality(F.getPersonalityFn())))
    FuncletColors = colorEHFunclets(F);
  // Funclets are known for the blocks as they are before any split.
  DenseMap<CallInst *, Instruction *> FuncletOfAssume;
  for (AlignmentAssumption &A : Found) {
    bool Ambiguous = false;
    if (A.Assume && A.isSupported())
      FuncletOfAssume[A.Assume] = funcletOf(A.Assume->getParent(), Ambiguous);
    if (Ambiguous)
      A.Unsupported = "the assume is in a block shared by several EH "
                      "funclets; a call there has no single funclet";
  }

  // Group the checkable promises by the assume that makes them; parameter
  // promises (no assume yet) go under nullptr.
  MapVector<CallInst *, SmallVector<const AlignmentAssumption *, 4>> Groups;
  for (const AlignmentAssumption &A : Found) {
    if (!A.isSupported())
      reportUnsupported(A);
    else if (A.isTrivial())
      remarkTrivial(A);
    else
      Groups[A.Assume].push_back(&A);
  }
  if (Groups.empty())
    return false;

  for (auto &Group : Groups) {
    CallInst *Assume = Group.first;
    bool FromParams = !Assume;
    ArrayRef<const AlignmentAssumption *> Promises = Group.second;
    Instruction *SplitBefore = Assume ? Assume : entryInsertionPoint(F);
    keepEntryOnlyInstructions(SplitBefore);
    // Parameter checks are in the entry block, which is in no funclet.
    Instruction *Funclet = Assume ? FuncletOfAssume.lookup(Assume) : nullptr;
    std::vector<ScalarCheck> Checks;
    for (const AlignmentAssumption *A : Promises) {
      std::vector<ScalarCheck> Lanes = scalarize(*A, SplitBefore);
      Checks.insert(Checks.end(), Lanes.begin(), Lanes.end());
    }
    if (!Assume &&
        (Assume = materializeParamPromises(Promises, Checks, SplitBefore)))
      SplitBefore = Assume;
    for (const ScalarCheck &C : Checks)
      emitCheck(C, SplitBefore, debugLocFor(*C.From), Funclet);
    for (const AlignmentAssumption *A : Promises)
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Guarded", SplitBefore)
               << assumptionKindName(A->Kind) << " on "
               << (A->Param ? "argument #" + std::to_string(
                                                 A->Param->getArgNo())
                            : Namer.describe(A->Pointer))
               << " checked (" << failureActionName(Action) << ")";
      });
    finishAssume(Assume, Promises, FromParams);
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
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || isOptedOut(F))
      continue;
    // Collect first; only a function with promises pays for naming them.
    std::vector<AlignmentAssumption> Found =
        collectAlignmentAssumptions(F, Entries.isEntry(F));
    if (!Found.empty())
      Changed |= FunctionInstrumenter(F, Action, Sites).run(Found);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace alignguard
