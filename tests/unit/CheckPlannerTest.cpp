//===- CheckPlannerTest.cpp - What the check planner decides
//---------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// planChecks on IR strings: redundancy between promises, failure policies and
// their downgrades, placement of access checks, one check for a parameter
// and an access of one pointer, and the promises it leaves out
// (unsupported, checked by the code or by construction, not in scope).
// The analyses are built by hand, as the function analysis manager would.
//
// The IR uses typed pointers (i8*, float*): LLVM 14's parser needs them, and
// later parsers read them as `ptr`.
//
//===----------------------------------------------------------------------===//
#include "CheckPlanner.h"
#include "Compat.h"
#include "Promises.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace alignguard;
using namespace llvm;

namespace {

std::string printModule(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return OS.str();
}

/// One function's promises and plan, with everything they point into:
/// the module, the analyses (the plan holds SCEVs) and the promises (the
/// plan holds pointers to them). Not movable; held by unique_ptr.
struct Planned {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  /// The module as printed right after parsing.
  std::string Before;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<LoopInfo> LI;
  std::unique_ptr<TargetLibraryInfoImpl> TLII;
  std::unique_ptr<TargetLibraryInfo> TLI;
  std::unique_ptr<AssumptionCache> AC;
  std::unique_ptr<ScalarEvolution> SE;
  /// LI and SE as the planner gets them: made() says whether it asked.
  std::unique_ptr<LazyLoopInfo> LazyLI;
  std::unique_ptr<LazyScalarEvolution> LazySE;
  std::vector<AlignmentPromise> Promises;
  CheckPlan Plan;

  /// The I-th promise of kind K, in collection order.
  const AlignmentPromise *promise(PromiseKind K, unsigned I = 0) const {
    for (const AlignmentPromise &A : Promises)
      if (A.Kind == K && I-- == 0)
        return &A;
    return nullptr;
  }
  /// A's left-out record, or null when A is not left out.
  const LeftOutPromise *leftOut(const AlignmentPromise *A) const {
    for (const LeftOutPromise &L : Plan.LeftOut)
      if (L.Promise == A)
        return &L;
    return nullptr;
  }
  /// The index of the site whose checks name A (not covers), or -1.
  int checkedAt(const AlignmentPromise *A) const {
    for (size_t S = 0; S != Plan.Sites.size(); ++S)
      for (const PlannedCheck &C : Plan.Sites[S].Checks)
        if (C.Promise == A)
          return S;
    return -1;
  }
  BasicBlock *block(StringRef Name) const {
    for (BasicBlock &BB : *F)
      if (BB.getName() == Name)
        return &BB;
    return nullptr;
  }
  /// The I-th call to llvm.assume in F.
  CallInst *assume(unsigned I) const {
    for (BasicBlock &BB : *F)
      for (Instruction &Inst : BB)
        if (isa<AssumeInst>(Inst) && I-- == 0)
          return cast<CallInst>(&Inst);
    return nullptr;
  }
  std::string dump() const {
    std::string S;
    raw_string_ostream OS(S);
    Plan.print(OS);
    return OS.str();
  }
};

/// Expects G to say "the loop around Block takes its backedge at least N
/// times".
void expectTakenAtLeast(const Planned &P, const LoopGuard &G, const char *Block,
                        uint64_t N) {
  Loop *L = P.LI->getLoopFor(P.block(Block));
  ASSERT_NE(L, nullptr);
  const SCEV *Taken = P.SE->getBackedgeTakenCount(L);
  EXPECT_EQ(G.Pred, CmpInst::ICMP_UGE);
  EXPECT_EQ(G.LHS, Taken);
  EXPECT_EQ(G.RHS, P.SE->getConstant(Taken->getType(), N));
}

/// Parses IR, collects the promises of @Name under Scope (as an entry point
/// when CollectAsEntry, by default Req.IsEntry) and plans their checks.
std::unique_ptr<Planned> plan(const char *IR, const PlanRequest &Req,
                              CollectScope Scope = CollectScope(),
                              const char *Name = "f", int CollectAsEntry = -1) {
  auto P = std::make_unique<Planned>();
  SMDiagnostic Err;
  P->M = parseAssemblyString(IR, Err, P->Ctx);
  if (!P->M) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Err.print("CheckPlannerTest", OS);
    ADD_FAILURE() << OS.str();
    return nullptr;
  }
  std::string Broken;
  raw_string_ostream BrokenOS(Broken);
  if (verifyModule(*P->M, &BrokenOS)) {
    ADD_FAILURE() << "invalid IR: " << BrokenOS.str();
    return nullptr;
  }
  P->Before = printModule(*P->M);
  P->F = P->M->getFunction(Name);
  if (!P->F) {
    ADD_FAILURE() << "no function @" << Name;
    return nullptr;
  }
  Function &F = *P->F;
  P->DT = std::make_unique<DominatorTree>(F);
  P->LI = std::make_unique<LoopInfo>(*P->DT);
  P->TLII =
      std::make_unique<TargetLibraryInfoImpl>(compat::targetTriple(*P->M));
  P->TLI = std::make_unique<TargetLibraryInfo>(*P->TLII, &F);
  P->AC = std::make_unique<AssumptionCache>(F);
  P->SE = std::make_unique<ScalarEvolution>(F, *P->TLI, *P->AC, *P->DT, *P->LI);
  bool IsEntry = CollectAsEntry < 0 ? Req.IsEntry : CollectAsEntry != 0;
  P->Promises = collectAlignmentPromises(F, IsEntry, Scope);
  P->LazyLI = std::make_unique<LazyLoopInfo>(
      [Raw = P.get()]() -> LoopInfo & { return *Raw->LI; });
  P->LazySE = std::make_unique<LazyScalarEvolution>(
      [Raw = P.get()]() -> ScalarEvolution & { return *Raw->SE; });
  P->Plan = planChecks(F, P->Promises, Req, {*P->DT, *P->LazyLI, *P->LazySE});
  return P;
}

PlanRequest request(FailureAction Action = FailureAction::Abort,
                    bool IsEntry = true, bool Accesses = false,
                    int64_t ReturnValue = 0) {
  PlanRequest R;
  R.Action = Action;
  R.IsEntry = IsEntry;
  R.Accesses = Accesses;
  R.ReturnValue = ReturnValue;
  return R;
}

