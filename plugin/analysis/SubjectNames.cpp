//===- SubjectNames.cpp - Name the pointer a promise is about ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "SubjectNames.h"

#include "Compat.h"
#include "DescriptorShapes.h"
#include "PointerOrigins.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace alignguard {

/// The name of the function F was made from, with a name of that name and
/// Suffix (`k` for `k.alignguard.recover` and for a later run's
/// `k.alignguard.recover.1`); empty when F is none.
static StringRef copiedFrom(const Function &F,
                            StringRef Suffix = RecoverSuffix) {
  if (!F.hasLocalLinkage())
    return "";
  StringRef Name = F.getName();
  size_t At = Name.rfind(Suffix);
  if (At == StringRef::npos || At == 0)
    return "";
  StringRef Rest = Name.substr(At + Suffix.size());
  if (!Rest.empty() && !(Rest.consume_front(".") && !Rest.empty() &&
                         all_of(Rest, [](char C) { return isDigit(C); })))
    return "";
  return Name.take_front(At);
}

bool isRecoverCopy(const Function &F) { return !copiedFrom(F).empty(); }

StringRef sourceFunctionName(const Function &F) {
  StringRef Original = copiedFrom(F);
  if (Original.empty())
    Original = copiedFrom(F, BodySuffix);
  return Original.empty() ? F.getName() : Original;
}

SubjectNamer::SubjectNamer(Function &F) : F(F) {
  compat::forEachDebugVariable(F, [&](Value *Loc, DILocalVariable *Var) {
    if (Loc && Var && !Var->getName().empty())
      Vars.try_emplace(Loc, Var);
  });
}

