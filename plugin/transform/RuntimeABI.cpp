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

namespace {
/// alignguard_packed_site's fields: their offsets in a descriptor.
enum PackedField : unsigned {
  PackedVersion = 0,
  PackedKind = 4,
  PackedFunction = 8,
  PackedSubject = 12,
  PackedFile = 16,
  PackedLine = 20,
  PackedColumn = 24,
  PackedPromiseFile = 28,
  PackedAlignment = 32,
  PackedOffset = 40,
  PackedPromiseLine = 48,
  PackedPromiseColumn = 52,
};
static_assert(PackedPromiseColumn + 4 == PackedSiteSize, "56 bytes");

/// A packed table's bytes: the descriptors, then their strings.
class PackedTable {
public:
  PackedTable(size_t Count, compat::Endianness Order)
      : Descriptors(Count * PackedSiteSize, '\0'), Order(Order) {}

  /// The Index-th descriptor's fields, from Site.
  void set(unsigned Index, const SiteInfo &Site) {
    size_t At = size_t(Index) * PackedSiteSize;
    put(At + PackedVersion, PackedSiteVersion, 4);
    put(At + PackedKind, static_cast<unsigned>(Site.Kind), 4);
    put(At + PackedFunction, string(Site.Function, At, false), 4);
    put(At + PackedSubject, string(Site.Subject, At, false), 4);
    put(At + PackedFile, string(Site.File, At, true), 4);
    put(At + PackedLine, Site.Line, 4);
    put(At + PackedColumn, Site.Column, 4);
    put(At + PackedPromiseFile, string(Site.PromiseFile, At, true), 4);
    put(At + PackedAlignment, Site.Alignment, 8);
    put(At + PackedOffset, static_cast<uint64_t>(Site.Offset), 8);
    put(At + PackedPromiseLine, Site.PromiseLine, 4);
    put(At + PackedPromiseColumn, Site.PromiseColumn, 4);
  }

  /// { [descriptors x i8], [strings x i8] }.
  Constant *initializer(LLVMContext &Ctx) const {
    Constant *Parts[] = {
        ConstantDataArray::getString(Ctx, Descriptors, /*AddNull=*/false),
        ConstantDataArray::getString(Ctx, Strings, /*AddNull=*/false)};
    return ConstantStruct::getAnon(Ctx, Parts);
  }

private:
  /// Text's offset from the descriptor at Descriptor, the first time
  /// appending it (NUL-terminated) to the strings; 0 for an empty one when
  /// asked (the runtime reads 0 as "no debug info").
  uint64_t string(StringRef Text, size_t Descriptor, bool NoneIfEmpty) {
    if (Text.empty() && NoneIfEmpty)
      return 0;
    auto Found = Offsets.try_emplace(Text, Strings.size());
    if (Found.second) {
      Strings.append(Text.begin(), Text.end());
      Strings.push_back('\0');
    }
    uint64_t Offset = Descriptors.size() + Found.first->second - Descriptor;
    assert(Offset <= UINT32_MAX && "a table's strings fit 32-bit offsets");
    return Offset;
  }

  /// The field of Bytes (4 or 8) bytes at At.
  void put(size_t At, uint64_t V, unsigned Bytes) {
    assert((Bytes == 4 || Bytes == 8) && "a packed field is 4 or 8 bytes");
    if (Bytes == 4)
      support::endian::write<uint32_t, support::unaligned>(
          &Descriptors[At], static_cast<uint32_t>(V), Order);
    else
      support::endian::write<uint64_t, support::unaligned>(&Descriptors[At], V,
                                                           Order);
  }

  std::string Descriptors, Strings;
  StringMap<size_t> Offsets;
  compat::Endianness Order;
};

/// The table's descriptors' bytes (its first part).
StringRef descriptorBytes(const GlobalVariable &Table) {
  auto *Parts = cast<ConstantStruct>(Table.getInitializer());
  return cast<ConstantDataArray>(Parts->getOperand(0))->getRawDataValues();
}

/// The field of Bytes (4 or 8) bytes at At in a table's descriptors.
uint64_t packedField(const GlobalVariable &Table, size_t At, unsigned Bytes) {
  assert((Bytes == 4 || Bytes == 8) && "a packed field is 4 or 8 bytes");
  const char *Field = descriptorBytes(Table).data() + At;
  compat::Endianness Order =
      compat::byteOrder(Table.getParent()->getDataLayout());
  if (Bytes == 4)
    return support::endian::read<uint32_t, support::unaligned>(Field, Order);
  return support::endian::read<uint64_t, support::unaligned>(Field, Order);
}
} // namespace