CollectScope accessScope() {
  CollectScope S;
  S.Accesses = true;
  return S;
}

bool startsWith(const std::string &S, StringRef Prefix) {
  return S.compare(0, Prefix.size(), Prefix.str()) == 0;
}

#define ASSERT_PLANNED(P) ASSERT_TRUE(P) << "no plan"

//===----------------------------------------------------------------------===//
// 1, 2. Redundancy: a promise a planned check already covers gets none.
//===----------------------------------------------------------------------===//

const char *TwoAssumes64Then32 = R"(
declare void @llvm.assume(i1)
declare void @g()
define void @f(i8* %p) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  call void @g()
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 32)]
  ret void
}
)";

TEST(CheckPlanner, LaterWeakerAssumeIsCoveredByTheEarlierCheck) {
  auto P = plan(TwoAssumes64Then32, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A64 = P->promise(PromiseKind::AssumeBundle, 0);
  const AlignmentPromise *A32 = P->promise(PromiseKind::AssumeBundle, 1);
  ASSERT_TRUE(A64 && A32);
  ASSERT_EQ(P->Promises.size(), 2u);

  // The 64 one is checked at its assume.
  EXPECT_EQ(P->leftOut(A64), nullptr);
  int Site64 = P->checkedAt(A64);
  ASSERT_GE(Site64, 0);
  const CheckSite &S64 = P->Plan.Sites[Site64];
  EXPECT_EQ(S64.Kind, SiteKind::Assume);
  EXPECT_EQ(S64.Assume, P->assume(0));
  EXPECT_EQ(S64.InsertBefore, P->assume(0));
  EXPECT_EQ(S64.Placement, CheckPlacement::AtPromise);
  ASSERT_EQ(S64.Checks.size(), 1u);
  EXPECT_EQ(S64.Checks[0].Pointer, P->F->getArg(0));
  EXPECT_EQ(S64.Checks[0].Address, nullptr);

  // The 32 one is covered by that site.
  const LeftOutPromise *L = P->leftOut(A32);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Covered);
  EXPECT_EQ(L->CoveringSite, Site64);
  EXPECT_EQ(L->Why, "covered by the check of site " + std::to_string(Site64));
  EXPECT_EQ(P->checkedAt(A32), -1);
  EXPECT_EQ(P->Plan.siteOf(A32), Site64);

  // Its own assume still has a site, without checks, that answers for it.
  ASSERT_EQ(P->Plan.Sites.size(), 2u);
  int Checked = 0;
  for (const CheckSite &S : P->Plan.Sites)
    Checked += !S.Checks.empty();
  EXPECT_EQ(Checked, 1);
  const CheckSite &S32 = P->Plan.Sites[1 - Site64];
  EXPECT_EQ(S32.Kind, SiteKind::Assume);
  EXPECT_EQ(S32.Assume, P->assume(1));
  EXPECT_TRUE(S32.Checks.empty());
  ASSERT_EQ(S32.Promises.size(), 1u);
  EXPECT_EQ(S32.Promises[0], A32);
  ASSERT_EQ(S64.Promises.size(), 1u);
  EXPECT_EQ(S64.Promises[0], A64);
}

TEST(CheckPlanner, LaterStrongerAssumeIsCheckedToo) {
  const char *IR = R"(
declare void @llvm.assume(i1)
declare void @g()
define void @f(i8* %p) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 32)]
  call void @g()
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A32 = P->promise(PromiseKind::AssumeBundle, 0);
  const AlignmentPromise *A64 = P->promise(PromiseKind::AssumeBundle, 1);
  ASSERT_TRUE(A32 && A64);
  EXPECT_TRUE(P->Plan.LeftOut.empty());
  ASSERT_EQ(P->Plan.Sites.size(), 2u);
  int S32 = P->checkedAt(A32), S64 = P->checkedAt(A64);
  ASSERT_GE(S32, 0);
  ASSERT_GE(S64, 0);
  EXPECT_NE(S32, S64);
  EXPECT_EQ(P->Plan.Sites[S32].InsertBefore, P->assume(0));
  EXPECT_EQ(P->Plan.Sites[S64].InsertBefore, P->assume(1));
  EXPECT_EQ(P->Plan.Sites[S32].Checks.size(), 1u);
  EXPECT_EQ(P->Plan.Sites[S64].Checks.size(), 1u);
}

// Two bundles of one assume on one pointer: the weaker one is covered by
// the check planned for the stronger (a check planned before the promise's
// own assume counts, though the assume itself does not vouch for itself).
TEST(CheckPlanner, WeakerBundleOfTheSameAssumeIsCovered) {
  const char *IR = R"(
declare void @llvm.assume(i1)
define void @f(i8* %p) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64), "align"(i8* %p, i64 16)]
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A64 = P->promise(PromiseKind::AssumeBundle, 0);
  const AlignmentPromise *A16 = P->promise(PromiseKind::AssumeBundle, 1);
  ASSERT_TRUE(A64 && A16);
  EXPECT_EQ(A64->BundleIndex, 0u);
  EXPECT_EQ(A16->BundleIndex, 1u);
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Assume, P->assume(0));
  ASSERT_EQ(S.Checks.size(), 1u);
  EXPECT_EQ(S.Checks[0].Promise, A64);
  ASSERT_EQ(S.Promises.size(), 2u);
  const LeftOutPromise *L = P->leftOut(A16);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Covered);
  EXPECT_EQ(L->CoveringSite, 0);
}

//===----------------------------------------------------------------------===//
// 3. Failure policy: return=N and fallback need an entry point, fallback no
//    side effect before the check; otherwise the site aborts, and says why.
//===----------------------------------------------------------------------===//

const char *StoreBeforeAssume = R"(
declare void @llvm.assume(i1)
define void @f(i8* %p, i32* %out) {
  store i32 1, i32* %out
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  ret void
}
)";

const char *NoStoreBeforeAssume = R"(
declare void @llvm.assume(i1)
define void @f(i8* %p, i32* %out) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  store i32 1, i32* %out
  ret void
}
)";