std::string SubjectNamer::functionName(const Function &G) const {
  // Reports are for people: Particle::step(float), not _ZN8Particle4stepEf
  // (demangle returns a name that is not mangled unchanged).
  if (&G != &F)
    return demangle(sourceFunctionName(G).str());
  if (!Name)
    Name = demangle(sourceFunctionName(F).str());
  return *Name;
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

/// Names LLVM's passes make up (`.unpack2`, `x.sroa.0`, `.fca.1.extract`,
/// `.pre`, `.lcssa`) and TVM's positional `arg1` (its number need not be
/// the packed argument's): names to use only when nothing better is known.
static bool isTemporaryName(StringRef Name) {
  if (Name.empty() || Name[0] == '.' || isDigit(Name[0]))
    return true;
  if (Name.size() > 3 && Name.take_front(3) == "arg" &&
      all_of(Name.drop_front(3), isDigit))
    return true;
  SmallVector<StringRef, 4> Parts;
  Name.split(Parts, '.');
  for (StringRef Part : drop_begin(Parts)) {
    Part = Part.rtrim("0123456789");
    if (Part == "unpack" || Part == "elt" || Part == "sroa" || Part == "fca" ||
        Part == "pre" || Part == "lcssa" || Part == "promoted")
      return true;
  }
  return false;
}

/// The name of field Index of STy: the member's from debug info (Var, the
/// struct pointer's variable), a known descriptor's, else `field<k>`.
static std::string fieldName(StructType *STy, unsigned Index,
                             const DILocalVariable *Var, const DataLayout &DL) {
  std::string Name =
      memberName(Var, DL.getStructLayout(STy)->getElementOffsetInBits(Index));
  if (Name.empty())
    Name = descriptorFieldName(STy, Index);
  if (Name.empty())
    Name = "field" + std::to_string(Index);
  return Name;
}

/// Which of TVM's packed arguments L reads (`args[k]`: a pointer from the
/// payload of element k of a packed function's argument array).
static std::optional<std::pair<const Argument *, uint64_t>>
packedArgument(const LoadInst &L) {
  if (!L.getType()->isPointerTy())
    return std::nullopt;
  const DataLayout &DL = L.getModule()->getDataLayout();
  const Value *Addr = L.getPointerOperand();
  APInt Off(DL.getIndexTypeSizeInBits(Addr->getType()), 0);
  const Value *Base = Addr->stripAndAccumulateConstantOffsets(DL, Off, true);
  auto *Args = dyn_cast<Argument>(sameAddress(Base));
  std::optional<PackedArgs> Packed = Args ? tvmPackedArgs(*Args) : std::nullopt;
  if (!Packed || Off.isNegative())
    return std::nullopt;
  uint64_t Bytes = Off.getZExtValue();
  if (Bytes < Packed->Payload || (Bytes - Packed->Payload) % Packed->Stride)
    return std::nullopt;
  return std::make_pair(Args, (Bytes - Packed->Payload) / Packed->Stride);
}

/// The struct type the IR says V points to: the source type of a struct GEP
/// of V (`gep %T, V, 0, k`) or the type of an aggregate loaded from V, or a
/// DLTensor for a handle read from TVM's packed arguments. Null when
/// unknown or ambiguous.
static StructType *pointeeStruct(const Value *V) {
  StructType *Found = nullptr;
  bool Ambiguous = false;
  auto Note = [&](Type *T) {
    auto *STy = dyn_cast<StructType>(T);
    if (!STy || !STy->isSized())
      return;
    Ambiguous |= Found && Found != STy;
    Found = STy;
  };
  SmallVector<const Value *, 4> Names{V};
  for (const User *U : V->users())
    if (isa<BitCastOperator>(U) || isa<AddrSpaceCastOperator>(U))
      Names.push_back(U);
  for (const Value *Name : Names)
    for (const User *U : Name->users()) {
      if (auto *GEP = dyn_cast<GEPOperator>(U)) {
        auto *First = GEP->getNumIndices() >= 2
                          ? dyn_cast<ConstantInt>(GEP->getOperand(1))
                          : nullptr;
        if (GEP->getPointerOperand() == Name && First && First->isZero())
          Note(GEP->getSourceElementType());
      } else if (auto *L = dyn_cast<LoadInst>(U)) {
        if (L->getPointerOperand() == Name)
          Note(L->getType());
      }
    }
  if (Ambiguous)
    return nullptr;
  if (!Found)
    if (auto *L = dyn_cast<LoadInst>(V))
      if (packedArgument(*L))
        return dlTensorType(V->getContext());
  return Found;
}

/// The struct field Addr (Base + Off bytes) addresses: by a struct GEP's
/// type (not stripPointerCasts: it also strips the all-zero GEP of field
/// 0), which sets Base to the GEP's pointer, else by the type the IR gives
/// Base elsewhere and the field's offset. Null when unknown.
static StructType *structField(const Value *Addr, const APInt &Off,
                               const DataLayout &DL, const Value *&Base,
                               unsigned &Index) {
  while (isa<BitCastOperator>(Addr) || isa<AddrSpaceCastOperator>(Addr))
    Addr = cast<Operator>(Addr)->getOperand(0);
  auto *GEP = dyn_cast<GEPOperator>(Addr);
  if (GEP && GEP->getNumIndices() == 2 && GEP->hasAllConstantIndices()) {
    auto *STy = dyn_cast<StructType>(GEP->getSourceElementType());
    uint64_t Field = cast<ConstantInt>(GEP->getOperand(2))->getZExtValue();
    if (STy && cast<ConstantInt>(GEP->getOperand(1))->isZero() &&
        Field < STy->getNumElements()) {
      Base = GEP->getPointerOperand();
      Index = Field;
      return STy;
    }
  }
  StructType *STy = Off.isNegative() ? nullptr : pointeeStruct(Base);
  if (!STy)
    return nullptr;
  const StructLayout *SL = DL.getStructLayout(STy);
  uint64_t Bytes = Off.getZExtValue();
  if (Bytes >= SL->getSizeInBytes())
    return nullptr;
  Index = SL->getElementContainingOffset(Bytes);
  return SL->getElementOffset(Index) == Bytes ? STy : nullptr;
}

std::string SubjectNamer::baseName(const Value *V, const DILocalVariable *&Var,
                                   unsigned Depth) const {
  // The struct pointer's debug variable: on the value itself, or on the
  // spill slot it was reloaded from (`DLTensor *A = ...; A->data` at -O0).
  const Value *Ref = V->stripPointerCasts();
  Var = variableOf(Ref);
  if (auto *Reload = dyn_cast<LoadInst>(Ref))
    if (!Var)
      Var = variableOf(Reload->getPointerOperand()->stripPointerCasts());
  const Value *Base = sameAddress(Ref);
  if (!Var)
    Var = variableOf(Base);
  if (auto *A = dyn_cast<Argument>(Base)) {
    std::string Name = argumentName(*A);
    return Name.empty() ? "argument #" + std::to_string(A->getArgNo()) : Name;
  }
  if (Var)
    return Var->getName().str();
  // A generator's name for the struct (TVM's `arg.A`, Halide's
  // `input.buffer`), else the way it was read, else a temporary's name.
  if (Base->hasName() && !isTemporaryName(Base->getName()))
    return Base->getName().str();
  std::string Path;
  bool Exact;
  if (auto *L = dyn_cast<LoadInst>(Base))
    Path = loadPath(*L, Exact, Depth + 1);
  else if (auto *EV = dyn_cast<ExtractValueInst>(Base))
    Path = extractPath(*EV, Depth + 1);
  if (Path.empty() && Base->hasName())
    Path = Base->getName().str();
  return Path;
}

std::string SubjectNamer::loadPath(const LoadInst &Load, bool &Exact,
                                   unsigned Depth) const {
  Exact = false;
  if (Depth > MaxPathDepth)
    return "";
  if (auto Packed = packedArgument(Load)) {
    Exact = true;
    std::string Args = argumentName(*Packed->first);
    return (Args.empty() ? "args" : Args) + "[" +
           std::to_string(Packed->second) + "]";
  }
  const DataLayout &DL = Load.getModule()->getDataLayout();
  const Value *Addr = Load.getPointerOperand();
  APInt Off(DL.getIndexTypeSizeInBits(Addr->getType()), 0);
  const Value *Base = Addr->stripAndAccumulateConstantOffsets(DL, Off, true);
  unsigned Index = 0;
  StructType *STy = structField(Addr, Off, DL, Base, Index);

  const DILocalVariable *Var = nullptr;
  std::string BaseName = baseName(Base, Var, Depth);
  if (BaseName.empty())
    return "";
  if (STy) {
    Exact = true;
    return BaseName + "->" + fieldName(STy, Index, Var, DL);
  }
  // MLIR's C interface passes each memref as a pointer to its descriptor.
  auto *Arg = dyn_cast<Argument>(sameAddress(Base));
  if (Arg && pointsToMemRefDescriptor(*Arg) && !Off.isNegative()) {
    std::string Field = memRefFieldAt(Off.getZExtValue(), DL);
    if (!Field.empty()) {
      Exact = true;
      return BaseName + "->" + Field;
    }
  }
  // Unknown layout: the bytes it was read at; but not a local slot's bytes
  // (a spill slot that spilledValue cannot follow, as through HIP's
  // addrspacecast): `*(data.addr)` would name a temporary.
  if (isa<AllocaInst>(getUnderlyingObject(Base)))
    return "";
  if (Off.isZero())
    return BaseName.find(' ') == std::string::npos ? "*" + BaseName
                                                   : "*(" + BaseName + ")";
  return "*(" + BaseName + (Off.isNegative() ? " - " : " + ") +
         std::to_string(Off.abs().getZExtValue()) + ")";
}

std::string SubjectNamer::extractPath(const ExtractValueInst &EV,
                                      unsigned Depth) const {
  auto *STy = dyn_cast<StructType>(EV.getAggregateOperand()->getType());
  if (Depth > MaxPathDepth || !STy || EV.getNumIndices() != 1)
    return "";
  unsigned Index = EV.getIndices()[0];
  const DataLayout &DL = EV.getModule()->getDataLayout();
  const Value *Agg = EV.getAggregateOperand();
  // A struct passed by value: `argument #0.aligned`.
  if (auto *A = dyn_cast<Argument>(Agg)) {
    std::string Name = argumentName(*A);
    if (Name.empty())
      Name = "argument #" + std::to_string(A->getArgNo());
    return Name + "." + fieldName(STy, Index, nullptr, DL);
  }
  // A struct loaded whole (MLIR's C interface: `load { ptr, ptr, ... },
  // ptr %0`): the field of the struct its pointer points to.
  if (auto *L = dyn_cast<LoadInst>(Agg)) {
    const DILocalVariable *Var = nullptr;
    std::string Base = baseName(L->getPointerOperand(), Var, Depth);
    if (!Base.empty())
      return Base + "->" + fieldName(STy, Index, Var, DL);
  }
  return "";
}

std::string SubjectNamer::offsetPath(const Value *V) const {
  const DataLayout &DL = cast<Instruction>(V)->getModule()->getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
  const Value *Base = V->stripAndAccumulateConstantOffsets(DL, Off, true);
  if (Base == V || Off.isZero())
    return "";
  std::string Name;
  if (argumentOf(Base)) {
    Name = describe(Base);
  } else {
    const DILocalVariable *Var = nullptr;
    Name = baseName(Base, Var, 0);
  }
  if (Name.empty())
    return "";
  return Name + (Off.isNegative() ? " - " : " + ") +
         std::to_string(Off.abs().getZExtValue());
}

std::string SubjectNamer::argumentDescription(const Argument &A) const {
  std::string S = "argument #" + std::to_string(A.getArgNo());
  std::string Name = argumentName(A);
  if (!Name.empty())
    S += " '" + Name + "'";
  // MLIR's functions take each memref as its descriptor's fields.
  if (std::optional<MemRefPart> Part = expandedMemRefPart(A))
    S += std::string(" (") + (Part->Aligned ? "aligned" : "allocated") +
         " pointer of " +
         (Part->Index ? "memref #" + std::to_string(*Part->Index)
                      : std::string("a memref")) +
         ")";
  return S;
}

/// "a getelementptr", "an extractvalue".
static std::string withArticle(StringRef Word) {
  bool Vowel = !Word.empty() && StringRef("aeiou").contains(Word[0]);
  return (Vowel ? "an " : "a ") + Word.str();
}

std::string SubjectNamer::describe(const Value *V) const {
  if (const Argument *A = argumentOf(V))
    return argumentDescription(*A);
  const Value *Stripped = V->stripPointerCasts();
  std::string Name = variableName(Stripped);
  if (Name.empty())
    if (auto *Load = dyn_cast<LoadInst>(Stripped))
      Name = variableName(Load->getPointerOperand()->stripPointerCasts());
  if (!Name.empty())
    return "'" + Name + "'";
  // The way the pointer was read, when its field is known (`A->data`,
  // `args[0]`, `argument #0->aligned`): before the value's own IR name,
  // which frontends often leave as a number or a copy of the field, and
  // LLVM's passes make up (`.unpack2`). Two reads of one field are one.
  const Value *Same = sameField(Stripped);
  std::string Path;
  bool Exact = false;
  if (auto *Load = dyn_cast<LoadInst>(Same)) {
    Path = loadPath(*Load, Exact, 0);
  } else if (auto *EV = dyn_cast<ExtractValueInst>(Same)) {
    Path = extractPath(*EV, 0);
    Exact = !Path.empty();
  } else if (isa<Instruction>(Same)) {
    Path = offsetPath(Same);
  }
  if (Exact)
    return Path;
  if (Stripped->hasName() && !isTemporaryName(Stripped->getName()))
    return "'%" + Stripped->getName().str() + "'";
  if (!Path.empty())
    return Path;
  if (Stripped->hasName())
    return "'%" + Stripped->getName().str() + "'";
  if (isa<ConstantPointerNull>(Stripped))
    return "null";
  if (auto *I = dyn_cast<Instruction>(Stripped))
    return "the result of " + withArticle(I->getOpcodeName());
  return "a pointer";
}

} // namespace alignguard
