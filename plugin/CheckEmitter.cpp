//===- CheckEmitter.cpp - Carry out a CheckPlan --------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "CheckEmitter.h"

#include "CheckPlanner.h"
#include "Compat.h"
#include "DeferredChecks.h"
#include "IRShapes.h"
#include "KeptPromises.h"
#include "PromiseStripping.h"
#include "ReturnContract.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <numeric>

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumChecks, "Alignment checks inserted");
STATISTIC(NumBundleChecks, "Checks of \"align\" assume bundles");
STATISTIC(NumICmpChecks, "Checks of legacy icmp alignment assumes");
STATISTIC(NumParamChecks, "Checks of align parameter attributes");
STATISTIC(NumReturnChecks, "Checks of pointers returned with a promise");
STATISTIC(NumLoadChecks, "Checks of pointers loaded with !align (loads)");
STATISTIC(NumAccessChecks, "Checks of over-aligned accesses (accesses)");
STATISTIC(NumFedPromisesDropped,
          "align attributes dropped below a recovering check");
STATISTIC(NumEarlyReturns, "Failing checks that return (return=N, fallback)");

namespace alignguard {
namespace {

/// An IRBuilder whose every instruction is marked.
struct CheckBuilder : IRBuilder<ConstantFolder, IRBuilderCallbackInserter> {
  explicit CheckBuilder(Instruction *At)
      : IRBuilder(
            At->getContext(), ConstantFolder(),
            IRBuilderCallbackInserter(NoSanitizeMarker(At->getContext()))) {
    SetInsertPoint(At);
  }
};

/// One scalar pointer to test at a site, and the promise it answers for.
struct ScalarCheck {
  const AlignmentPromise *From;
  /// Its alignment is From's, or the one the plan raised it to.
  PlaceCheck Check;
};

/// One scalar check's values, computed before the branch.
struct PreparedCheck {
  const PlaceCheck *C;
  DebugLoc Loc;
  Value *PtrBits;       ///< ptrtoint, i64: what the runtime prints
  Value *Addr;          ///< the pointer minus the offset, in the check's type
  Value *Alignment;     ///< in the check's type
  Value *Offset;        ///< in the check's type, or null
  Value *Bad;           ///< i1: this check fails (null when tested by mask)
  bool HasMask = false; ///< the alignment is a constant power of two
  APInt Mask;           ///< then, the alignment - 1
  Value *Guard;         ///< then, the i1 that must also hold to fail, or null
};

/// What a failure hook is called with: the site descriptor (one check's)
/// or the place's table, and Rest: for a one-check hook the pointer's bits,
/// the alignment and offset (i64), for a table hook the place's pointers
/// and their count (hookArguments puts them in the hook's order). Site is
/// null under trap and for a rerun.
struct FailureCall {
  HookShape Shape;
  Value *Site;
  SmallVector<Value *, MaxTableChecks + 1> Rest;
  DebugLoc Loc;
};

/// Makes one place's branch and failing side (emitPlaceChecks).
class PlaceEmitter {
public:
  PlaceEmitter(const FailurePolicy &Policy, Instruction *At, Function *Copy)
      : Policy(Policy), At(At), F(*At->getFunction()), Ctx(F.getContext()),
        Copy(Copy) {}

  void run(ArrayRef<PlaceCheck> Checks);

private:
  PreparedCheck prepare(CheckBuilder &B, const PlaceCheck &C);
  Value *anyFails(CheckBuilder &B, std::vector<PreparedCheck> &Prepared);
  /// The hook's arguments for P, made at FB (on the cold side).
  FailureCall failureCall(CheckBuilder &FB, const PreparedCheck &P);
  /// Under a terminal action: the arguments of the first of Prepared that
  /// fails, chosen by select, so that one call reports it.
  FailureCall firstFailure(CheckBuilder &FB, ArrayRef<PreparedCheck> Prepared);
  /// Under a terminal action, when Prepared's descriptors are one table's
  /// elements in order and each is tested by the mask and offset its
  /// element names: one call of the table hook, which finds the failing
  /// pointer itself (none of firstFailure's selects on the cold side).
  std::optional<FailureCall> tableFailure(CheckBuilder &FB,
                                          ArrayRef<PreparedCheck> Prepared);
  void emitFailure(Instruction *Term, const FailureCall &Call);

  const FailurePolicy &Policy;
  Instruction *At;
  Function &F;
  LLVMContext &Ctx;
  /// What a fallback or rerun side calls.
  Function *Copy;
};

/// Carries out a plan: each site's values, then its branch (or marker),
/// then what becomes of its promises.
class Emitter {
public:
  Emitter(const CheckPlan &Plan, SiteDescriptors &Sites,
          UnalignedCopies &Copies, LazyScalarEvolution &SE, bool Deferred,
          Function *RecoverCopy, CopyEmission *AsCopy)
      : Plan(Plan), F(*Plan.F), Sites(Sites), Copies(Copies), SE(SE),
        Deferred(Deferred), RecoverCopy(RecoverCopy), AsCopy(AsCopy),
        Private(AsCopy ? AsCopy->Private : PrivateCallee()) {}