TEST(CheckPlanner, FallbackAfterAStoreIsDowngradedToAbort) {
  auto P = plan(StoreBeforeAssume, request(FailureAction::Fallback));
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const FailurePolicy &Policy = P->Plan.Sites[0].Policy;
  EXPECT_EQ(Policy.Action, FailureAction::Abort);
  EXPECT_TRUE(startsWith(Policy.Downgrade, "fallback-unsafe: "))
      << Policy.Downgrade;
  EXPECT_NE(Policy.Downgrade.find("a store"), std::string::npos)
      << Policy.Downgrade;
}

TEST(CheckPlanner, FallbackBeforeAnyStoreIsKept) {
  auto P = plan(NoStoreBeforeAssume, request(FailureAction::Fallback));
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const FailurePolicy &Policy = P->Plan.Sites[0].Policy;
  EXPECT_EQ(Policy.Action, FailureAction::Fallback);
  EXPECT_EQ(Policy.Downgrade, "");
}

TEST(CheckPlanner, FallbackOutsideAnEntryPointIsDowngraded) {
  auto P = plan(NoStoreBeforeAssume,
                request(FailureAction::Fallback, /*IsEntry=*/false));
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  EXPECT_EQ(P->Plan.Sites[0].Policy.Action, FailureAction::Abort);
  EXPECT_EQ(P->Plan.Sites[0].Policy.Downgrade, "it is not an entry point");
}

// clang 19's shape for a loop it unrolled (Highway's vector loop in
// programs/highway-accesses.test): the loop, checked once in its preheader,
// then one more iteration after it, reached from the loop's exit or
// straight from the entry, its index a phi of 0 and the loop's exit value.
// On the path through the loop the remainder's checks come after a store,
// but the loop's check of the same addresses modulo 16 has passed there.
// y is read only in the remainder.
const char *LoopThenRemainder = R"(
define void @f(float* %out, float* %x, float* %y, i64 %n) {
entry:
  %skip = icmp ult i64 %n, 8
  br i1 %skip, label %merge, label %preheader
preheader:
  br label %loop
loop:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %loop ]
  %px = getelementptr inbounds float, float* %x, i64 %i
  %vx = bitcast float* %px to <4 x float>*
  %v = load <4 x float>, <4 x float>* %vx, align 16
  %po = getelementptr inbounds float, float* %out, i64 %i
  %vo = bitcast float* %po to <4 x float>*
  store <4 x float> %v, <4 x float>* %vo, align 16
  %i.next = add nuw i64 %i, 4
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %merge
merge:
  %j = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %left = and i64 %n, 4
  %one = icmp ne i64 %left, 0
  br i1 %one, label %remainder, label %exit
remainder:
  %rx = getelementptr inbounds float, float* %x, i64 %j
  %rvx = bitcast float* %rx to <4 x float>*
  %w = load <4 x float>, <4 x float>* %rvx, align 16
  %ry = getelementptr inbounds float, float* %y, i64 %j
  %rvy = bitcast float* %ry to <4 x float>*
  %u = load <4 x float>, <4 x float>* %rvy, align 16
  %sum = fadd <4 x float> %w, %u
  %ro = getelementptr inbounds float, float* %out, i64 %j
  %rvo = bitcast float* %ro to <4 x float>*
  store <4 x float> %sum, <4 x float>* %rvo, align 16
  br label %exit
exit:
  ret void
}
)";

TEST(CheckPlanner, FallbackAfterAStoreACoveringCheckPrecedesIsKept) {
  auto P = plan(LoopThenRemainder,
                request(FailureAction::Fallback, /*IsEntry=*/true,
                        /*Accesses=*/true),
                accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  BasicBlock *Remainder = P->block("remainder");
  ASSERT_NE(Remainder, nullptr);
  // The site before Remainder's instruction Name (its store: ""), or null.
  auto SiteBefore = [&](StringRef Name) -> const CheckSite * {
    for (const CheckSite &S : P->Plan.Sites)
      if (S.InsertBefore->getParent() == Remainder &&
          (Name.empty() ? isa<StoreInst>(S.InsertBefore)
                        : S.InsertBefore->getName() == Name))
        return &S;
    return nullptr;
  };
  const CheckSite *Loop = nullptr;
  for (const CheckSite &S : P->Plan.Sites)
    if (S.InsertBefore == P->block("preheader")->getTerminator())
      Loop = &S;
  ASSERT_NE(Loop, nullptr);
  EXPECT_EQ(Loop->Placement, CheckPlacement::Hoisted);
  EXPECT_EQ(Loop->Checks.size(), 2u); // x and out
  EXPECT_EQ(Loop->Policy.Action, FailureAction::Fallback);
  // x and out in the remainder: checked again (the loop's check does not
  // dominate them), after the loop's store on one path, covered there.
  for (const char *Name : {"w", ""}) {
    SCOPED_TRACE(Name);
    const CheckSite *S = SiteBefore(Name);
    ASSERT_NE(S, nullptr);
    EXPECT_EQ(S->Placement, CheckPlacement::InPlace);
    EXPECT_EQ(S->Policy.Action, FailureAction::Fallback);
    EXPECT_EQ(S->Policy.Downgrade, "");
  }
  // y: nothing checks it before the loop's store.
  const CheckSite *Y = SiteBefore("u");
  ASSERT_NE(Y, nullptr);
  EXPECT_EQ(Y->Policy.Action, FailureAction::Abort);
  EXPECT_TRUE(startsWith(Y->Policy.Downgrade, "fallback-unsafe: a store"))
      << Y->Policy.Downgrade;
}

const char *ReturnsI8 = R"(
declare void @llvm.assume(i1)
define i8 @f(i8* %p) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  ret i8 0
}
)";

TEST(CheckPlanner, ReturnOutsideAnEntryPointIsDowngraded) {
  auto P = plan(ReturnsI8, request(FailureAction::Return, /*IsEntry=*/false,
                                   false, /*ReturnValue=*/7));
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const FailurePolicy &Policy = P->Plan.Sites[0].Policy;
  EXPECT_EQ(Policy.Action, FailureAction::Abort);
  EXPECT_EQ(Policy.Downgrade, "it is not an entry point");
}