GlobalVariable *SiteDescriptors::createTable(ArrayRef<SiteInfo> Sites) {
  assert(Sites.size() >= 2 && Sites.size() <= MaxTableChecks);
  PackedTable Bytes(Sites.size(), compat::byteOrder(M.getDataLayout()));
  for (unsigned I = 0; I != Sites.size(); ++I)
    Bytes.set(I, Sites[I]);
  Constant *Init = Bytes.initializer(M.getContext());
  // Not unnamed_addr: the runtime deduplicates reports by descriptor address.
  auto *GV = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
      Init, freshName("__alignguard_site", NextSite), nullptr,
      GlobalValue::NotThreadLocal, AddrSpace);
  GV->setAlignment(Align(8)); // the descriptors' 64-bit fields
  return GV;
}

Constant *tableElementPointer(GlobalVariable &Table, unsigned Index) {
  // The first element is where the table is: no GEP of ours (the folder
  // would make one and fold it away, and the context would keep it; on
  // typed pointers the cast itself folds to a GEP of the first byte).
  Type *BytePtr =
      compat::bytePtrTy(Table.getContext(), Table.getAddressSpace());
  if (Index == 0)
    return ConstantExpr::getPointerCast(&Table, BytePtr);
  LLVMContext &Ctx = Table.getContext();
  Constant *Indices[] = {
      ConstantInt::get(Type::getInt64Ty(Ctx), 0),
      ConstantInt::get(Type::getInt32Ty(Ctx), 0),
      ConstantInt::get(Type::getInt64Ty(Ctx), Index * PackedSiteSize)};
  return ConstantExpr::getPointerCast(
      ConstantExpr::getInBoundsGetElementPtr(Table.getValueType(), &Table,
                                             Indices),
      BytePtr);
}

/// Whether GV bears the name SiteDescriptors gives descriptors and tables
/// (freshName: "__alignguard_site", then a number past the first).
static bool hasSiteName(const GlobalVariable &GV) {
  return compat::startsWith(GV.getName(), "__alignguard_site");
}

/// A table createTable made: { [K * PackedSiteSize x i8], [N x i8] } with
/// 2 to MaxTableChecks descriptors of PackedSiteVersion.
static bool isSiteTable(const GlobalVariable &GV) {
  if (!GV.isConstant() || !GV.hasInitializer() || !GV.hasLocalLinkage() ||
      !hasSiteName(GV))
    return false;
  auto *Parts = dyn_cast<ConstantStruct>(GV.getInitializer());
  if (!Parts || Parts->getNumOperands() != 2)
    return false;
  auto *Strings = dyn_cast<ArrayType>(Parts->getOperand(1)->getType());
  if (!Strings || !Strings->getElementType()->isIntegerTy(8))
    return false;
  auto *Descriptors = dyn_cast<ConstantDataArray>(Parts->getOperand(0));
  if (!Descriptors || !Descriptors->isString())
    return false;
  size_t Size = Descriptors->getNumElements();
  return Size % PackedSiteSize == 0 && Size >= 2 * PackedSiteSize &&
         Size <= MaxTableChecks * PackedSiteSize &&
         packedField(GV, PackedVersion, 4) == PackedSiteVersion;
}

GlobalVariable *siteTable(Value *Site) {
  auto *GV = dyn_cast_or_null<GlobalVariable>(Site);
  return GV && isSiteTable(*GV) ? GV : nullptr;
}

bool isOldSiteTable(const Value *Site) {
  auto *GV = dyn_cast_or_null<GlobalVariable>(Site);
  return GV && hasSiteName(*GV) && GV->getValueType()->isArrayTy();
}

unsigned tableSize(const GlobalVariable &Table) {
  assert(isSiteTable(Table) && "tableSize takes what siteTable returned");
  return descriptorBytes(Table).size() / PackedSiteSize;
}

std::optional<TableElement> tableElement(const GlobalVariable &Table,
                                         unsigned Index) {
  assert(isSiteTable(Table) && "tableElement takes what siteTable returned");
  if (Index >= tableSize(Table))
    return std::nullopt;
  size_t At = size_t(Index) * PackedSiteSize;
  return TableElement{
      packedField(Table, At + PackedAlignment, 8),
      static_cast<int64_t>(packedField(Table, At + PackedOffset, 8))};
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

std::string checkReportHooks(const Module &M, Type *SitePtrTy) {
  for (const HookEntry &H : hooks()) {
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