  void run();

private:
  /// A site's values, made before any block is split.
  struct Materialized {
    std::vector<ScalarCheck> Checks;
    Instruction *SplitBefore;
    /// The assume a parameter or return site's promises moved into
    /// (materializeAttributePromises), or null; an assume site's promises
    /// stay in their own assumes.
    CallInst *Assume;
  };
  Materialized materialize(const CheckSite &S);
  /// Where S's checks go: before S.InsertBefore, or, at an assume site that
  /// took in the promises of earlier assumes (the planner's assumePlace),
  /// before those assumes, moved down to just before it: no promise comes
  /// before its check.
  Instruction *bringAssumesDown(const CheckSite &S);
  /// What C's report names (the subject; the alignment when the plan
  /// raised it).
  SiteInfo siteInfo(const PlannedCheck &C, const std::string &Subject,
                    Value *Alignment) const;
  /// The descriptors of M's checks, from Infos (none under trap: it says
  /// nothing): one table for a place a table hook can report
  /// (PlaceEmitter::tableFailure), else one each.
  void makeDescriptors(const CheckSite &S, Materialized &M,
                       ArrayRef<SiteInfo> Infos);
  /// Moves the promises of a parameter or return site from their
  /// attributes into an assume at the site (none under recover), or, for
  /// the parameters of a deferred site that nothing can inline, leaves them
  /// to the expansion (keepsParamAttributes).
  CallInst *materializeAttributePromises(const CheckSite &S,
                                         ArrayRef<ScalarCheck> Checks);
  bool keepsParamAttributes(const CheckSite &S) const;
  void emitSite(const CheckSite &S, const Materialized &M);
  void finishPromises(const CheckSite &S, CallInst *Assume);
  /// Keeps Promises, all made by Assume, guarded (terminal actions) or
  /// drops them (recover).
  void finishAssume(const CheckSite &S, CallInst *Assume,
                    ArrayRef<const AlignmentPromise *> Promises);
  void finishAccess(const AlignmentPromise &A, const CheckSite &By);

