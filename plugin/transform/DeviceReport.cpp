//===- DeviceReport.cpp - A failing check reported from a GPU kernel ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "DeviceReport.h"

#include "Compat.h"
#include "GuardMarking.h"
#include "IRShapes.h"
#include "PromiseDescription.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace alignguard {

namespace {

constexpr const char *ClaimName = "__alignguard_device_claim";
constexpr const char *PrintfName = "vprintf";
constexpr const char *AssertName = "__assertfail";
/// ockl's append_args takes at most 7 values a call.
constexpr unsigned HIPArgsPerCall = 7;

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
  auto *GV = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
      Init, Name, nullptr, GlobalValue::NotThreadLocal,
      M.getDataLayout().getDefaultGlobalsAddressSpace());
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

/// The ROCm device libraries' stderr functions (hipPrintFunctions):
/// `i64 begin()`, `i64 append_string_n(i64, ptr, i64 length, i32 last)`,
/// `i64 append_args(i64, i32 count, i64 x 7, i32 last)`.
std::array<FunctionType *, 3> hipPrintTypes(LLVMContext &Ctx) {
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Type *, 10> Args = {I64, I32};
  Args.append(HIPArgsPerCall, I64);
  Args.push_back(I32);
  return {
      FunctionType::get(I64, false),
      FunctionType::get(I64, {I64, compat::bytePtrTy(Ctx), I64, I32}, false),
      FunctionType::get(I64, Args, false)};
}

/// The functions M's report calls, with their types.
SmallVector<std::pair<StringRef, FunctionType *>, 3>
printFunctions(const Module &M) {
  LLVMContext &Ctx = M.getContext();
  if (compat::targetTriple(M).isNVPTX())
    return {{PrintfName, printfType(Ctx)}, {AssertName, assertType(Ctx)}};
  std::array<FunctionType *, 3> Types = hipPrintTypes(Ctx);
  SmallVector<std::pair<StringRef, FunctionType *>, 3> Out;
  for (size_t I = 0; I != Types.size(); ++I)
    Out.push_back({hipPrintFunctions()[I], Types[I]});
  return Out;
}

using DeviceBuilder = IRBuilder<ConstantFolder, IRBuilderCallbackInserter>;

/// The flag the first failing thread of a launch claims, so that only it
/// prints: the id of the last launch that printed (all ones before any).
/// Another global of the name (the module's own) is left alone: this one
/// then gets another name.
GlobalVariable *claimFlag(Module &M) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  GlobalVariable *GV = M.getNamedGlobal(ClaimName);
  if (GV && GV->hasInternalLinkage() && GV->getValueType() == I64 &&
      GV->getAddressSpace() == 1)
    return GV;
  GV = new GlobalVariable(M, I64, /*isConstant=*/false,
                          GlobalValue::InternalLinkage,
                          ConstantInt::getAllOnesValue(I64), ClaimName, nullptr,
                          GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
  GV->setAlignment(Align(8));
  return GV;
}

/// This launch's id, distinct for each launch: PTX's %gridid (its low 32
/// bits, as LLVM reads it), AMDGPU's 64-bit dispatch id.
Value *launchId(DeviceBuilder &B, Module &M) {
  Intrinsic::ID ID = Intrinsic::amdgcn_dispatch_id;
  if (compat::targetTriple(M).isNVPTX())
    ID = Intrinsic::nvvm_read_ptx_sreg_gridid;
  Value *Id = B.CreateCall(compat::intrinsicDeclaration(&M, ID));
  return B.CreateZExtOrTrunc(Id, B.getInt64Ty());
}

