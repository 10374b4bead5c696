//===- DeviceReport.cpp - A failing check reported from an NVPTX kernel ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "DeviceReport.h"

#include "Compat.h"
#include "GuardMarking.h"
#include "IRShapes.h"
#include "PromiseDescription.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace alignguard {

namespace {

constexpr const char *ClaimName = "__alignguard_device_claim";
constexpr const char *PrintfName = "vprintf";
constexpr const char *AssertName = "__assertfail";

/// Text from the IR written into a printf format: escaped as every report
/// escapes it (escapeControlBytes), `%` doubled.
std::string formatText(StringRef Text) {
  std::string Out;
  for (char C : escapeControlBytes(Text)) {
    if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}

std::string location(const std::string &File, unsigned Line, unsigned Column) {
  std::string Out = formatText(File);
  if (Line) {
    Out += ":" + std::to_string(Line);
    if (Column)
      Out += ":" + std::to_string(Column);
  }
  return Out;
}

/// A private constant string of M, as a byte pointer.
Constant *stringConstant(Module &M, StringRef Text, const Twine &Name) {
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return ConstantExpr::getPointerCast(GV, compat::bytePtrTy(M.getContext()));
}

FunctionType *printfType(LLVMContext &Ctx) {
  Type *Bytes = compat::bytePtrTy(Ctx);
  return FunctionType::get(Type::getInt32Ty(Ctx), {Bytes, Bytes}, false);
}

FunctionType *assertType(LLVMContext &Ctx) {
  Type *Bytes = compat::bytePtrTy(Ctx);
  return FunctionType::get(
      Type::getVoidTy(Ctx),
      {Bytes, Bytes, Type::getInt32Ty(Ctx), Bytes, Type::getInt64Ty(Ctx)},
      false);
}

/// The flag the first failing thread of a launch claims: only it prints.
GlobalVariable *claimFlag(Module &M) {
  if (GlobalVariable *GV = M.getNamedGlobal(ClaimName))
    return GV;
  Type *I32 = Type::getInt32Ty(M.getContext());
  auto *GV = new GlobalVariable(
      M, I32, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantInt::get(I32, 0), ClaimName, nullptr, GlobalValue::NotThreadLocal,
      /*AddressSpace=*/1);
  GV->setAlignment(Align(4));
  return GV;
}

using DeviceBuilder = IRBuilder<ConstantFolder, IRBuilderCallbackInserter>;

/// block (x,y,z), then thread (x,y,z): the PTX special registers.
SmallVector<Value *, 6> launchIds(DeviceBuilder &B, Module &M) {
  SmallVector<Value *, 6> Ids;
  for (Intrinsic::ID ID : {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                           Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                           Intrinsic::nvvm_read_ptx_sreg_ctaid_z,
                           Intrinsic::nvvm_read_ptx_sreg_tid_x,
                           Intrinsic::nvvm_read_ptx_sreg_tid_y,
                           Intrinsic::nvvm_read_ptx_sreg_tid_z})
    Ids.push_back(B.CreateCall(compat::intrinsicDeclaration(&M, ID)));
  return Ids;
}

/// The report: vprintf's arguments packed as clang packs them (a struct
/// of naturally aligned fields, in a stack slot of the entry block), then
/// __assertfail and a trap.
void printAndStop(DeviceBuilder &B, Value *Format, Value *Pointer,
                  Value *Alignment, Value *Offset, const DebugLoc &Loc) {
  Function &F = *B.GetInsertBlock()->getParent();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I64 = B.getInt64Ty();
  // What the runtime prints: the address's alignment up to the promised
  // one (actual_alignment) and how far past a boundary it is.
  Value *Addr = B.CreateSub(Pointer, Offset);
  Value *Past = B.CreateAnd(Addr, B.CreateSub(Alignment, B.getInt64(1)));
  Value *Low = B.CreateAnd(Addr, B.CreateNeg(Addr));
  Value *Whole = B.CreateOr(B.CreateICmpEQ(Low, B.getInt64(0)),
                            B.CreateICmpUGT(Low, Alignment));
  Value *Actual = B.CreateSelect(Whole, Alignment, Low);
  SmallVector<Value *, 10> Args = {Pointer, Actual, Alignment, Past};
  Args.append(launchIds(B, M));
  SmallVector<Type *, 10> Fields;
  for (Value *V : Args)
    Fields.push_back(V->getType());
  StructType *Packed = StructType::get(Ctx, Fields);
  const DataLayout &DL = M.getDataLayout();
  DeviceBuilder EntryB(Ctx, ConstantFolder(),
                       IRBuilderCallbackInserter(NoSanitizeMarker(Ctx)));
  EntryB.SetInsertPoint(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = EntryB.CreateAlloca(Packed, DL.getAllocaAddrSpace(),
                                         nullptr, "ag.report.args");
  Slot->setAlignment(Align(8));
  for (unsigned I = 0; I != Args.size(); ++I)
    B.CreateStore(Args[I], B.CreateStructGEP(Packed, Slot, I));
  Type *Bytes = compat::bytePtrTy(Ctx);
  FunctionCallee Printf = M.getOrInsertFunction(PrintfName, printfType(Ctx));
  B.CreateCall(Printf, {Format, B.CreatePointerCast(Slot, Bytes)});
  // The driver's assert error ends the launch and flushes the line above.
  DILocation *DL2 = Loc.get();
  std::string File = DL2 ? DL2->getFilename().str() : "";
  FunctionCallee Assert = M.getOrInsertFunction(AssertName, assertType(Ctx));
  B.CreateCall(Assert,
               {stringConstant(M,
                               "alignguard: a pointer broke its alignment "
                               "promise (the report above)",
                               "__alignguard_device_assert"),
                stringConstant(M, File, "__alignguard_device_file"),
                B.getInt32(DL2 ? DL2->getLine() : 0),
                stringConstant(M, F.getName(), "__alignguard_device_function"),
                ConstantInt::get(I64, 1)});
  compat::createTrap(B);
}

} // namespace

Constant *deviceReportFormat(Module &M, const SiteInfo &Site) {
  std::string Text = "alignguard: " + formatText(Site.Function) + ": " +
                     formatText(Site.Subject) + " = 0x%llx";
  if (Site.Offset > 0)
    Text += " - " + std::to_string(Site.Offset);
  else if (Site.Offset < 0)
    Text += " + " + std::to_string(0 - static_cast<uint64_t>(Site.Offset));
  Text += " is %llu-byte aligned, not %llu-byte aligned (%llu bytes past a "
          "boundary)";
  if (!Site.File.empty())
    Text += " at " + location(Site.File, Site.Line, Site.Column);
  if (!Site.PromiseFile.empty() &&
      !(Site.PromiseFile == Site.File && Site.PromiseLine == Site.Line &&
        Site.PromiseColumn == Site.Column))
    Text += ", promised at " +
            location(Site.PromiseFile, Site.PromiseLine, Site.PromiseColumn);
  Text += " [block (%u,%u,%u) thread (%u,%u,%u)]\n";
  return stringConstant(M, Text, "__alignguard_device_format");
}

std::string checkDeviceReportFunctions(const Module &M) {
  LLVMContext &Ctx = M.getContext();
  for (auto [Name, Type] : {std::pair(PrintfName, printfType(Ctx)),
                            std::pair(AssertName, assertType(Ctx))}) {
    const GlobalValue *GV = M.getNamedValue(Name);
    if (!GV)
      continue;
    auto *F = dyn_cast<Function>(GV);
    if (!F || F->getFunctionType() != Type)
      return "'" + std::string(Name) +
             "' is declared with another type than the device report calls";
  }
  return "";
}

std::string checkFailureCalls(Module &M, FailureAction Action) {
  if (Action == FailureAction::Trap)
    return "";
  if (reportsFromDevice(M))
    return checkDeviceReportFunctions(M);
  return checkReportHooks(M, SiteDescriptors(M).pointerType());
}

void emitDeviceReport(Instruction *Term, Value *Format, Value *Pointer,
                      Value *Alignment, Value *Offset, const DebugLoc &Loc) {
  Module &M = *Term->getModule();
  LLVMContext &Ctx = M.getContext();
  DeviceBuilder B(Ctx, ConstantFolder(),
                  IRBuilderCallbackInserter(NoSanitizeMarker(Ctx)));
  B.SetInsertPoint(Term);
  B.SetCurrentDebugLocation(Loc);
  // Every thread of a launch fails a parameter's check at once: the first
  // to claim the flag prints, the others leave without the kernel's work.
  Value *Claim = B.CreateAtomicCmpXchg(
      claimFlag(M), B.getInt32(0), B.getInt32(1), MaybeAlign(4),
      AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
  Value *Won = B.CreateExtractValue(Claim, 1, "ag.first");
  Instruction *Report =
      SplitBlockAndInsertIfThen(Won, Term, /*Unreachable=*/true);
  Report->getParent()->setName("alignguard.report");
  Term->getParent()->setName("alignguard.leave");
  markNoSanitize(Report);
  markNoSanitize(Report->getParent()->getSinglePredecessor()->getTerminator());
  auto *Exit = InlineAsm::get(FunctionType::get(Type::getVoidTy(Ctx), false),
                              "exit;", "", /*hasSideEffects=*/true);
  B.SetInsertPoint(Term);
  B.CreateCall(Exit);
  B.SetInsertPoint(Report);
  printAndStop(B, Format, Pointer, Alignment, Offset, Loc);
}

} // namespace alignguard
