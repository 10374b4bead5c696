//===- PlaceChecks.cpp - The checks of one place
//---------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "PlaceChecks.h"

#include "CheckPlanner.h"
#include "Compat.h"
#include "DeviceReport.h"
#include "GuardMarking.h"
#include "IRShapes.h"
#include "ReturnContract.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "align-guard"

STATISTIC(NumEarlyReturns, "Failing checks that return (return=N, fallback)");

namespace alignguard {

CheckBuilder::CheckBuilder(Instruction *At)
    : IRBuilder(At->getContext(), ConstantFolder(),
                IRBuilderCallbackInserter(NoSanitizeMarker(At->getContext()))) {
  SetInsertPoint(At);
}

namespace {

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
  if (Policy.OnDevice) {
    bool Stop = Policy.Action == FailureAction::Abort;
    emitDeviceReport(Term, FC.Site, FC.Rest[0], FC.Rest[1], FC.Rest[2], FC.Loc,
                     Stop);
    if (Stop)
      return;
  } else if (!Policy.Rerun) {
    // A rerun reports nothing here: the recover copy's own checks do.
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
    if (!F.getReturnType()->isVoidTy()) { // a kernel returns nothing
      Result = ConstantInt::get(F.getReturnType(), Policy.ReturnValue,
                                /*IsSigned=*/true);
      admitReturnValue(F, *cast<ConstantInt>(Result)); // callers may see N
    }
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
    // align-guard-cold-exits makes the call a thunk's (ColdExitsPass.h).
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

} // namespace

void emitPlaceChecks(ArrayRef<PlaceCheck> Checks, const FailurePolicy &Policy,
                     Instruction *At, Function *Copy) {
  PlaceEmitter(Policy, At, Copy).run(Checks);
}

} // namespace alignguard