TEST(CheckPlanner, ReturnValueThatFitsIsKept) {
  for (int64_t N : {7, 200, -1}) {
    auto P = plan(ReturnsI8, request(FailureAction::Return, true, false, N));
    ASSERT_PLANNED(P);
    SCOPED_TRACE(P->dump());
    ASSERT_EQ(P->Plan.Sites.size(), 1u);
    const FailurePolicy &Policy = P->Plan.Sites[0].Policy;
    EXPECT_EQ(Policy.Action, FailureAction::Return) << N;
    EXPECT_EQ(Policy.ReturnValue, N);
    EXPECT_EQ(Policy.Downgrade, "") << N;
  }
}

TEST(CheckPlanner, ReturnValueTooWideIsDowngraded) {
  auto P = plan(ReturnsI8, request(FailureAction::Return, true, false, 300));
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const FailurePolicy &Policy = P->Plan.Sites[0].Policy;
  EXPECT_EQ(Policy.Action, FailureAction::Abort);
  EXPECT_NE(Policy.Downgrade.find("does not fit its 8-bit return type"),
            std::string::npos)
      << Policy.Downgrade;
  EXPECT_EQ(Policy.Downgrade, "300 does not fit its 8-bit return type");
}

//===----------------------------------------------------------------------===//
// 4. Placement of access checks.
//===----------------------------------------------------------------------===//

// for (i = 0; i < n; ++i) load base[i], a <4 x float> (16 bytes a step),
// rotated, with a guard and a preheader.
const char *Step16Loop = R"(
define void @f(<4 x float>* %base, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %preheader, label %exit
preheader:
  br label %loop
loop:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %loop ]
  %p = getelementptr inbounds <4 x float>, <4 x float>* %base, i64 %i
  %v = load <4 x float>, <4 x float>* %p, align 16
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";

TEST(CheckPlanner, AccessWithAlignedStepIsCheckedOnceInThePreheader) {
  auto P = plan(Step16Loop, request(FailureAction::Abort, true, true),
                accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::Access);
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(P->Promises.size(), 1u);
  EXPECT_TRUE(P->Plan.LeftOut.empty());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Kind, SiteKind::Accesses);
  EXPECT_EQ(S.Placement, CheckPlacement::Hoisted);
  EXPECT_EQ(S.InsertBefore, P->block("preheader")->getTerminator());
  EXPECT_EQ(S.Assume, nullptr);
  EXPECT_EQ(S.Policy.Action, FailureAction::Abort);
  ASSERT_EQ(S.Checks.size(), 1u);
  const PlannedCheck &C = S.Checks[0];
  EXPECT_EQ(C.Promise, A);
  EXPECT_EQ(C.Pointer, nullptr);
  ASSERT_NE(C.Address, nullptr);
  // The first address: the base itself.
  EXPECT_EQ(C.Address, P->SE->getSCEV(P->F->getArg(0)));
  EXPECT_TRUE(C.Guards.empty()); // rotated: the body runs on entry
  ASSERT_EQ(C.Covers.size(), 1u);
  EXPECT_EQ(C.Covers[0], A);
}

// The same loop over floats, loading a <4 x float> at every float: a 4-byte
// step is not a multiple of 16.
const char *Step4Loop = R"(
define void @f(float* %base, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 1
  br i1 %any, label %preheader, label %exit
preheader:
  br label %loop
loop:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, float* %base, i64 %i
  %p = bitcast float* %q to <4 x float>*
  %v = load <4 x float>, <4 x float>* %p, align 16
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";

TEST(CheckPlanner, AccessWithUnalignedStepChecksFirstAndSecondAddress) {
  auto P =
      plan(Step4Loop, request(FailureAction::Abort, true, true), accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::Access);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.LeftOut.empty());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Kind, SiteKind::Accesses);
  EXPECT_EQ(S.Placement, CheckPlacement::Hoisted);
  EXPECT_EQ(S.InsertBefore, P->block("preheader")->getTerminator());
  ASSERT_EQ(S.Checks.size(), 2u);
  const SCEV *Base = P->SE->getSCEV(P->F->getArg(0));
  const PlannedCheck &First = S.Checks[0], &Second = S.Checks[1];
  for (const PlannedCheck &C : S.Checks) {
    EXPECT_EQ(C.Promise, A);
    EXPECT_EQ(C.Pointer, nullptr);
    ASSERT_NE(C.Address, nullptr);
    ASSERT_EQ(C.Covers.size(), 1u);
    EXPECT_EQ(C.Covers[0], A);
  }
  // The first address, always (the rotated body runs on entry) ...
  EXPECT_EQ(First.Address, Base);
  EXPECT_TRUE(First.Guards.empty());
  // ... and the second, base + 4, when the backedge is taken at least once.
  EXPECT_EQ(Second.Address,
            P->SE->getAddExpr(
                Base, P->SE->getConstant(
                          P->SE->getEffectiveSCEVType(Base->getType()), 4)));
  ASSERT_EQ(Second.Guards.size(), 1u);
  expectTakenAtLeast(*P, Second.Guards[0], "loop", 1);
}

// A loop that tests before its body (clang's -O0 shape): the hoisted check
// of the first address runs only when the body runs once.
const char *TestFirstLoop = R"(
define void @f(<4 x float>* %base, i64 %n) {
entry:
  br label %header
header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %p = getelementptr inbounds <4 x float>, <4 x float>* %base, i64 %i
  %v = load <4 x float>, <4 x float>* %p, align 16
  %i.next = add nuw nsw i64 %i, 1
  br label %header
exit:
  ret void
}
)";

TEST(CheckPlanner, AccessInATestFirstLoopIsGuardedByTheLoopRunning) {
  auto P = plan(TestFirstLoop, request(FailureAction::Abort, true, true),
                accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Placement, CheckPlacement::Hoisted);
  EXPECT_EQ(S.InsertBefore, P->block("entry")->getTerminator());
  ASSERT_EQ(S.Checks.size(), 1u);
  const PlannedCheck &C = S.Checks[0];
  EXPECT_EQ(C.Address, P->SE->getSCEV(P->F->getArg(0)));
  ASSERT_EQ(C.Guards.size(), 1u);
  expectTakenAtLeast(*P, C.Guards[0], "body", 1);
}

