//===- SubjectNames.cpp - Name the pointer a promise is about ------------===//
#include "SubjectNames.h"

#include "Compat.h"
#include "PointerOrigins.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace alignguard {

SubjectNamer::SubjectNamer(Function &F) {
  compat::forEachDebugVariable(F, [&](Value *Loc, DILocalVariable *Var) {
    if (Loc && Var && !Var->getName().empty())
      Vars.try_emplace(Loc, Var);
  });
}

const DILocalVariable *SubjectNamer::variableOf(const Value *V) const {
  auto It = Vars.find(V);
  if (It != Vars.end())
    return It->second;
  // At -O0 the debug variable of an argument describes its spill slot.
  if (auto *A = dyn_cast<Argument>(V))
    for (const User *U : A->users())
      if (auto *Store = dyn_cast<StoreInst>(U))
        if (Store->getValueOperand() == A)
          if (const DILocalVariable *Var =
                  variableOf(Store->getPointerOperand()))
            return Var;
  return nullptr;
}

std::string SubjectNamer::variableName(const Value *V) const {
  const DILocalVariable *Var = variableOf(V);
  return Var ? Var->getName().str() : "";
}

std::string SubjectNamer::argumentName(const Argument &A) const {
  std::string Name = variableName(&A);
  if (Name.empty() && A.hasName())
    Name = A.getName().str();
  return Name;
}