  const CheckPlan &Plan;
  Function &F;
  SiteDescriptors &Sites;
  UnalignedCopies &Copies;
  LazyScalarEvolution &SE;
  bool Deferred;
  /// What rerun sites call (FailurePolicy::Rerun).
  Function *RecoverCopy;
  /// Set when F is a recover copy (or a callee clone of one).
  CopyEmission *AsCopy;
  /// Where dropped promises may be dropped in callees (PromiseStripping.h).
  PrivateCallee Private;
};

/// Removes the attribute or metadata that makes A (a parameter's, a call's
/// return or a load's promise): the optimiser would otherwise prove A's
/// check false. A callee's own return promise moved to its calls before
/// planning (prepareReturnPromises).
void removePromiseAttribute(const AlignmentPromise &A) {
  if (A.Kind == PromiseKind::ParamAttr) {
    A.F->removeParamAttr(A.Param->getArgNo(), Attribute::Alignment);
    return;
  }
  if (A.Kind == PromiseKind::LoadMetadata) {
    A.Inst->setMetadata(LLVMContext::MD_align, nullptr);
    return;
  }
  auto *CB = cast<CallBase>(A.Inst);
  if (A.FromAllocAlign)
    CB->setAttributes(compat::withoutAllocAlign(
        CB->getContext(), CB->getAttributes(), CB->arg_size()));
  else
    CB->removeRetAttr(Attribute::Alignment);
}

/// A deferred entry site of a function nothing calls keeps its parameters'
/// `align` until the expansion removes it: until then nothing but the marker
/// reads the pointers before the check, and the optimiser reads the
/// attribute for free where an assume costs it (AlignmentFromAssumptions,
/// assume queries in InstCombine). A function with a caller here could be
/// inlined first, and the inliner drops parameter attributes: there the
/// promise goes into an assume, as without deferral.
bool Emitter::keepsParamAttributes(const CheckSite &S) const {
  return Deferred && S.Kind == SiteKind::EntryParams && S.Policy.isTerminal() &&
         canDefer(S.Policy) && F.use_empty() &&
         S.InsertBefore->getParent() == &F.getEntryBlock() &&
         all_of(S.Promises, [](const AlignmentPromise *A) {
           return A->Kind == PromiseKind::ParamAttr;
         });
}

CallInst *Emitter::materializeAttributePromises(const CheckSite &S,
                                                ArrayRef<ScalarCheck> Checks) {
  if (keepsParamAttributes(S))
    return nullptr;
  for (const AlignmentPromise *A : S.Promises)
    removePromiseAttribute(*A);
  if (!S.Policy.isTerminal() || S.Promises.empty())
    return nullptr; // recover keeps no promise; a hoisted load keeps its own
  // The promise itself, not instrumentation: no !nosanitize.
  IRBuilder<> B(S.InsertBefore);
  SmallVector<OperandBundleDef, 4> Bundles;
  // One bundle per scalar check: a bundle on a vector of pointers is not
  // valid IR, so a vector parameter's promise is kept lane by lane.
  for (const ScalarCheck &C : Checks)
    if (is_contained(S.Promises, C.From))
      Bundles.emplace_back(
          AlignBundleTag,
          std::vector<Value *>{C.Check.Pointer, C.From->Alignment});
  CallInst *Assume = B.CreateAssumption(B.getTrue(), Bundles);
  Assume->setDebugLoc(promiseDebugLoc(*S.Promises.front()));
  return Assume;
}

Emitter::Materialized Emitter::materialize(const CheckSite &S) {
  Materialized M{{}, bringAssumesDown(S), nullptr};
  CheckBuilder B(M.SplitBefore);
  // Made for the first address that is not a value yet (hoisted checks).
  std::unique_ptr<SCEVExpander> Expander;
  auto Expand = [&](const SCEV *S, Type *Ty) {
    if (!Expander)
      Expander = compat::makeSCEVExpander(
          SE.get(), F.getParent()->getDataLayout(), "ag.first");
    return Expander->expandCodeFor(S, Ty, M.SplitBefore);
  };
  std::vector<SiteInfo> Infos; // one per check of M
  for (const PlannedCheck &C : S.Checks) {
    std::string Subject = Plan.describe(C.Promise).Subject;
    Value *Ptr = C.Pointer;
    if (C.Reload) {
      // The same pointer, loaded again before the loop, without the promise
      // (or the optimiser would fold the check with it).
      Instruction *Again = C.Reload->clone();
      Again->setMetadata(LLVMContext::MD_align, nullptr);
      Ptr = B.Insert(Again, "ag.reload");
    }
    if (C.Address)
      Ptr = Expand(C.Address, C.Promise->Pointer->getType());
    Value *Guard = nullptr;
    for (const LoopGuard &G : C.Guards) {
      Value *LHS = Expand(G.LHS, G.LHS->getType());
      Value *RHS = Expand(G.RHS, G.RHS->getType());
      Value *Runs = B.CreateICmp(G.Pred, LHS, RHS, "ag.loop.runs");
      Guard = Guard ? B.CreateAnd(Guard, Runs) : Runs;
    }
    Value *Alignment = C.RaisedAlignment
                           ? ConstantInt::get(C.Promise->Alignment->getType(),
                                              C.RaisedAlignment)
                           : C.Promise->Alignment;
    auto Add = [&](Value *Scalar, const std::string &Name) {
      PlaceCheck PC{Scalar,
                    Alignment,
                    C.Promise->Offset,
                    Guard,
                    /*Site=*/nullptr, // makeDescriptors
                    promiseDebugLoc(*C.Promise)};
      M.Checks.push_back({C.Promise, PC});
      Infos.push_back(siteInfo(C, Name, Alignment));
    };
    auto *VT = dyn_cast<FixedVectorType>(Ptr->getType());
    if (!VT) {
      Add(Ptr, Subject);
      continue;
    }
    // LangRef: `align` on a vector of pointers holds for every element.
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
      Add(B.CreateExtractElement(Ptr, B.getInt64(I)),
          Subject + " element " + std::to_string(I));
  }
  makeDescriptors(S, M, Infos);
  if ((S.Kind == SiteKind::EntryParams || S.Kind == SiteKind::Result) &&
      (M.Assume = materializeAttributePromises(S, M.Checks)))
    M.SplitBefore = M.Assume;
  return M;
}

Instruction *Emitter::bringAssumesDown(const CheckSite &S) {
  if (S.Kind != SiteKind::Assume || !S.Assume)
    return S.InsertBefore;
  SmallVector<CallInst *, 4> Earlier;
  for (const AlignmentPromise *A : S.Promises)
    if (A->Assume != S.InsertBefore && !is_contained(Earlier, A->Assume))
      Earlier.push_back(A->Assume);
  llvm::sort(Earlier,
             [](CallInst *L, CallInst *R) { return L->comesBefore(R); });
  for (CallInst *Assume : Earlier)
    Assume->moveBefore(*S.InsertBefore->getParent(),
                       S.InsertBefore->getIterator());
  return Earlier.empty() ? S.InsertBefore : Earlier.front();
}

SiteInfo Emitter::siteInfo(const PlannedCheck &C, const std::string &Subject,
                           Value *Alignment) const {
  SiteInfo Site = SiteInfo::from(Plan.describe(C.Promise));
  Site.Subject = Subject;
  if (Alignment != C.Promise->Alignment) // raised by the plan
    Site.Alignment = cast<ConstantInt>(Alignment)->getZExtValue();
  return Site;
}

/// True when a table hook may report Checks under Policy: a terminal
/// action that reports (not trap, not a rerun), 2 to MaxTableChecks
/// checks, each by a constant power-of-two alignment of at most 64 bits,
/// unguarded, at a constant offset. (PlaceEmitter::tableFailure tests the
/// same of the values it is given; a table it turns down is reported
/// through its elements, by the one-check hook.)
static bool reportsByTable(const FailurePolicy &Policy,
                           ArrayRef<ScalarCheck> Checks) {
  if (!Policy.isTerminal() || Policy.Action == FailureAction::Trap ||
      Policy.Rerun || Checks.size() < 2 || Checks.size() > MaxTableChecks)
    return false;
  return all_of(Checks, [](const ScalarCheck &C) {
    // In 64 bits, as the check itself (PlaceEmitter::prepare).
    auto *Alignment = dyn_cast<ConstantInt>(C.Check.Alignment);
    auto *Offset = dyn_cast_or_null<ConstantInt>(C.Check.Offset);
    return Alignment && Alignment->getBitWidth() <= 64 &&
           Alignment->getValue().isPowerOf2() &&
           Alignment->getValue().getActiveBits() <= 63 && !C.Check.Guard &&
           (!C.Check.Offset || (Offset && Offset->getBitWidth() <= 64));
  });
}

void Emitter::makeDescriptors(const CheckSite &S, Materialized &M,
                              ArrayRef<SiteInfo> Infos) {
  if (S.Policy.Action == FailureAction::Trap)
    return;
  // A recover copy takes its original's descriptors one by one (Reuse).
  if (!AsCopy && reportsByTable(S.Policy, M.Checks)) {
    // The hook takes the pointers first (hookArguments): the function's
    // own arguments in their order, so that each is passed on in the
    // register it arrived in when they lead the parameter list (a kernel's
    // buffers); the rest after them, as planned. Stable: the same module
    // gives the same table.
    auto ArgNo = [](const ScalarCheck &C) {
      auto *A = dyn_cast<Argument>(C.Check.Pointer->stripPointerCasts());
      return A ? A->getArgNo() : ~0u;
    };
    SmallVector<unsigned, MaxTableChecks> Order(M.Checks.size());
    std::iota(Order.begin(), Order.end(), 0u);
    std::stable_sort(Order.begin(), Order.end(), [&](unsigned L, unsigned R) {
      return ArgNo(M.Checks[L]) < ArgNo(M.Checks[R]);
    });
    std::vector<ScalarCheck> Checks;
    std::vector<SiteInfo> Ordered;
    for (unsigned I : Order) {
      Checks.push_back(M.Checks[I]);
      Ordered.push_back(Infos[I]);
    }
    M.Checks = std::move(Checks);
    // The k-th check names the table and its k-th element: a pointer to
    // the element is made only where a one-check hook takes it
    // (PlaceEmitter::descriptorOf); a marker's operands name the table for
    // each check (emitDeferredPlace).
    GlobalVariable *Table = Sites.createTable(Ordered);
    for (size_t I = 0; I != M.Checks.size(); ++I) {
      M.Checks[I].Check.Site = Table;
      M.Checks[I].Check.Element = static_cast<unsigned>(I);
    }
    return;
  }
  for (size_t I = 0; I != M.Checks.size(); ++I)
    M.Checks[I].Check.Site =
        Sites.create(Infos[I], AsCopy ? &AsCopy->Descriptors : nullptr);
}

PreparedCheck PlaceEmitter::prepare(CheckBuilder &B, const PlaceCheck &C) {
  PreparedCheck P;
  P.C = &C;
  P.Loc = C.Loc;
  B.SetCurrentDebugLocation(P.Loc);
  // All arithmetic in one integer type wide enough for the pointer's low
  // 64 bits, the alignment and the offset (an i128 alignment stays exact).
  unsigned Width = std::max<unsigned>(
      {64, C.Alignment->getType()->getIntegerBitWidth(),
       C.Offset ? C.Offset->getType()->getIntegerBitWidth() : 0});
  Type *IntTy = B.getIntNTy(Width);
  P.PtrBits = B.CreatePtrToInt(C.Pointer, B.getInt64Ty(), "ag.ptr");
  Value *Ptr = B.CreateZExtOrTrunc(P.PtrBits, IntTy);
  P.Addr = Ptr;
  P.Offset = nullptr;
  if (C.Offset) {
    P.Offset = B.CreateSExtOrTrunc(C.Offset, IntTy);
    P.Addr = B.CreateSub(Ptr, P.Offset, "ag.addr");
  }
  Value *Zero = ConstantInt::get(IntTy, 0);
  P.Alignment = B.CreateZExtOrTrunc(C.Alignment, IntTy);
  // LangRef: a non-power-of-two (or zero) alignment promises a null pointer.
  P.Guard = nullptr;
  if (auto *CA = dyn_cast<ConstantInt>(P.Alignment)) {
    if (CA->getValue().isPowerOf2()) {
      P.Mask = CA->getValue() - 1;
      P.HasMask = true;
      P.Guard = C.Guard;
      P.Bad = nullptr; // tested with the others of its mask, see anyFails
    } else {
      P.Bad = B.CreateICmpNE(Ptr, Zero, "ag.nonnull");
    }
    return P;
  }
  // One statement per instruction: argument evaluation order is
  // unspecified, and the emitted order should not depend on the compiler.
  Value *Mask = B.CreateSub(P.Alignment, ConstantInt::get(IntTy, 1));
  Value *NonZero = B.CreateICmpNE(P.Alignment, Zero);
  Value *OneBit = B.CreateICmpEQ(B.CreateAnd(P.Alignment, Mask), Zero);
  Value *IsPow2 = B.CreateAnd(NonZero, OneBit, "ag.pow2");
  Value *Misaligned = B.CreateICmpNE(B.CreateAnd(P.Addr, Mask), Zero);
  Value *NonNull = B.CreateICmpNE(Ptr, Zero);
  P.Bad = B.CreateSelect(IsPow2, Misaligned, NonNull, "ag.bad");
  return P;
}

/// One condition for the place, one test where it can be: checks with the
/// same power-of-two mask and guard OR their addresses, ((p1 | p2 | ...) &
/// mask), a guarded group's mask being `guard ? mask : 0`; the groups' terms
/// of one type are OR-ed and compared with 0 once; other checks are OR-ed
/// in. The code generator splits a branch on an `or` of conditions into
/// one branch each, so OR-ing the integers keeps the place at one branch
/// (the optimiser does not run after a deferred place is expanded).
/// Each `or` takes the new address first and the running value second:
/// x86's selector then ORs each address into the running value's register
/// (`mov a; or b; or c`), where the other order copies every address that
/// stays live (`mov a; or b; mov c; or`), one instruction more per pointer
/// after the second (LLVM 14 and 22 alike; InstCombine, which would
/// reorder them, does not run after a deferred place is expanded).
Value *PlaceEmitter::anyFails(CheckBuilder &B,
                              std::vector<PreparedCheck> &Prepared) {
  Value *Bad = nullptr;
  auto Or = [&](Value *Cond) { Bad = Bad ? B.CreateOr(Bad, Cond) : Cond; };
  SmallVector<std::pair<Type *, Value *>, 1> Terms; // per type, in order
  std::vector<bool> Done(Prepared.size(), false);
  for (size_t I = 0; I != Prepared.size(); ++I) {
    if (Done[I])
      continue;
    PreparedCheck &P = Prepared[I];
    if (!P.HasMask) {
      Or(P.Bad);
      continue;
    }
    Type *Ty = P.Addr->getType();
    Value *Bits = P.Addr;
    for (size_t J = I + 1; J != Prepared.size(); ++J)
      if (!Done[J] && Prepared[J].HasMask &&
          Prepared[J].Addr->getType() == Ty && Prepared[J].Mask == P.Mask &&
          Prepared[J].Guard == P.Guard) {
        Bits = B.CreateOr(Prepared[J].Addr, Bits, "ag.any");
        Done[J] = true;
      }
    Value *Mask = ConstantInt::get(Ty, P.Mask);
    if (P.Guard)
      Mask = B.CreateSelect(P.Guard, Mask, ConstantInt::get(Ty, 0),
                            "ag.guarded.mask");
    Value *Term = B.CreateAnd(Bits, Mask);
    auto *Same = find_if(Terms, [&](auto &T) { return T.first == Ty; });
    if (Same == Terms.end())
      Terms.push_back({Ty, Term});
    else
      Same->second = B.CreateOr(Same->second, Term, "ag.terms");
  }
  for (auto &[Ty, Term] : Terms)
    Or(B.CreateICmpNE(Term, ConstantInt::get(Ty, 0), "ag.misaligned"));
  return Bad;
}

/// P's own test, on the cold side (anyFails may have merged it with
/// others of its mask).
Value *failsAlone(CheckBuilder &B, const PreparedCheck &P) {
  if (!P.HasMask)
    return P.Bad;
  Type *Ty = P.Addr->getType();
  Value *Misaligned =
      B.CreateICmpNE(B.CreateAnd(P.Addr, ConstantInt::get(Ty, P.Mask)),
                     ConstantInt::get(Ty, 0));
  return P.Guard ? B.CreateAnd(Misaligned, P.Guard) : Misaligned;
}

/// C's own descriptor, as the one-check hooks take it.
static Value *descriptorOf(const PlaceCheck &C) {
  if (GlobalVariable *Table = siteTable(C.Site))
    return tableElementPointer(*Table, C.Element);
  return C.Site;
}

FailureCall PlaceEmitter::failureCall(CheckBuilder &FB,
                                      const PreparedCheck &P) {
  FB.SetCurrentDebugLocation(P.Loc);
  Type *I64 = FB.getInt64Ty();
  return {HookShape::OneCheck,
          descriptorOf(*P.C),
          {P.PtrBits, FB.CreateTrunc(P.Alignment, I64),
           P.Offset ? FB.CreateTrunc(P.Offset, I64) : FB.getInt64(0)},
          P.Loc};
}

std::optional<FailureCall>
PlaceEmitter::tableFailure(CheckBuilder &FB, ArrayRef<PreparedCheck> Prepared) {
  if (Prepared.size() < 2 || Prepared.size() > MaxTableChecks)
    return std::nullopt;
  GlobalVariable *Table = siteTable(Prepared.front().C->Site);
  if (!Table || tableSize(*Table) != Prepared.size())
    return std::nullopt;
  for (size_t I = 0; I != Prepared.size(); ++I) {
    const PreparedCheck &P = Prepared[I];
    std::optional<TableElement> E;
    if (P.C->Site == Table && P.C->Element == I)
      E = tableElement(*Table, static_cast<unsigned>(I));
    if (!E)
      return std::nullopt;
    // The runtime tests (address - offset) & (alignment - 1) in 64 bits,
    // with the element's alignment and offset: exactly this check.
    auto *Offset = dyn_cast_or_null<ConstantInt>(P.Offset);
    if (!P.HasMask || P.Guard || !P.Addr->getType()->isIntegerTy(64) ||
        (P.Offset && !Offset) || P.Mask.getActiveBits() > 63 ||
        E->Alignment != P.Mask.getZExtValue() + 1 ||
        E->Offset != (Offset ? Offset->getSExtValue() : 0))
      return std::nullopt;
  }
  // The table hook takes the first element, as a descriptor pointer.
  FailureCall Call{HookShape::Table,
                   tableElementPointer(*Table, 0),
                   {},
                   Prepared.front().Loc};
  for (size_t I = 0; I != MaxTableChecks; ++I)
    Call.Rest.push_back(I < Prepared.size() ? Prepared[I].PtrBits
                                            : FB.getInt64(0));
  Call.Rest.push_back(FB.getInt64(Prepared.size()));
  return Call;
}

FailureCall PlaceEmitter::firstFailure(CheckBuilder &FB,
                                       ArrayRef<PreparedCheck> Prepared) {
  std::vector<FailureCall> Calls;
  for (const PreparedCheck &P : Prepared)
    Calls.push_back(failureCall(FB, P));
  // The last one fails if none before it does (the branch said one does).
  FailureCall Chosen = Calls.back(); // Rest: pointer, alignment, offset
  FB.SetCurrentDebugLocation(Prepared.front().Loc);
  for (size_t I = Prepared.size() - 1; I-- > 0;) {
    Value *Fails = failsAlone(FB, Prepared[I]);
    // No select between equal values (the same alignment, offset 0).
    auto Pick = [&](Value *Mine, Value *Later) {
      return Mine == Later ? Mine : FB.CreateSelect(Fails, Mine, Later);
    };
    Chosen.Site = Pick(Calls[I].Site, Chosen.Site);
    for (size_t A = 0; A != Chosen.Rest.size(); ++A)
      Chosen.Rest[A] = Pick(Calls[I].Rest[A], Chosen.Rest[A]);
  }
  Chosen.Loc = Prepared.front().Loc;
  return Chosen;
}

void PlaceEmitter::emitFailure(Instruction *Term, const FailureCall &FC) {
  CheckBuilder FB(Term);
  FB.SetCurrentDebugLocation(FC.Loc);
  SmallVector<OperandBundleDef, 1> Bundles;
  if (Policy.Funclet)
    Bundles.emplace_back("funclet", Policy.Funclet);
  if (Policy.Action == FailureAction::Trap) {
    markNoSanitize(compat::createTrap(FB, Bundles));
    return;
  }
  // A rerun reports nothing here: the recover copy's own checks do.
  if (!Policy.Rerun) {
    HookKind Kind = Policy.Action == FailureAction::Abort ? HookKind::Abort
                    : Policy.Action == FailureAction::Fallback
                        ? HookKind::Fallback
                        : HookKind::Report;
    SmallVector<Value *, 6> Args = hookArguments(FC.Shape, FC.Site, FC.Rest);
    CallInst *Call = FB.CreateCall(
        getHook(*F.getParent(), Kind, FC.Site->getType(), FC.Shape), Args,
        Bundles);
    if (Kind == HookKind::Abort)
      Call->setDoesNotReturn();
  }

  Value *Result = nullptr;
  if (Policy.Action == FailureAction::Return) {
    Result = ConstantInt::get(F.getReturnType(), Policy.ReturnValue,
                              /*IsSigned=*/true);
    admitReturnValue(F, *cast<ConstantInt>(Result)); // callers may now see N
  } else if (Policy.Action == FailureAction::Fallback || Policy.Rerun) {
    // The same call, to the copy that makes no promise (fallback) or that
    // checks them in plain recover (rerun).
    SmallVector<Value *, 8> Args;
    for (Argument &Arg : F.args())
      Args.push_back(&Arg);
    assert(Copy && "fallback and rerun sites are given their copy");
    CallInst *Slow = FB.CreateCall(Copy, Args);
    Slow->setAttributes(F.getAttributes());
    // The copy's own: one an earlier run made may have become fastcc since.
    Slow->setCallingConv(Copy->getCallingConv());
    Slow->addFnAttr(Attribute::NoInline); // keep the entry point small
    // Nothing on the cold side but the jump to the copy. Not `musttail`:
    // the interprocedural passes may then drop the arguments the copy does
    // not use, which the aligned path would otherwise keep live until the
    // check; where they fold a constant result into the `ret`,
    // align-guard-cold-exits makes the call a thunk's (ColdExitPass.h).
    if (Policy.Rerun && none_of(F.args(), [](const Argument &Arg) {
          return Arg.hasPassPointeeByValueCopyAttr();
        }))
      Slow->setTailCall();
    Result = F.getReturnType()->isVoidTy() ? nullptr : Slow;
  } else {
    return; // abort: unreachable; recover: on to the continuation
  }
  ++NumEarlyReturns;
  FB.SetInsertPoint(Term);
  Instruction *Ret = Result ? FB.CreateRet(Result) : FB.CreateRetVoid();
  Ret->setDebugLoc(FC.Loc);
  Term->eraseFromParent();
}

void countCheck(PromiseKind Kind) {
  ++NumChecks;
  switch (Kind) {
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
    ++NumReturnChecks;
    break;
  case PromiseKind::LoadMetadata:
    ++NumLoadChecks;
    break;
  }
}

/// Splits before SplitBefore on Cond (rarely true); returns the new block's
/// terminator. Entry-only instructions (static allocas, localescape) stay.
Instruction *splitOn(Value *Cond, Instruction *SplitBefore, bool Terminal,
                     const DebugLoc &Loc, MDNode *Weights) {
  Instruction *Then =
      SplitBlockAndInsertIfThen(Cond, SplitBefore, Terminal, Weights);
  Instruction *Br = Then->getParent()->getSinglePredecessor()->getTerminator();
  Br->setDebugLoc(Loc);
  markNoSanitize(Br);
  markNoSanitize(Then);
  return Then;
}

void PlaceEmitter::run(ArrayRef<PlaceCheck> Checks) {
  assert(!Checks.empty() && "a place tests at least one pointer");
  // Splitting the entry block moves what follows At out of it; what must
  // stay there (static allocas, localescape) moves up first, to where the
  // entry's own allocas end.
  BasicBlock &Entry = F.getEntryBlock();
  if (At->getParent() == &Entry)
    PrepareToSplitEntryBlock(Entry, entryInsertionPoint(F)->getIterator());
  CheckBuilder B(At);
  std::vector<PreparedCheck> Prepared;
  for (const PlaceCheck &C : Checks)
    Prepared.push_back(prepare(B, C));
  B.SetCurrentDebugLocation(Prepared.front().Loc);
  Value *Bad = anyFails(B, Prepared);
  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, (1u << 20) - 1);
  bool Terminal = Policy.isTerminal();
  Instruction *Fail =
      splitOn(Bad, At, Terminal, Prepared.front().Loc, Unlikely);
  Fail->getParent()->setName("alignguard.fail");
  At->getParent()->setName("alignguard.ok");
  // A trap does not say which (no descriptor, no arguments), nor does a
  // rerun (the copy's checks report); one check: the fail block acts.
  if (Policy.Action == FailureAction::Trap || Policy.Rerun) {
    emitFailure(Fail, {HookShape::OneCheck, nullptr, {}, Prepared.front().Loc});
  } else if (Prepared.size() == 1) {
    CheckBuilder FB(Fail);
    emitFailure(Fail, failureCall(FB, Prepared.front()));
  } else if (Terminal) {
    // Several, and the first failure ends the call: one hook call with
    // the first failing check's arguments, chosen by select. One cold
    // block, no chain of calls, so nothing of the cold side (a frame,
    // saved registers) reaches the hot path. Where the place's descriptors
    // are one table, the runtime picks the failing one.
    CheckBuilder FB(Fail);
    std::optional<FailureCall> Table = tableFailure(FB, Prepared);
    emitFailure(Fail, Table ? *Table : firstFailure(FB, Prepared));
  } else {
    // Several under recover: each failing pointer is reported, one by
    // one, and the kernel goes on.
    for (PreparedCheck &P : Prepared) {
      CheckBuilder CB(Fail);
      CB.SetCurrentDebugLocation(P.Loc);
      Instruction *Then =
          splitOn(failsAlone(CB, P), Fail, Terminal, P.Loc, nullptr);
      Then->getParent()->setName("alignguard.culprit");
      Fail->getParent()->setName("alignguard.next");
      CheckBuilder FB(Then);
      emitFailure(Then, failureCall(FB, P));
    }
  }
}

void Emitter::emitSite(const CheckSite &S, const Materialized &M) {
  if (!M.Checks.empty()) {
    std::vector<PlaceCheck> Checks;
    for (const ScalarCheck &C : M.Checks) {
      countCheck(C.From->Kind);
      Checks.push_back(C.Check);
    }
    if (Deferred && canDefer(S.Policy))
      emitDeferredPlace(Checks, S.Policy, M.SplitBefore);
    else
      emitPlaceChecks(Checks, S.Policy, M.SplitBefore,
                      S.Policy.Action == FailureAction::Fallback
                          ? Copies.lookup(F)
                      : S.Policy.Rerun ? RecoverCopy
                                       : nullptr);
  }
  finishPromises(S, M.Assume);
}

/// Under recover, the promise may be false from here on: drop the checked
/// bundles (and the legacy condition) of Assume, then what those pointers
/// fed (in Private's callees).
void dropPromises(CallInst *Assume, ArrayRef<const AlignmentPromise *> Checked,
                  PrivateCallee Private) {
  SmallVector<unsigned, 4> DropBundles;
  bool DropCondition = false;
  for (const AlignmentPromise *A : Checked) {
    if (A->Kind == PromiseKind::AssumeBundle)
      DropBundles.push_back(A->BundleIndex);
    else if (A->Kind == PromiseKind::AssumeICmp)
      DropCondition = true;
    NumFedPromisesDropped += dropAlignPromisesFedBy(A->Pointer, Private);
  }
  if (!Assume)
    return; // parameter promises in recover mode: no assume was made
  SmallVector<OperandBundleDef, 4> Keep;
  for (unsigned I = 0, E = Assume->getNumOperandBundles(); I != E; ++I)
    if (!is_contained(DropBundles, I))
      Keep.emplace_back(Assume->getOperandBundleAt(I));
  if (DropCondition)
    Assume->setArgOperand(0, ConstantInt::getTrue(Assume->getContext()));
  bool CondTrue =
      PatternMatch::match(Assume->getArgOperand(0), PatternMatch::m_One());
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

/// A load whose check was hoisted keeps its `!align` when the check is
/// terminal (marked guarded, as a hoisted access is); under recover it and
/// what it fed go (in Private's callees).
void finishHoistedLoad(LoadInst &Load, const CheckSite &By,
                       PrivateCallee Private) {
  if (!By.Policy.isTerminal()) {
    Load.setMetadata(LLVMContext::MD_align, nullptr);
    NumFedPromisesDropped += dropAlignPromisesFedBy(&Load, Private);
    return;
  }
  GuardNote Note;
  Note.Placement = By.Placement;
  Note.Downgrade = By.Policy.Downgrade;
  writeGuardNote(Load, Note);
}

void Emitter::finishAccess(const AlignmentPromise &A, const CheckSite &By) {
  if (!By.Policy.isTerminal()) {
    // Recover: the kernel goes on with the pointer, at the alignment its
    // element type can count on.
    lowerToABIAlignment(*A.Inst);
    return;
  }
  GuardNote Note;
  Note.Placement = By.Placement;
  Note.Downgrade = By.Policy.Downgrade;
  writeGuardNote(*A.Inst, Note);
}

void Emitter::finishPromises(const CheckSite &S, CallInst *Assume) {
  if (S.Kind == SiteKind::Accesses) {
    for (const PlannedCheck &C : S.Checks)
      for (const AlignmentPromise *A : C.Covers)
        finishAccess(*A, S);
    return;
  }
  for (const PlannedCheck &C : S.Checks)
    if (C.Reload)
      finishHoistedLoad(*C.Reload, S, Private);
  if (S.Promises.empty())
    return; // only hoisted loads
  if (keepsParamAttributes(S))
    return; // the attributes stay until the expansion, which checks them
  if (S.Kind == SiteKind::Assume) {
    // Each assume's promises stay in (or, under recover, go from) it: one
    // assume at the promise, several adjacent ones, or, for checks hoisted
    // before a loop, the assume in the loop.
    MapVector<CallInst *, SmallVector<const AlignmentPromise *, 2>> ByAssume;
    for (const AlignmentPromise *A : S.Promises)
      ByAssume[A->Assume].push_back(A);
    for (auto &[Made, Promises] : ByAssume)
      finishAssume(S, Made, Promises);
    return;
  }
  finishAssume(S, Assume, S.Promises);
}

void Emitter::finishAssume(const CheckSite &S, CallInst *Assume,
                           ArrayRef<const AlignmentPromise *> Promises) {
  if (!S.Policy.isTerminal())
    return dropPromises(Assume, Promises, Private);
  assert(Assume && "terminal actions keep every promise in an assume");
  // A legacy condition is kept as a bundle (KeptPromises.h), where the
  // check's branch would fold it away; the audit still names it by what was
  // written. A deferred site has no branch until the pipeline's end: there
  // the condition stays as written, and costs the optimiser what it costs
  // without align-guard (AlignmentFromAssumptions reads bundles only).
  bool Legacy = all_of(Promises, [](const AlignmentPromise *A) {
    return A->Kind == PromiseKind::AssumeICmp;
  });
  bool AsWritten = Legacy && Deferred && canDefer(S.Policy);
  if (!AsWritten && !(Assume = keepCheckedBundles(*Assume, Promises)))
    return; // it promised only what the checks' branches now say
  GuardNote Note;
  if (S.Kind != SiteKind::Assume || (Legacy && !AsWritten))
    Note.MadeFrom = Promises.front()->Kind;
  Note.Placement = S.Placement; // `hoisted` when checked before its loop
  Note.Downgrade = S.Policy.Downgrade;
  writeGuardNote(*Assume, Note);
}

void Emitter::run() {
  // Values first (hoisted addresses need ScalarEvolution on the unsplit
  // function), then one site at a time.
  std::vector<Materialized> Values;
  for (const CheckSite &S : Plan.Sites)
    Values.push_back(materialize(S));
  for (size_t I = 0; I != Plan.Sites.size(); ++I)
    emitSite(Plan.Sites[I], Values[I]);
  // Accesses covered by a check at another site follow that site's policy.
  for (const LeftOutPromise &L : Plan.LeftOut)
    if (L.Reason == LeftOutReason::Covered &&
        L.Promise->Kind == PromiseKind::Access)
      finishAccess(*L.Promise, Plan.Sites[L.CoveringSite]);
}

} // namespace

void emitPlaceChecks(ArrayRef<PlaceCheck> Checks, const FailurePolicy &Policy,
                     Instruction *At, Function *Copy) {
  PlaceEmitter(Policy, At, Copy).run(Checks);
}

void emitCheckPlan(const CheckPlan &Plan, SiteDescriptors &Sites,
                   UnalignedCopies &Copies, LazyScalarEvolution &SE,
                   bool Deferred, Function *RecoverCopy, CopyEmission *AsCopy) {
  Emitter(Plan, Sites, Copies, SE, Deferred, RecoverCopy, AsCopy).run();
}

} // namespace alignguard
