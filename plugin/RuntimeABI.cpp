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
      StrTy(compat::bytePtrTy(M.getContext(), AddrSpace)),
      Zero32(ConstantInt::get(Type::getInt32Ty(M.getContext()), 0)),
      Zero64(ConstantInt::get(Type::getInt64Ty(M.getContext()), 0)),
      Version(ConstantInt::get(Type::getInt32Ty(M.getContext()), SiteVersion)) {
}

Constant *SiteDescriptors::field(unsigned Bits, uint64_t V) {
  if (V == 0)
    return Bits == 32 ? Zero32 : Zero64;
  return ConstantInt::get(Type::getIntNTy(M.getContext(), Bits), V);
}

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

Constant *SiteDescriptors::initializer(const SiteInfo &Site) {
  Constant *Fields[] = {
      Version,
      field(32, static_cast<unsigned>(Site.Kind)),
      string(Site.Function, /*NullIfEmpty=*/false),
      string(Site.Subject, /*NullIfEmpty=*/false),
      string(Site.File, /*NullIfEmpty=*/true),
      field(32, Site.Line),
      field(32, Site.Column),
      field(64, Site.Alignment),
      field(64, static_cast<uint64_t>(Site.Offset)),
      string(Site.PromiseFile, /*NullIfEmpty=*/true),
      field(32, Site.PromiseLine),
      field(32, Site.PromiseColumn),
  };
  return ConstantStruct::getAnon(M.getContext(), Fields);
}