// MLIR's loops: tested first, incremented without `nsw` by a multiple of
// the alignment, so ScalarEvolution cannot count them. The address's low
// bits do not depend on wrapping: the first address is checked before the
// loop, when the loop's first test enters it (`0 < %n`).
const char *NoWrapFlagsLoop = R"(
define void @f(<8 x float>* %base, i64 %n) {
entry:
  br label %header
header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %f = bitcast <8 x float>* %base to float*
  %q = getelementptr float, float* %f, i64 %i
  %p = bitcast float* %q to <8 x float>*
  %v = load <8 x float>, <8 x float>* %p, align 32
  %i.next = add i64 %i, 8
  br label %header
exit:
  ret void
}
)";

TEST(CheckPlanner, UncountedTestFirstLoopIsGuardedByItsFirstTest) {
  auto P = plan(NoWrapFlagsLoop, request(FailureAction::Abort, true, true),
                accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  Loop *L = P->LI->getLoopFor(P->block("body"));
  ASSERT_NE(L, nullptr);
  ASSERT_TRUE(isa<SCEVCouldNotCompute>(P->SE->getBackedgeTakenCount(L)));
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Placement, CheckPlacement::Hoisted);
  EXPECT_EQ(S.InsertBefore, P->block("entry")->getTerminator());
  ASSERT_EQ(S.Checks.size(), 1u);
  const PlannedCheck &C = S.Checks[0];
  ASSERT_EQ(C.Guards.size(), 1u);
  EXPECT_EQ(C.Guards[0].Pred, CmpInst::ICMP_SLT);
  EXPECT_TRUE(C.Guards[0].LHS->isZero());
  EXPECT_EQ(C.Guards[0].RHS, P->SE->getSCEV(P->F->getArg(1)));
}

// __builtin_assume_aligned on a row pointer in a rotated row loop: the
// stride is read at run time.
const char *RowAssumeLoop = R"(
declare void @llvm.assume(i1)
define void @f(float* %img, i64 %stride, i64 %h) {
entry:
  %any = icmp ne i64 %h, 0
  br i1 %any, label %preheader, label %exit
preheader:
  br label %loop
loop:
  %y = phi i64 [ 0, %preheader ], [ %y.next, %loop ]
  %off = mul i64 %y, %stride
  %row = getelementptr inbounds float, float* %img, i64 %off
  %rowi = bitcast float* %row to i8*
  call void @llvm.assume(i1 true) [ "align"(i8* %rowi, i64 32) ]
  store float 0.0, float* %row, align 4
  %y.next = add nuw i64 %y, 1
  %more = icmp ult i64 %y.next, %h
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";

/// The one site of P's plan, of Kind and hoisted to the preheader, with
/// nothing left out; null (and a failure) when the plan is not that.
const CheckSite *onlyHoistedSite(const Planned &P, SiteKind Kind) {
  EXPECT_TRUE(P.Plan.LeftOut.empty());
  if (P.Plan.Sites.size() != 1) {
    ADD_FAILURE() << "expected one site";
    return nullptr;
  }
  const CheckSite &S = P.Plan.Sites[0];
  EXPECT_EQ(S.Kind, Kind);
  EXPECT_EQ(S.Placement, CheckPlacement::Hoisted);
  EXPECT_EQ(S.InsertBefore, P.block("preheader")->getTerminator());
  return &S;
}

TEST(CheckPlanner, AssumeOnARowPointerIsCheckedBeforeTheLoop) {
  auto P = plan(RowAssumeLoop, request(FailureAction::Fallback));
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *Row = P->promise(PromiseKind::AssumeBundle);
  const CheckSite *S = onlyHoistedSite(*P, SiteKind::Assume);
  ASSERT_TRUE(Row && S);
  // The promise stays in its own assume, in the loop; the site answers
  // for it.
  EXPECT_EQ(S->Assume, nullptr);
  EXPECT_EQ(S->Promises, std::vector<const AlignmentPromise *>{Row});
  EXPECT_EQ(P->Plan.siteOf(Row), 0);
  // Before every store: fallback is kept.
  EXPECT_EQ(S->Policy.Action, FailureAction::Fallback);
  // The first row, always (rotated: the body runs on entry); the second,
  // img + 4 * stride bytes, when the backedge is taken.
  ASSERT_EQ(S->Checks.size(), 2u);
  const PlannedCheck &First = S->Checks[0], &Second = S->Checks[1];
  EXPECT_EQ(First.Address, P->SE->getSCEV(P->F->getArg(0)));
  EXPECT_TRUE(First.Guards.empty());
  ASSERT_NE(Second.Address, nullptr);
  EXPECT_NE(Second.Address, First.Address);
  ASSERT_EQ(Second.Guards.size(), 1u);
  expectTakenAtLeast(*P, Second.Guards[0], "loop", 1);
}

TEST(CheckPlanner, AccessOutsideAnyLoopIsCheckedInPlace) {
  const char *IR = R"(
define void @f(<4 x float>* %base) {
  %p = getelementptr inbounds <4 x float>, <4 x float>* %base, i64 3
  %v = load <4 x float>, <4 x float>* %p, align 16
  ret void
}
)";
  auto P = plan(IR, request(FailureAction::Abort, true, true), accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::Access);
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Placement, CheckPlacement::InPlace);
  EXPECT_EQ(S.InsertBefore, A->Inst);
  ASSERT_EQ(S.Checks.size(), 1u);
  EXPECT_EQ(S.Checks[0].Pointer, A->Pointer);
  EXPECT_EQ(S.Checks[0].Address, nullptr);
}

//===----------------------------------------------------------------------===//
// 4b. One pointer, one check: an entry parameter's promise and an access of
//     the same pointer at the same place (rustc's kernels: `align 32` on the
//     parameter, `align 32` vector loads hoisted to the entry).
//===----------------------------------------------------------------------===//

