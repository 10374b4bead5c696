//===- RuntimeABI.cpp - The pass's side of the runtime's C ABI -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "RuntimeABI.h"

#include "Compat.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace alignguard {

SiteInfo SiteInfo::from(const PromiseDescription &D) {
  SiteInfo Site;
  Site.Kind = D.Kind;
  Site.Function = D.Function;
  Site.Subject = D.Subject;
  Site.File = D.File;
  Site.Line = D.Line;
  Site.Column = D.Column;
  Site.Alignment = D.Alignment.value_or(0);
  Site.Offset = D.Offset.value_or(0);
  Site.PromiseFile = D.PromisedFile;
  Site.PromiseLine = D.PromisedLine;
  Site.PromiseColumn = D.PromisedColumn;
  return Site;
}

SiteDescriptors::SiteDescriptors(Module &M)
    : M(M), AddrSpace(M.getDataLayout().getDefaultGlobalsAddressSpace()),
      StrTy(compat::bytePtrTy(M.getContext(), AddrSpace)) {}

std::string SiteDescriptors::freshName(StringRef Base, unsigned &Next) const {
  // Base and Base.1 .. Base.Next are taken (this table named them, or
  // skipped them as taken): start past them rather than look each up again.
  SmallString<32> Name(Base);
  if (Next)
    raw_svector_ostream(Name) << '.' << ++Next;
  while (M.getNamedValue(Name)) {
    Name.resize(Base.size());
    raw_svector_ostream(Name) << '.' << ++Next;
  }
  return std::string(Name);
}

Constant *SiteDescriptors::string(StringRef Text, bool NullIfEmpty) {
  if (Text.empty() && NullIfEmpty)
    return ConstantPointerNull::get(cast<PointerType>(StrTy));
  Constant *&Slot = Strings[Text];
  if (Slot)
    return Slot;
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text);
  auto *GV = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
      Init, freshName("__alignguard_str", NextString), nullptr,
      GlobalValue::NotThreadLocal, AddrSpace);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return Slot = ConstantExpr::getPointerCast(GV, StrTy);
}

Constant *SiteDescriptors::create(const SiteInfo &Site, Reuse *R) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Constant *Fields[] = {
      ConstantInt::get(I32, SiteVersion),
      ConstantInt::get(I32, static_cast<unsigned>(Site.Kind)),
      string(Site.Function, /*NullIfEmpty=*/false),
      string(Site.Subject, /*NullIfEmpty=*/false),
      string(Site.File, /*NullIfEmpty=*/true),
      ConstantInt::get(I32, Site.Line),
      ConstantInt::get(I32, Site.Column),
      ConstantInt::get(I64, Site.Alignment),
      ConstantInt::get(I64, static_cast<uint64_t>(Site.Offset)),
      string(Site.PromiseFile, /*NullIfEmpty=*/true),
      ConstantInt::get(I32, Site.PromiseLine),
      ConstantInt::get(I32, Site.PromiseColumn),
  };
  // Constants are unique: equal fields, one initializer.
  Constant *Init = ConstantStruct::getAnon(Ctx, Fields);
  SmallVector<Constant *, 1> &Same = Made[Init];
  if (R) {
    unsigned &K = R->Taken[Init];
    if (K < Same.size())
      return Same[K++];
    ++K;
  }
  // Not unnamed_addr: the runtime deduplicates reports by descriptor address.
  auto *GV = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
      Init, freshName("__alignguard_site", NextSite), nullptr,
      GlobalValue::NotThreadLocal, AddrSpace);
  Same.push_back(ConstantExpr::getPointerCast(GV, StrTy));
  return Same.back();
}

static FunctionType *hookType(LLVMContext &Ctx, Type *SitePtrTy) {
  Type *I64 = Type::getInt64Ty(Ctx);
  return FunctionType::get(Type::getVoidTy(Ctx), {SitePtrTy, I64, I64, I64},
                           /*isVarArg=*/false);
}

std::string checkReportHooks(const Module &M, Type *SitePtrTy) {
  FunctionType *Expected = hookType(M.getContext(), SitePtrTy);
  for (const char *Name :
       {ReportHookName, ReportAbortHookName, FallbackHookName}) {
    const GlobalValue *GV = M.getNamedValue(Name);
    if (!GV)
      continue;
    auto *F = dyn_cast<Function>(GV);
    if (!F)
      return std::string("'") + Name + "' is not a function in this module";
    if (F->getFunctionType() != Expected)
      return std::string("'") + Name +
             "' is declared with another type than the runtime's "
             "void(const alignguard_site *, uint64_t, uint64_t, int64_t)";
  }
  return "";
}

FunctionCallee getHook(Module &M, HookKind Kind, Type *SitePtrTy) {
  bool Abort = Kind == HookKind::Abort;
  StringRef Name = Kind == HookKind::Report  ? ReportHookName
                   : Kind == HookKind::Abort ? ReportAbortHookName
                                             : FallbackHookName;
  FunctionCallee Hook =
      M.getOrInsertFunction(Name, hookType(M.getContext(), SitePtrTy));
  auto *F = cast<Function>(Hook.getCallee()); // checkReportHooks made sure
  if (F->isDeclaration()) {
    // Not nounwind: a user handler may throw or longjmp out of the report.
    F->addFnAttr(Attribute::Cold);
    if (Abort)
      F->addFnAttr(Attribute::NoReturn);
  }
  return Hook;
}

} // namespace alignguard
