//===- RuntimeABI.cpp - The pass's side of the runtime's C ABI -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "RuntimeABI.h"

#include "Compat.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
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

Type *SiteDescriptors::pointerType() const {
  return compat::bytePtrTy(M.getContext(),
                           M.getDataLayout().getDefaultGlobalsAddressSpace());
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

namespace {
/// alignguard_site's fields: their offsets in a descriptor.
enum SiteField : unsigned {
  FieldVersion = 0,
  FieldKind = 4,
  FieldFunction = 8,
  FieldSubject = 12,
  FieldFile = 16,
  FieldLine = 20,
  FieldColumn = 24,
  FieldPromiseFile = 28,
  FieldAlignment = 32,
  FieldOffset = 40,
  FieldPromiseLine = 48,
  FieldPromiseColumn = 52,
};
static_assert(FieldPromiseColumn + 4 == SiteSize, "56 bytes");

/// A block's bytes: the descriptors, then their strings.
class BlockBytes {
public:
  BlockBytes(size_t Count, compat::Endianness Order)
      : Descriptors(Count * SiteSize, '\0'), Order(Order) {}

  /// The Index-th descriptor's fields, from Site.
  void set(unsigned Index, const SiteInfo &Site) {
    size_t At = size_t(Index) * SiteSize;
    put(At + FieldVersion, SiteVersion, 4);
    put(At + FieldKind, static_cast<unsigned>(Site.Kind), 4);
    put(At + FieldFunction, string(Site.Function, At, false), 4);
    put(At + FieldSubject, string(Site.Subject, At, false), 4);
    put(At + FieldFile, string(Site.File, At, true), 4);
    put(At + FieldLine, Site.Line, 4);
    put(At + FieldColumn, Site.Column, 4);
    put(At + FieldPromiseFile, string(Site.PromiseFile, At, true), 4);
    put(At + FieldAlignment, Site.Alignment, 8);
    put(At + FieldOffset, static_cast<uint64_t>(Site.Offset), 8);
    put(At + FieldPromiseLine, Site.PromiseLine, 4);
    put(At + FieldPromiseColumn, Site.PromiseColumn, 4);
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
    assert(Offset <= UINT32_MAX && "a block's strings fit 32-bit offsets");
    return Offset;
  }

  /// The field of Bytes (4 or 8) bytes at At.
  void put(size_t At, uint64_t V, unsigned Bytes) {
    assert((Bytes == 4 || Bytes == 8) && "a descriptor field is 4 or 8 bytes");
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

/// The block's descriptors' bytes (its first part).
StringRef descriptorBytes(const GlobalVariable &Table) {
  auto *Parts = cast<ConstantStruct>(Table.getInitializer());
  return cast<ConstantDataArray>(Parts->getOperand(0))->getRawDataValues();
}

/// The field of Bytes (4 or 8) bytes at At in a block's descriptors.
uint64_t siteField(const GlobalVariable &Table, size_t At, unsigned Bytes) {
  assert((Bytes == 4 || Bytes == 8) && "a descriptor field is 4 or 8 bytes");
  const char *Field = descriptorBytes(Table).data() + At;
  compat::Endianness Order =
      compat::byteOrder(Table.getParent()->getDataLayout());
  if (Bytes == 4)
    return support::endian::read<uint32_t, support::unaligned>(Field, Order);
  return support::endian::read<uint64_t, support::unaligned>(Field, Order);
}
} // namespace

GlobalVariable *SiteDescriptors::block(ArrayRef<SiteInfo> Sites) {
  BlockBytes Bytes(Sites.size(), compat::byteOrder(M.getDataLayout()));
  for (unsigned I = 0; I != Sites.size(); ++I)
    Bytes.set(I, Sites[I]);
  Constant *Init = Bytes.initializer(M.getContext());
  // Not unnamed_addr: the runtime deduplicates reports by descriptor address.
  auto *GV = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
      Init, freshName("__alignguard_site", NextSite), nullptr,
      GlobalValue::NotThreadLocal,
      M.getDataLayout().getDefaultGlobalsAddressSpace());
  GV->setAlignment(Align(8)); // the descriptors' 64-bit fields
  return GV;
}

Constant *SiteDescriptors::create(const SiteInfo &Site, Reuse *R) {
  // The bytes of equal fields are equal, so the initializers are one
  // constant: a recover copy finds its original's descriptors by them.
  BlockBytes Bytes(1, compat::byteOrder(M.getDataLayout()));
  Bytes.set(0, Site);
  Constant *Init = Bytes.initializer(M.getContext());
  SmallVector<Constant *, 1> &Same = Made[Init];
  if (R) {
    unsigned &K = R->Taken[Init];
    if (K < Same.size())
      return Same[K++];
    ++K;
  }
  GlobalVariable *GV = block(Site);
  Same.push_back(ConstantExpr::getPointerCast(GV, pointerType()));
  return Same.back();
}

GlobalVariable *SiteDescriptors::createTable(ArrayRef<SiteInfo> Sites) {
  assert(Sites.size() >= 2 && Sites.size() <= MaxTableChecks);
  return block(Sites);
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
      ConstantInt::get(Type::getInt64Ty(Ctx), Index * SiteSize)};
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

/// A table createTable made: { [K * SiteSize x i8], [N x i8] } with 2 to
/// MaxTableChecks descriptors of SiteVersion.
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
  return Size % SiteSize == 0 && Size >= 2 * SiteSize &&
         Size <= MaxTableChecks * SiteSize &&
         siteField(GV, FieldVersion, 4) == SiteVersion;
}

GlobalVariable *siteTable(Value *Site) {
  auto *GV = dyn_cast_or_null<GlobalVariable>(Site);
  return GV && isSiteTable(*GV) ? GV : nullptr;
}

unsigned tableSize(const GlobalVariable &Table) {
  assert(isSiteTable(Table) && "tableSize takes what siteTable returned");
  return descriptorBytes(Table).size() / SiteSize;
}

std::optional<TableElement> tableElement(const GlobalVariable &Table,
                                         unsigned Index) {
  assert(isSiteTable(Table) && "tableElement takes what siteTable returned");
  if (Index >= tableSize(Table))
    return std::nullopt;
  size_t At = size_t(Index) * SiteSize;
  return TableElement{
      siteField(Table, At + FieldAlignment, 8),
      static_cast<int64_t>(siteField(Table, At + FieldOffset, 8))};
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