// A rotated loop whose preheader is the entry block: the hoisted access
// check and the parameter check both go before the entry's branch.
std::string paramAndLoopAccess(unsigned ParamAlign, unsigned AccessAlign) {
  return R"(
define void @f(<8 x float>* align )" +
         std::to_string(ParamAlign) + R"( %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds <8 x float>, <8 x float>* %x, i64 %i
  %v = load <8 x float>, <8 x float>* %p, align )" +
         std::to_string(AccessAlign) + R"(
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";
}

/// Expects P's plan to be one check, of the parameter at the entry (testing
/// Raised when non-zero), covering the access.
void expectOneCheckOfTheParameter(const Planned &P, uint64_t Raised) {
  const AlignmentPromise *Param = P.promise(PromiseKind::ParamAttr);
  const AlignmentPromise *Access = P.promise(PromiseKind::Access);
  ASSERT_TRUE(Param && Access);
  ASSERT_EQ(P.Plan.Sites.size(), 1u);
  const CheckSite &S = P.Plan.Sites[0];
  EXPECT_EQ(S.Kind, SiteKind::EntryParams);
  EXPECT_EQ(S.InsertBefore, P.block("entry")->getTerminator());
  ASSERT_EQ(S.Checks.size(), 1u);
  EXPECT_EQ(S.Checks[0].Promise, Param);
  EXPECT_EQ(S.Checks[0].RaisedAlignment, Raised);
  const LeftOutPromise *L = P.leftOut(Access);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Covered);
  EXPECT_EQ(L->CoveringSite, 0);
  EXPECT_EQ(L->Why, Raised ? "covered by the check of site 0, raised to " +
                                 std::to_string(Raised) + " bytes for it"
                           : "covered by the check of site 0");
  EXPECT_EQ(P.checkedAt(Access), -1);
  EXPECT_EQ(P.Plan.siteOf(Access), 0);
}

TEST(CheckPlanner, AccessAsAlignedAsItsParameterIsCoveredByItsCheck) {
  for (unsigned ParamAlign : {32u, 64u}) {
    std::string IR = paramAndLoopAccess(ParamAlign, 32);
    auto P = plan(IR.c_str(), request(FailureAction::Recover, true, true),
                  accessScope());
    ASSERT_PLANNED(P);
    SCOPED_TRACE(P->dump());
    expectOneCheckOfTheParameter(*P, 0);
  }
}

TEST(CheckPlanner, StrongerAccessRaisesItsParametersCheck) {
  std::string IR = paramAndLoopAccess(16, 32);
  auto P = plan(IR.c_str(), request(FailureAction::Recover, true, true),
                accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  expectOneCheckOfTheParameter(*P, 32);
  EXPECT_NE(P->dump().find("check argument #0 'x' raised to 32"),
            std::string::npos);
}

// In place in the entry block, after instructions that go on to the next:
// the same place as the parameter check, as far as running goes. Two
// accesses, 32 and 64 bytes apart: both are the parameter's address modulo
// their alignment, so the one check is raised to the largest.
TEST(CheckPlanner, StrongerAccessesInTheEntryBlockRaiseTheParameterCheck) {
  const char *IR = R"(
define void @f(<8 x float>* align 16 %x, float* %out) {
entry:
  store float 0.0, float* %out
  %v = load <8 x float>, <8 x float>* %x, align 32
  %q = getelementptr inbounds <8 x float>, <8 x float>* %x, i64 2
  %w = load <8 x float>, <8 x float>* %q, align 64
  ret void
}
)";
  auto P = plan(IR, request(FailureAction::Abort, true, true), accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *Param = P->promise(PromiseKind::ParamAttr);
  ASSERT_NE(Param, nullptr);
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Kind, SiteKind::EntryParams);
  ASSERT_EQ(S.Checks.size(), 1u);
  EXPECT_EQ(S.Checks[0].Promise, Param);
  EXPECT_EQ(S.Checks[0].RaisedAlignment, 64u);
  for (unsigned I : {0u, 1u}) {
    const LeftOutPromise *L = P->leftOut(P->promise(PromiseKind::Access, I));
    ASSERT_NE(L, nullptr) << I;
    EXPECT_EQ(L->Reason, LeftOutReason::Covered) << I;
    EXPECT_EQ(L->CoveringSite, 0) << I;
  }
}

// Raising is right only where the access check would run whenever the
// parameter check does: not behind a call that may not return, not under
// a loop guard, not at an address the check does not test.
TEST(CheckPlanner, StrongerAccessThatMayNotRunKeepsItsOwnCheck) {
  const char *BehindACall = R"(
declare void @g()
define void @f(<8 x float>* align 16 %x) {
entry:
  call void @g()
  %v = load <8 x float>, <8 x float>* %x, align 32
  ret void
}
)";
  // TestFirstLoop's <4 x float> loads, `align 16`, with `align 8` promised
  // for the base.
  std::string UnderALoopGuard = TestFirstLoop;
  UnderALoopGuard.replace(UnderALoopGuard.find("* %base"), 7,
                          "* align 8 %base");
  const char *AnotherResidue = R"(
define void @f(<8 x float>* align 16 %x) {
entry:
  %b = bitcast <8 x float>* %x to i8*
  %q = getelementptr inbounds i8, i8* %b, i64 16
  %p = bitcast i8* %q to <8 x float>*
  %v = load <8 x float>, <8 x float>* %p, align 32
  ret void
}
)";
  for (const std::string &IR : {std::string(BehindACall), UnderALoopGuard,
                                std::string(AnotherResidue)}) {
    auto P = plan(IR.c_str(), request(FailureAction::Abort, true, true),
                  accessScope());
    ASSERT_PLANNED(P);
    SCOPED_TRACE(P->dump());
    const AlignmentPromise *Param = P->promise(PromiseKind::ParamAttr);
    const AlignmentPromise *Access = P->promise(PromiseKind::Access);
    ASSERT_TRUE(Param && Access);
    EXPECT_TRUE(P->Plan.LeftOut.empty());
    ASSERT_EQ(P->Plan.Sites.size(), 2u);
    int ParamSite = P->checkedAt(Param), AccessSite = P->checkedAt(Access);
    ASSERT_GE(ParamSite, 0);
    ASSERT_GE(AccessSite, 0);
    EXPECT_NE(ParamSite, AccessSite);
    EXPECT_EQ(P->Plan.Sites[ParamSite].Checks[0].RaisedAlignment, 0u);
  }
}