Constant *SiteDescriptors::create(const SiteInfo &Site, Reuse *R) {
  // Constants are unique: equal fields, one initializer.
  Constant *Init = initializer(Site);
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

GlobalVariable *SiteDescriptors::createTable(ArrayRef<SiteInfo> Sites) {
  assert(Sites.size() >= 2 && Sites.size() <= MaxTableChecks);
  SmallVector<Constant *, 4> Inits;
  for (const SiteInfo &Site : Sites)
    Inits.push_back(initializer(Site));
  auto *Ty = ArrayType::get(Inits.front()->getType(), Inits.size());
  // Not unnamed_addr: the runtime deduplicates reports by descriptor address.
  return new GlobalVariable(
      M, Ty, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantArray::get(Ty, Inits), freshName("__alignguard_site", NextSite),
      nullptr, GlobalValue::NotThreadLocal, AddrSpace);
}

Constant *tableElementPointer(GlobalVariable &Table, unsigned Index) {
  // The first element is where the table is: no GEP (the folder would make
  // one and fold it away, and the context would keep it).
  Type *BytePtr =
      compat::bytePtrTy(Table.getContext(), Table.getAddressSpace());
  if (Index == 0)
    return ConstantExpr::getPointerCast(&Table, BytePtr);
  Type *I64 = Type::getInt64Ty(Table.getContext());
  Constant *Indices[] = {ConstantInt::get(I64, 0),
                         ConstantInt::get(I64, Index)};
  return ConstantExpr::getPointerCast(
      ConstantExpr::getInBoundsGetElementPtr(Table.getValueType(), &Table,
                                             Indices),
      BytePtr);
}

static bool isSiteTable(const GlobalVariable &GV) {
  auto *Ty = dyn_cast<ArrayType>(GV.getValueType());
  return Ty && Ty->getNumElements() >= 2 &&
         Ty->getNumElements() <= MaxTableChecks && GV.isConstant() &&
         GV.hasInitializer() && isa<ConstantArray>(GV.getInitializer()) &&
         GV.getName().take_front(17) == "__alignguard_site";
}

GlobalVariable *siteTable(Value *Site) {
  auto *GV = dyn_cast_or_null<GlobalVariable>(Site);
  return GV && isSiteTable(*GV) ? GV : nullptr;
}

std::optional<TableElement> tableElement(const GlobalVariable &Table,
                                         unsigned Index) {
  assert(isSiteTable(Table) && "tableElement takes what siteTable returned");
  auto *Entries = cast<ConstantArray>(Table.getInitializer());
  if (Index >= Entries->getNumOperands())
    return std::nullopt;
  auto *Fields = dyn_cast<ConstantStruct>(Entries->getOperand(Index));
  if (!Fields || Fields->getNumOperands() != 12)
    return std::nullopt;
  auto *Alignment = dyn_cast<ConstantInt>(Fields->getOperand(7));
  auto *Offset = dyn_cast<ConstantInt>(Fields->getOperand(8));
  if (!Alignment || !Offset)
    return std::nullopt;
  return TableElement{Alignment->getZExtValue(), Offset->getSExtValue()};
}

static FunctionType *hookType(LLVMContext &Ctx, Type *SitePtrTy,
                              HookShape Shape) {
  Type *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Type *, 6> Params{SitePtrTy, I64, I64, I64};
  if (Shape == HookShape::Table)
    Params = {I64, I64, I64, I64, SitePtrTy, I64};
  return FunctionType::get(Type::getVoidTy(Ctx), Params, /*isVarArg=*/false);
}

SmallVector<Value *, 6> hookArguments(HookShape Shape, Value *Site,
                                      ArrayRef<Value *> Rest) {
  SmallVector<Value *, 6> Args;
  if (Shape == HookShape::OneCheck) {
    assert(Rest.size() == 3 && "pointer, alignment, offset");
    Args.push_back(Site);
    Args.append(Rest.begin(), Rest.end());
  } else {
    assert(Rest.size() == MaxTableChecks + 1 && "the pointers, the count");
    Args.append(Rest.begin(), Rest.end() - 1);
    Args.push_back(Site);
    Args.push_back(Rest.back());
  }
  return Args;
}

namespace {
struct HookEntry {
  StringRef Name;
  HookKind Kind;
  HookShape Shape;
  const char *CType; ///< the runtime's parameters, for the error
};
constexpr const char *OneCheckCType =
    "void(const alignguard_site *, uint64_t, uint64_t, int64_t)";
constexpr const char *TableCType =
    "void(uint64_t, uint64_t, uint64_t, uint64_t, const alignguard_site *, "
    "uint64_t)";
/// In the order align-guard-cold-exits makes their thunks.
const HookEntry Hooks[] = {
    {ReportAbortHookName, HookKind::Abort, HookShape::OneCheck, OneCheckCType},
    {ReportHookName, HookKind::Report, HookShape::OneCheck, OneCheckCType},
    {FallbackHookName, HookKind::Fallback, HookShape::OneCheck, OneCheckCType},
    {"__alignguard_report_first_abort", HookKind::Abort, HookShape::Table,
     TableCType},
    {"__alignguard_report_first", HookKind::Report, HookShape::Table,
     TableCType},
    {"__alignguard_fallback_first", HookKind::Fallback, HookShape::Table,
     TableCType},
};
const HookEntry *findHook(StringRef Name) {
  for (const HookEntry &H : Hooks)
    if (H.Name == Name)
      return &H;
  return nullptr;
}
} // namespace

StringRef hookName(HookKind Kind, HookShape Shape) {
  for (const HookEntry &H : Hooks)
    if (H.Kind == Kind && H.Shape == Shape)
      return H.Name;
  llvm_unreachable("every kind has a hook of each shape");
}

ArrayRef<StringRef> hookNames() {
  static const SmallVector<StringRef, 6> Names = [] {
    SmallVector<StringRef, 6> N;
    for (const HookEntry &H : Hooks)
      N.push_back(H.Name);
    return N;
  }();
  return Names;
}

bool isHookName(StringRef Name) { return findHook(Name); }

bool isAbortHookName(StringRef Name) {
  const HookEntry *H = findHook(Name);
  return H && H->Kind == HookKind::Abort;
}

bool isFallbackHookName(StringRef Name) {
  const HookEntry *H = findHook(Name);
  return H && H->Kind == HookKind::Fallback;
}

std::string checkReportHooks(const Module &M, Type *SitePtrTy) {
  for (const HookEntry &H : Hooks) {
    const GlobalValue *GV = M.getNamedValue(H.Name);
    if (!GV)
      continue;
    auto *F = dyn_cast<Function>(GV);
    if (!F)
      return "'" + H.Name.str() + "' is not a function in this module";
    if (F->getFunctionType() != hookType(M.getContext(), SitePtrTy, H.Shape))
      return "'" + H.Name.str() +
             "' is declared with another type than the runtime's " + H.CType;
  }
  return "";
}

FunctionCallee getHook(Module &M, HookKind Kind, Type *SitePtrTy,
                       HookShape Shape) {
  bool Abort = Kind == HookKind::Abort;
  FunctionCallee Hook = M.getOrInsertFunction(
      hookName(Kind, Shape), hookType(M.getContext(), SitePtrTy, Shape));
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