/// T without typedefs and qualifiers.
static const DIType *stripTypedefs(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type &&
        Tag != dwarf::DW_TAG_volatile_type &&
        Tag != dwarf::DW_TAG_restrict_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

/// The source name of the member at OffsetInBits of the struct that Var
/// points to, from debug info; empty when unknown.
static std::string memberName(const DILocalVariable *Var,
                              uint64_t OffsetInBits) {
  if (!Var)
    return "";
  auto *Ptr = dyn_cast_or_null<DIDerivedType>(stripTypedefs(Var->getType()));
  if (!Ptr || Ptr->getTag() != dwarf::DW_TAG_pointer_type)
    return "";
  auto *Struct =
      dyn_cast_or_null<DICompositeType>(stripTypedefs(Ptr->getBaseType()));
  if (!Struct)
    return "";
  for (const DINode *Element : Struct->getElements())
    if (auto *Member = dyn_cast<DIDerivedType>(Element))
      if (Member->getTag() == dwarf::DW_TAG_member &&
          !Member->isStaticMember() &&
          Member->getOffsetInBits() == OffsetInBits)
        return Member->getName().str();
  return "";
}

/// The field names of the buffer descriptors kernel generators pass, which
/// their IR carries without debug info: DLPack's DLTensor (TVM; often an
/// anonymous struct type, recognised by its shape) and Halide's
/// halide_buffer_t, so a report says `A->data` or `input.buffer->host`.
static const char *const DLTensorFields[] = {
    "data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"};
static const char *const HalideBufferFields[] = {
    "device", "device_interface", "host", "flags",
    "type",   "dimensions",       "dim",  "padding"};

static bool looksLikeDLTensor(StructType *STy, const DataLayout &DL) {
  if (STy->hasName() && STy->getName().contains("DLTensor"))
    return true;
  // { ptr data, { i32, i32 } device, i32 ndim, { i8, i8, i16 } dtype,
  //   ptr shape, ptr strides, i64 byte_offset }, as TVM declares it.
  if (STy->getNumElements() != 7)
    return false;
  Type *E[7];
  for (unsigned I = 0; I != 7; ++I)
    E[I] = STy->getElementType(I);
  return E[0]->isPointerTy() && E[1]->isStructTy() && E[2]->isIntegerTy(32) &&
         E[3]->isStructTy() && E[4]->isPointerTy() && E[5]->isPointerTy() &&
         E[6]->isIntegerTy(64);
}

std::string SubjectNamer::fieldLoad(const LoadInst &Load) const {
  // Not stripPointerCasts: it also strips the all-zero GEP of field 0.
  const Value *Addr = Load.getPointerOperand();
  while (isa<BitCastOperator>(Addr) || isa<AddrSpaceCastOperator>(Addr))
    Addr = cast<Operator>(Addr)->getOperand(0);
  auto *GEP = dyn_cast<GEPOperator>(Addr);
  if (!GEP || GEP->getNumIndices() != 2 || !GEP->hasAllConstantIndices())
    return "";
  auto *STy = dyn_cast<StructType>(GEP->getSourceElementType());
  auto *First = dyn_cast<ConstantInt>(GEP->getOperand(1));
  auto *Field = dyn_cast<ConstantInt>(GEP->getOperand(2));
  if (!STy || !First || !First->isZero() || !Field ||
      Field->getZExtValue() >= STy->getNumElements())
    return "";
  unsigned Index = Field->getZExtValue();
  const DataLayout &DL = Load.getModule()->getDataLayout();

  // The struct pointer's debug variable: on the value itself, or on the
  // spill slot it was reloaded from (`DLTensor *A = ...; A->data` at -O0).
  const Value *Ref = GEP->getPointerOperand()->stripPointerCasts();
  const DILocalVariable *BaseVar = variableOf(Ref);
  if (auto *Reload = dyn_cast<LoadInst>(Ref))
    if (!BaseVar)
      BaseVar = variableOf(Reload->getPointerOperand()->stripPointerCasts());
  const Value *Base = sameAddress(Ref);
  if (!BaseVar)
    BaseVar = variableOf(Base);
  std::string BaseName;
  if (auto *A = dyn_cast<Argument>(Base)) {
    BaseName = argumentName(*A);
    if (BaseName.empty())
      BaseName = "argument #" + std::to_string(A->getArgNo());
  } else if (BaseVar) {
    BaseName = BaseVar->getName().str();
  } else if (Base->hasName()) {
    BaseName = Base->getName().str();
  } else {
    return "";
  }

  std::string FieldName = memberName(
      BaseVar, DL.getStructLayout(STy)->getElementOffsetInBits(Index));
  if (FieldName.empty() && looksLikeDLTensor(STy, DL))
    FieldName = DLTensorFields[Index];
  if (FieldName.empty() && STy->hasName() &&
      STy->getName().contains("halide_buffer_t") &&
      Index < std::size(HalideBufferFields))
    FieldName = HalideBufferFields[Index];
  if (FieldName.empty())
    FieldName = "field" + std::to_string(Index);
  return BaseName + "->" + FieldName;
}

/// "a getelementptr", "an extractvalue".
static std::string withArticle(StringRef Word) {
  bool Vowel = !Word.empty() && StringRef("aeiou").contains(Word[0]);
  return (Vowel ? "an " : "a ") + Word.str();
}

std::string SubjectNamer::describe(const Value *V) const {
  if (const Argument *A = argumentOf(V)) {
    std::string S = "argument #" + std::to_string(A->getArgNo());
    std::string Name = argumentName(*A);
    return Name.empty() ? S : S + " '" + Name + "'";
  }
  const Value *Stripped = V->stripPointerCasts();
  std::string Name = variableName(Stripped);
  if (Name.empty())
    if (auto *Load = dyn_cast<LoadInst>(Stripped))
      Name = variableName(Load->getPointerOperand()->stripPointerCasts());
  if (!Name.empty())
    return "'" + Name + "'";
  // A pointer loaded from a struct field: `A->data`. Before the value's own
  // IR name, which frontends often leave as a number or a copy of the field.
  if (auto *Load = dyn_cast<LoadInst>(Stripped)) {
    std::string Field = fieldLoad(*Load);
    if (!Field.empty())
      return Field;
  }
  if (Stripped->hasName())
    return "'%" + Stripped->getName().str() + "'";
  if (isa<ConstantPointerNull>(Stripped))
    return "null";
  if (auto *I = dyn_cast<Instruction>(Stripped))
    return "the result of " + withArticle(I->getOpcodeName());
  return "a pointer";
}

} // namespace alignguard