//===----------------------------------------------------------------------===//
// 5. Unsupported promises: kept, with why, and no site.
//===----------------------------------------------------------------------===//

TEST(CheckPlanner, NakedFunctionGetsNoCheck) {
  const char *IR = R"(
define void @f(i8* align 16 %p) naked {
  unreachable
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::ParamAttr);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  EXPECT_TRUE(P->Plan.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Unsupported);
  EXPECT_EQ(L->Why, "the function is naked; no check can be inserted");
  EXPECT_EQ(L->CoveringSite, -1);
}

TEST(CheckPlanner, NonIntegralAddressSpaceGetsNoCheck) {
  const char *IR = R"(
target datalayout = "ni:7"
define void @f(i8 addrspace(7)* align 16 %p) {
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::ParamAttr);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Unsupported);
  EXPECT_EQ(L->Why, "pointers in non-integral address space 7 have no stable "
                    "address to check");
}

TEST(CheckPlanner, EntryParameterIsCheckedAtTheEntry) {
  // The control for the two above: the same parameter, checkable.
  const char *IR = R"(
define void @f(i8* align 16 %p) {
  %slot = alloca i8*
  store i8* %p, i8** %slot
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::ParamAttr);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.LeftOut.empty());
  ASSERT_EQ(P->Plan.Sites.size(), 1u);
  const CheckSite &S = P->Plan.Sites[0];
  EXPECT_EQ(S.Kind, SiteKind::EntryParams);
  EXPECT_EQ(S.InsertBefore, entryInsertionPoint(*P->F));
  EXPECT_TRUE(isa<StoreInst>(S.InsertBefore)); // after the alloca
  ASSERT_EQ(S.Checks.size(), 1u);
  EXPECT_EQ(S.Checks[0].Pointer, P->F->getArg(0));
}

//===----------------------------------------------------------------------===//
// 6. Checked by the code, or aligned by construction.
//===----------------------------------------------------------------------===//

// if ((uintptr_t)p & Mask) abort(); __builtin_assume_aligned(p, 32)
std::string codeCheckThenAssume(unsigned Mask) {
  return R"(
declare void @llvm.assume(i1)
declare void @abort()
define void @f(i8* %p) {
entry:
  %a = ptrtoint i8* %p to i64
  %m = and i64 %a, )" +
         std::to_string(Mask) + R"(
  %bad = icmp ne i64 %m, 0
  br i1 %bad, label %fail, label %ok
fail:
  call void @abort()
  unreachable
ok:
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 32)]
  ret void
}
)";
}

TEST(CheckPlanner, AssumeAfterTheCodesOwnCheckIsLeftOut) {
  std::string IR = codeCheckThenAssume(31);
  auto P = plan(IR.c_str(), request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::AssumeBundle);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Checked);
  EXPECT_TRUE(startsWith(L->Why, "checked by the code")) << L->Why;
}

TEST(CheckPlanner, AssumeAfterAWeakerCheckOfTheCodeIsChecked) {
  std::string IR = codeCheckThenAssume(15); // tests 16, the assume says 32
  auto P = plan(IR.c_str(), request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::AssumeBundle);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(P->leftOut(A), nullptr);
  EXPECT_GE(P->checkedAt(A), 0);
}

TEST(CheckPlanner, AssumeOnAnAlignedAllocaIsLeftOut) {
  const char *IR = R"(
declare void @llvm.assume(i1)
define void @f() {
  %buf = alloca [64 x i8], align 64
  %p = getelementptr inbounds [64 x i8], [64 x i8]* %buf, i64 0, i64 0
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 16)]
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::AssumeBundle);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Checked);
  EXPECT_TRUE(startsWith(L->Why, "aligned by construction")) << L->Why;
}

TEST(CheckPlanner, AssumeBeyondTheAllocasAlignmentIsChecked) {
  const char *IR = R"(
declare void @llvm.assume(i1)
define void @f() {
  %buf = alloca [64 x i8], align 8
  %p = getelementptr inbounds [64 x i8], [64 x i8]* %buf, i64 0, i64 0
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 16)]
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::AssumeBundle);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(P->leftOut(A), nullptr);
  EXPECT_GE(P->checkedAt(A), 0);
}

//===----------------------------------------------------------------------===//
// 7. The planner reads IR only.
//===----------------------------------------------------------------------===//

TEST(CheckPlanner, PlanningChangesNoIR) {
  // Assumes, a parameter, an access loop, fallback: every path that might
  // be tempted to touch the IR.
  const char *IR = R"(
declare void @llvm.assume(i1)
define void @f(float* align 32 %base, i8* %q, i64 %n, i32* %out) {
entry:
  store i32 0, i32* %out
  call void @llvm.assume(i1 true) ["align"(i8* %q, i64 64)]
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %preheader, label %exit
preheader:
  br label %loop
loop:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %loop ]
  %e = getelementptr inbounds float, float* %base, i64 %i
  %p = bitcast float* %e to <4 x float>*
  %v = load <4 x float>, <4 x float>* %p, align 16
  call void @llvm.assume(i1 true) ["align"(i8* %q, i64 32)]
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";
  auto P =
      plan(IR, request(FailureAction::Fallback, true, true), accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  EXPECT_FALSE(P->Plan.empty()); // it did plan something
  EXPECT_EQ(printModule(*P->M), P->Before);
}

//===----------------------------------------------------------------------===//
// 8. Not in the options' scope.
//===----------------------------------------------------------------------===//

TEST(CheckPlanner, ParameterOfANonEntryIsNotInScope) {
  const char *IR = R"(
define void @f(i8* align 16 %p) {
  ret void
}
)";
  CollectScope All;
  All.AllParams = true;
  auto P = plan(IR, request(FailureAction::Abort, /*IsEntry=*/false), All);
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::ParamAttr);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::NotInScope);
  EXPECT_EQ(L->Why,
            "not an entry point: its callers in this module make the promise");
}