/// block (x,y,z), then thread (x,y,z): PTX's special registers, AMDGPU's
/// workgroup and workitem ids.
SmallVector<Value *, 6> launchIds(DeviceBuilder &B, Module &M) {
  static const Intrinsic::ID PTX[] = {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                      Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                      Intrinsic::nvvm_read_ptx_sreg_ctaid_z,
                                      Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                      Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                      Intrinsic::nvvm_read_ptx_sreg_tid_z};
  static const Intrinsic::ID AMDGPU[] = {
      Intrinsic::amdgcn_workgroup_id_x, Intrinsic::amdgcn_workgroup_id_y,
      Intrinsic::amdgcn_workgroup_id_z, Intrinsic::amdgcn_workitem_id_x,
      Intrinsic::amdgcn_workitem_id_y,  Intrinsic::amdgcn_workitem_id_z};
  SmallVector<Value *, 6> Ids;
  for (Intrinsic::ID ID : compat::targetTriple(M).isNVPTX() ? PTX : AMDGPU)
    Ids.push_back(B.CreateCall(compat::intrinsicDeclaration(&M, ID)));
  return Ids;
}

/// The values the format prints, in its order: the pointer, its alignment
/// up to the promised one (the runtime's actual_alignment), the promised
/// alignment, how far past a boundary it is, then launchIds.
SmallVector<Value *, 10> reportValues(DeviceBuilder &B, Value *Pointer,
                                      Value *Alignment, Value *Offset) {
  Module &M = *B.GetInsertBlock()->getModule();
  Value *Addr = B.CreateSub(Pointer, Offset);
  Value *Past = B.CreateAnd(Addr, B.CreateSub(Alignment, B.getInt64(1)));
  Value *Low = B.CreateAnd(Addr, B.CreateNeg(Addr));
  Value *Whole = B.CreateOr(B.CreateICmpEQ(Low, B.getInt64(0)),
                            B.CreateICmpUGT(Low, Alignment));
  Value *Actual = B.CreateSelect(Whole, Alignment, Low);
  SmallVector<Value *, 10> Args = {Pointer, Actual, Alignment, Past};
  Args.append(launchIds(B, M));
  return Args;
}

/// The stack slot of F's entry block that vprintf's arguments are packed
/// in: one a function, shared by its places (only one thread's report runs,
/// once).
AllocaInst *argumentSlot(Function &F, StructType *Packed) {
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->getAllocatedType() == Packed &&
          compat::startsWith(AI->getName(), "ag.report.args"))
        return AI;
  LLVMContext &Ctx = F.getContext();
  DeviceBuilder EntryB(Ctx, ConstantFolder(),
                       IRBuilderCallbackInserter(NoSanitizeMarker(Ctx)));
  EntryB.SetInsertPoint(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = EntryB.CreateAlloca(
      Packed, F.getParent()->getDataLayout().getAllocaAddrSpace(), nullptr,
      "ag.report.args");
  Slot->setAlignment(Align(8));
  return Slot;
}

/// The report on NVPTX: vprintf, its arguments packed as clang packs them
/// (a struct of naturally aligned fields, in a stack slot of the entry
/// block).
void printPTX(DeviceBuilder &B, Value *Format, ArrayRef<Value *> Args) {
  Function &F = *B.GetInsertBlock()->getParent();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  SmallVector<Type *, 10> Fields;
  for (Value *V : Args)
    Fields.push_back(V->getType());
  StructType *Packed = StructType::get(Ctx, Fields);
  AllocaInst *Slot = argumentSlot(F, Packed);
  for (unsigned I = 0; I != Args.size(); ++I)
    B.CreateStore(Args[I], B.CreateStructGEP(Packed, Slot, I));
  Type *Bytes = compat::bytePtrTy(Ctx);
  FunctionCallee Printf = M.getOrInsertFunction(PrintfName, printfType(Ctx));
  B.CreateCall(Printf, {Format, B.CreatePointerCast(Slot, Bytes)});
}

