//===- PlaceChecksTest.cpp - One place's checks and their descriptors ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// emitPlaceChecks and a deferred place (emitDeferredPlace, then
// expandDeferredChecks) on checks that name one table of descriptors
// (SiteDescriptors::createTable) and their elements in it
// (PlaceCheck::Element): the hook calls name the right descriptors, and a
// pointer to an element is made only where a call takes it: the context
// keeps every constant expression made, and a module of many kernels paid
// for one per check (bench/README.md, compile time).
//
// The IR uses typed pointers (i8*, float*): LLVM 14's parser needs them, and
// later parsers read them as `ptr`.
//
//===----------------------------------------------------------------------===//
#include "CheckEmitter.h"
#include "DeferredPlaces.h"
#include "RuntimeABI.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace alignguard;
using namespace llvm;

namespace {

constexpr const char *KernelIR = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k(float* %out, float* %a, float* %b) {
entry:
  ret void
}
)IR";

/// k's three arguments checked at its entry for 64, 64 and 32 bytes, each
/// named by its element of one table.
struct TablePlace {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  GlobalVariable *Table = nullptr;
  std::vector<PlaceCheck> Checks;

  TablePlace() {
    SMDiagnostic Err;
    M = parseAssemblyString(KernelIR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("PlaceChecksTest", OS);
      ADD_FAILURE() << OS.str();
      return;
    }
    F = M->getFunction("k");
    SiteDescriptors Sites(*M);
    std::vector<SiteInfo> Infos;
    const uint64_t Alignments[] = {64, 64, 32};
    for (unsigned I = 0; I != 3; ++I) {
      SiteInfo S;
      S.Kind = PromiseKind::ParamAttr;
      S.Function = "k";
      S.Subject = "argument #" + std::to_string(I);
      S.Alignment = Alignments[I];
      Infos.push_back(S);
    }
    Table = Sites.createTable(Infos);
    Type *I64 = Type::getInt64Ty(Ctx);
    for (unsigned I = 0; I != 3; ++I) {
      PlaceCheck C{F->getArg(I), ConstantInt::get(I64, Alignments[I])};
      C.Site = Table;
      C.Element = I;
      Checks.push_back(C);
    }
  }

  Instruction *entry() { return &F->getEntryBlock().front(); }

  /// The calls of the hook named Hook in k.
  std::vector<CallInst *> callsOf(StringRef Hook) {
    std::vector<CallInst *> Calls;
    for (Instruction &I : instructions(*F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction();
            Callee && Callee->getName() == Hook)
          Calls.push_back(CI);
    return Calls;
  }
};

/// Which element of Table Site points to, or -1.
int elementOf(Value *Site, GlobalVariable *Table, const DataLayout &DL) {
  APInt Bytes(DL.getIndexTypeSizeInBits(Site->getType()), 0);
  if (Site->stripAndAccumulateConstantOffsets(DL, Bytes, false) != Table)
    return -1;
  if (Bytes.getZExtValue() % SiteSize != 0)
    return -1;
  return static_cast<int>(Bytes.getZExtValue() / SiteSize);
}

/// True when C, a constant, is used by an instruction, itself or through
/// other constants.
bool reachesAnInstruction(const Constant *C) {
  for (const User *U : C->users()) {
    if (isa<Instruction>(U))
      return true;
    if (auto *UC = dyn_cast<Constant>(U); UC && reachesAnInstruction(UC))
      return true;
  }
  return false;
}

/// Table's constant users that nothing uses: what was made and dropped.
unsigned deadConstantUsers(const GlobalVariable *Table) {
  unsigned Dead = 0;
  for (const User *U : Table->users())
    if (auto *C = dyn_cast<Constant>(U); C && !reachesAnInstruction(C))
      ++Dead;
  return Dead;
}

TEST(PlaceChecksTest, DeferredTablePlaceCallsTheTableHookAndMakesNoElements) {
  TablePlace P;
  ASSERT_TRUE(P.M);
  FailurePolicy Abort;
  emitDeferredPlace(P.Checks, Abort, P.entry());
  ASSERT_EQ(expandDeferredChecks(*P.M), 1u);
  std::string Err;
  raw_string_ostream OS(Err);
  ASSERT_FALSE(verifyModule(*P.M, &OS)) << OS.str();
  std::vector<CallInst *> Calls =
      P.callsOf("__alignguard_report_first_abort");
  ASSERT_EQ(Calls.size(), 1u);
  // The table hook: four pointers, the table (its first element), count.
  CallInst *Call = Calls.front();
  ASSERT_EQ(Call->arg_size(), 6u);
  EXPECT_EQ(elementOf(Call->getArgOperand(4), P.Table, P.M->getDataLayout()),
            0);
  EXPECT_EQ(cast<ConstantInt>(Call->getArgOperand(5))->getZExtValue(), 3u);
  // The marker named the table; no element pointer was made for it.
  EXPECT_EQ(deadConstantUsers(P.Table), 0u);
}

TEST(PlaceChecksTest, RecoverReportsEachCheckByItsOwnElement) {
  TablePlace P;
  ASSERT_TRUE(P.M);
  FailurePolicy Recover;
  Recover.Action = FailureAction::Recover;
  emitPlaceChecks(P.Checks, Recover, P.entry(), /*Copy=*/nullptr);
  std::string Err;
  raw_string_ostream OS(Err);
  ASSERT_FALSE(verifyModule(*P.M, &OS)) << OS.str();
  std::vector<CallInst *> Calls = P.callsOf(ReportHookName);
  ASSERT_EQ(Calls.size(), 3u);
  // Each culprit block reports its own pointer by its own descriptor.
  for (unsigned I = 0; I != 3; ++I) {
    EXPECT_EQ(
        elementOf(Calls[I]->getArgOperand(0), P.Table, P.M->getDataLayout()),
        static_cast<int>(I));
    auto *Bits = dyn_cast<PtrToIntInst>(Calls[I]->getArgOperand(1));
    ASSERT_TRUE(Bits);
    EXPECT_EQ(Bits->getPointerOperand(), P.F->getArg(I));
  }
  EXPECT_EQ(deadConstantUsers(P.Table), 0u);
}

} // namespace