// The type-alignment rule (Promises.h, isTypeAlignment): a reference's
// `align alignof(T) dereferenceable(sizeof(T))` (or nonnull) up to 16 is the
// type's; align 64 with dereferenceable (rustc's repr(align(64))), align 16
// with dereferenceable(4) (no type's) and a bare align 8 are promises.
const char *TypeAlignments = R"(
define void @f(i8* align 8 dereferenceable(16) %ref,
               i8* nonnull align 4 %slice,
               i8* align 16 dereferenceable_or_null(32) %maybe,
               i8* align 64 dereferenceable(64) %block,
               i8* align 16 dereferenceable(4) %odd,
               i8* align 8 %plain) {
  ret void
}
)";

TEST(CheckPlanner, TypeAlignmentsAreLeftOutByDefault) {
  auto P = plan(TypeAlignments, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const bool Type[] = {true, true, true, false, false, false};
  for (unsigned I = 0; I != 6; ++I) {
    SCOPED_TRACE(I);
    const AlignmentPromise *A = P->promise(PromiseKind::ParamAttr, I);
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(A->TypeImplied, Type[I]);
    const LeftOutPromise *L = P->leftOut(A);
    if (Type[I]) {
      ASSERT_NE(L, nullptr);
      EXPECT_EQ(L->Reason, LeftOutReason::TypeAlignment);
      EXPECT_EQ(L->Why, TypeAlignmentWhy);
    } else {
      EXPECT_EQ(L, nullptr);
      EXPECT_GE(P->checkedAt(A), 0);
    }
  }
}

TEST(CheckPlanner, TypeAlignmentRequestChecksThem) {
  PlanRequest R = request();
  R.TypeAlignment = true;
  auto P = plan(TypeAlignments, R);
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  for (unsigned I = 0; I != 6; ++I) {
    const AlignmentPromise *A = P->promise(PromiseKind::ParamAttr, I);
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(P->leftOut(A), nullptr) << I;
    EXPECT_GE(P->checkedAt(A), 0) << I;
  }
}

TEST(CheckPlanner, AlignmentOneIsTrivialEvenWhenUnsupported) {
  const char *IR = R"(
target datalayout = "ni:1"
define void @f(i8 addrspace(1)* align 1 %p, i8 addrspace(1)* align 8 %q) {
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const LeftOutPromise *One = P->leftOut(P->promise(PromiseKind::ParamAttr));
  ASSERT_NE(One, nullptr);
  EXPECT_EQ(One->Reason, LeftOutReason::Trivial);
  const LeftOutPromise *Eight =
      P->leftOut(P->promise(PromiseKind::ParamAttr, 1));
  ASSERT_NE(Eight, nullptr);
  EXPECT_EQ(Eight->Reason, LeftOutReason::Unsupported);
}

TEST(CheckPlanner, AccessWithoutTheAccessesOptionIsNotInScope) {
  auto P = plan(Step16Loop,
                request(FailureAction::Abort, true,
                        /*Accesses=*/false),
                accessScope());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::Access);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::NotInScope);
  EXPECT_EQ(L->Why, "accesses are checked only by align-guard<accesses>");
}

TEST(CheckPlanner, AccessOutsideAnEntryIsNotInScope) {
  // Collected as in an entry, planned for a function that is not one.
  auto P = plan(Step16Loop,
                request(FailureAction::Abort, /*IsEntry=*/false,
                        /*Accesses=*/true),
                accessScope(), "f", /*CollectAsEntry=*/1);
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *A = P->promise(PromiseKind::Access);
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(P->Plan.Sites.empty());
  const LeftOutPromise *L = P->leftOut(A);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::NotInScope);
  EXPECT_EQ(L->Why, "accesses are checked only in entry points");
}

//===----------------------------------------------------------------------===//
// Loops and ScalarEvolution only where a question needs them
// (LazyAnalysis.h).
//===----------------------------------------------------------------------===//

TEST(CheckPlanner, PromisesOnTwoArgumentsAskForNoLoopsOrScalarEvolution) {
  // Two opaque bases, one under a constant offset: ScalarEvolution could
  // not subtract them (AlignmentFacts::sameResidue), and is not made to
  // say so; both get checks. In the entry block, no promise is in a loop.
  const char *IR = R"(
declare void @llvm.assume(i1)
declare void @g()
define void @f(i8* %p, i8* %q) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  call void @g()
  %q16 = getelementptr i8, i8* %q, i64 16
  call void @llvm.assume(i1 true) ["align"(i8* %q16, i64 16)]
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  for (unsigned I = 0; I != 2; ++I) {
    const AlignmentPromise *A = P->promise(PromiseKind::AssumeBundle, I);
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(P->leftOut(A), nullptr) << I;
    EXPECT_GE(P->checkedAt(A), 0) << I;
  }
  EXPECT_FALSE(P->LazySE->made());
  EXPECT_FALSE(P->LazyLI->made());
}

TEST(CheckPlanner, AVariableOffsetFromACheckedPointerAsksScalarEvolution) {
  // %row is %p plus 64 * %i: a multiple of 64 from the checked %p, which
  // only ScalarEvolution sees; the check of %p covers it.
  const char *IR = R"(
declare void @llvm.assume(i1)
declare void @g()
define void @f(i8* %p, i64 %i) {
  call void @llvm.assume(i1 true) ["align"(i8* %p, i64 64)]
  call void @g()
  %off = shl i64 %i, 6
  %row = getelementptr i8, i8* %p, i64 %off
  call void @llvm.assume(i1 true) ["align"(i8* %row, i64 64)]
  ret void
}
)";
  auto P = plan(IR, request());
  ASSERT_PLANNED(P);
  SCOPED_TRACE(P->dump());
  const AlignmentPromise *First = P->promise(PromiseKind::AssumeBundle, 0);
  const AlignmentPromise *Row = P->promise(PromiseKind::AssumeBundle, 1);
  ASSERT_TRUE(First && Row);
  EXPECT_GE(P->checkedAt(First), 0);
  const LeftOutPromise *L = P->leftOut(Row);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Reason, LeftOutReason::Covered);
  EXPECT_TRUE(P->LazySE->made());
  EXPECT_FALSE(P->LazyLI->made());
}

} // namespace