/// The stop on NVPTX: __assertfail, whose error ends the launch and flushes
/// the line printed, then a trap.
void stopPTX(DeviceBuilder &B, const DebugLoc &Loc) {
  Function &F = *B.GetInsertBlock()->getParent();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I64 = B.getInt64Ty();
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

/// The length of Format with its NUL: a constant, or selected as Format is
/// (firstFailure's selects between the places' formats).
Value *formatLength(DeviceBuilder &B, Value *Format) {
  if (auto *Sel = dyn_cast<SelectInst>(Format)) {
    Value *True = formatLength(B, Sel->getTrueValue());
    Value *False = formatLength(B, Sel->getFalseValue());
    return True == False ? True
                         : B.CreateSelect(Sel->getCondition(), True, False);
  }
  auto *GV = cast<GlobalVariable>(Format->stripPointerCasts());
  return B.getInt64(
      cast<ConstantDataSequential>(GV->getInitializer())->getNumElements());
}

/// The report on AMDGPU: HIP's device stderr (the format, then the values
/// HIPArgsPerCall at a time, the last call flagged). The last call returns
/// once the host has printed the line.
void printHIP(DeviceBuilder &B, Value *Format, ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &Ctx = M.getContext();
  std::array<FunctionType *, 3> Types = hipPrintTypes(Ctx);
  FunctionCallee Begin =
      M.getOrInsertFunction(hipPrintFunctions()[0], Types[0]);
  FunctionCallee String =
      M.getOrInsertFunction(hipPrintFunctions()[1], Types[1]);
  FunctionCallee Values =
      M.getOrInsertFunction(hipPrintFunctions()[2], Types[2]);
  Value *Message = B.CreateCall(Begin);
  Message = B.CreateCall(
      String, {Message, Format, formatLength(B, Format), B.getInt32(0)});
  for (size_t First = 0; First < Args.size(); First += HIPArgsPerCall) {
    size_t Count = std::min<size_t>(HIPArgsPerCall, Args.size() - First);
    SmallVector<Value *, 10> Call = {Message, B.getInt32(Count)};
    for (size_t I = 0; I != HIPArgsPerCall; ++I)
      Call.push_back(I < Count ? B.CreateZExt(Args[First + I], B.getInt64Ty())
                               : B.getInt64(0));
    Call.push_back(B.getInt32(First + Count == Args.size()));
    Message = B.CreateCall(Values, Call);
  }
}

/// Whether U only lists a function in @llvm.used, @llvm.compiler.used or
/// @llvm.global.annotations, which call nothing.
bool onlyListed(const User *U) {
  if (auto *GV = dyn_cast<GlobalVariable>(U))
    return GV->getName() == "llvm.used" ||
           GV->getName() == "llvm.compiler.used" ||
           GV->getName() == "llvm.global.annotations";
  return isa<Constant>(U) && !U->user_empty() &&
         llvm::all_of(U->users(), [](const User *V) { return onlyListed(V); });
}

/// What the AMDGPU backend must keep for F's calls into the device
/// libraries: the hostcall buffer they print through. LLVM 14 passes it to
/// a module flagged "amdgpu_hostcall"; later LLVMs to every kernel not
/// marked "amdgpu-no-hostcall-ptr", which AMDGPUAttributor infers before
/// this pass where it runs in the optimisation pipeline (LLVM 19+). So F
/// and every function that may call it lose what was inferred of them.
void keepHostcallBuffer(Function &F) {
  Module &M = *F.getParent();
  if (!M.getModuleFlag("amdgpu_hostcall"))
    M.addModuleFlag(Module::Override, "amdgpu_hostcall", 1);
  SmallVector<Function *, 8> Work = {&F};
  SmallPtrSet<Function *, 8> Seen = {&F};
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    SmallVector<std::string, 16> Inferred;
    for (Attribute A : G->getAttributes().getFnAttrs())
      if (A.isStringAttribute() &&
          (compat::startsWith(A.getKindAsString(), "amdgpu-no-") ||
           A.getKindAsString() == "amdgpu-agpr-alloc"))
        Inferred.push_back(A.getKindAsString().str());
    for (const std::string &Name : Inferred)
      G->removeFnAttr(Name);
    if (G->getCallingConv() == CallingConv::AMDGPU_KERNEL)
      continue; // launched, never called
    for (User *U : G->users()) {
      if (onlyListed(U))
        continue;
      auto *Call = dyn_cast<CallBase>(U);
      Function *Caller =
          Call && Call->getCalledOperand() == G ? Call->getFunction() : nullptr;
      if (!Caller) { // called from where this cannot see: from anywhere
        for (Function &H : M)
          if (Seen.insert(&H).second)
            Work.push_back(&H);
        continue;
      }
      if (Seen.insert(Caller).second)
        Work.push_back(Caller);
    }
  }
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
  for (auto [Name, Type] : printFunctions(M)) {
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
  if (isGPUTarget(M)) // where abort is left, the device prints
    return checkDeviceReportFunctions(M);
  return checkReportHooks(M, SiteDescriptors(M).pointerType());
}

namespace {

/// Where the other failing threads go when the first stops the kernel
/// (Term, the unreachable end of the failing side): NVPTX's `exit`; on
/// AMDGPU a kernel's return, elsewhere a trap (they cannot leave the kernel
/// from there, and the trap may end the launch before the report).
void leaveKernel(DeviceBuilder &B, Instruction *Term) {
  Function &F = *Term->getFunction();
  LLVMContext &Ctx = F.getContext();
  B.SetInsertPoint(Term);
  if (compat::targetTriple(*F.getParent()).isNVPTX()) {
    B.CreateCall(InlineAsm::get(FunctionType::get(Type::getVoidTy(Ctx), false),
                                "exit;", "", /*hasSideEffects=*/true));
    return;
  }
  if (F.getCallingConv() == CallingConv::AMDGPU_KERNEL &&
      F.getReturnType()->isVoidTy() && isa<UnreachableInst>(Term)) {
    B.CreateRetVoid();
    Term->eraseFromParent();
    return;
  }
  compat::createTrap(B);
}

} // namespace

void emitDeviceReport(Instruction *Term, Value *Format, Value *Pointer,
                      Value *Alignment, Value *Offset, const DebugLoc &Loc,
                      bool Stop) {
  Module &M = *Term->getModule();
  LLVMContext &Ctx = M.getContext();
  DeviceBuilder B(Ctx, ConstantFolder(),
                  IRBuilderCallbackInserter(NoSanitizeMarker(Ctx)));
  B.SetInsertPoint(Term);
  B.SetCurrentDebugLocation(Loc);
  // Every thread of a launch fails a parameter's check at once: the first
  // to put the launch's id in the flag prints, the others leave without
  // the kernel's work. A later launch (return=N goes on) prints again.
  Value *Id = launchId(B, M);
  Value *Before = B.CreateAtomicRMW(AtomicRMWInst::Xchg, claimFlag(M), Id,
                                    MaybeAlign(8), AtomicOrdering::Monotonic);
  Value *Won = B.CreateICmpNE(Before, Id, "ag.first");
  Instruction *Report = SplitBlockAndInsertIfThen(Won, Term, Stop);
  Report->getParent()->setName("alignguard.report");
  Term->getParent()->setName(Stop ? "alignguard.leave" : "alignguard.return");
  markNoSanitize(Report);
  markNoSanitize(Report->getParent()->getSinglePredecessor()->getTerminator());
  B.SetInsertPoint(Report);
  SmallVector<Value *, 10> Args = reportValues(B, Pointer, Alignment, Offset);
  bool PTX = compat::targetTriple(M).isNVPTX();
  if (PTX) {
    printPTX(B, Format, Args);
  } else {
    printHIP(B, Format, Args);
    keepHostcallBuffer(*Term->getFunction());
  }
  if (!Stop)
    return;
  if (PTX)
    stopPTX(B, Loc);
  else
    compat::createTrap(B);
  leaveKernel(B, Term);
}

} // namespace alignguard
