//===- DescriptorShapes.cpp - The buffer descriptors of generators -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "DescriptorShapes.h"

#include "Compat.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace alignguard {

static const char *const DLTensorFields[] = {
    "data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"};
static const char *const HalideBufferFields[] = {
    "device", "device_interface", "host", "flags",
    "type",   "dimensions",       "dim",  "padding"};
static const char *const MemRefFields[] = {"allocated", "aligned", "offset",
                                           "sizes", "strides"};

static bool looksLikeDLTensor(StructType *STy) {
  if (STy->hasName() && STy->getName().contains("DLTensor"))
    return true;
  // { ptr data, { i32, i32 } device, i32 ndim, { i8, i8, i16 } dtype,
  //   ptr shape, ptr strides, i64 byte_offset }, as TVM declares it (often
  // as an anonymous type).
  if (STy->getNumElements() != 7)
    return false;
  Type *E[7];
  for (unsigned I = 0; I != 7; ++I)
    E[I] = STy->getElementType(I);
  return E[0]->isPointerTy() && E[1]->isStructTy() && E[2]->isIntegerTy(32) &&
         E[3]->isStructTy() && E[4]->isPointerTy() && E[5]->isPointerTy() &&
         E[6]->isIntegerTy(64);
}

std::string descriptorFieldName(StructType *STy, unsigned Index) {
  if (Index >= STy->getNumElements())
    return "";
  if (looksLikeDLTensor(STy))
    return DLTensorFields[Index];
  if (STy->hasName() && STy->getName().contains("halide_buffer_t") &&
      Index < std::size(HalideBufferFields))
    return HalideBufferFields[Index];
  if (memRefRank(STy))
    return MemRefFields[Index];
  return "";
}

StructType *dlTensorType(LLVMContext &Ctx) {
  Type *Ptr = compat::bytePtrTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *Device = StructType::get(Ctx, {I32, I32});
  Type *DType = StructType::get(
      Ctx, {Type::getInt8Ty(Ctx), Type::getInt8Ty(Ctx), Type::getInt16Ty(Ctx)});
  return StructType::get(
      Ctx, {Ptr, Device, I32, DType, Ptr, Ptr, Type::getInt64Ty(Ctx)});
}

std::optional<unsigned> memRefRank(const Type *T) {
  auto *STy = dyn_cast<StructType>(T);
  if (!STy || STy->getNumElements() != 5)
    return std::nullopt;
  Type *Index = STy->getElementType(2);
  auto *Sizes = dyn_cast<ArrayType>(STy->getElementType(3));
  if (!STy->getElementType(0)->isPointerTy() ||
      !STy->getElementType(1)->isPointerTy() || !Index->isIntegerTy() ||
      !Sizes || Sizes->getElementType() != Index ||
      STy->getElementType(4) != Sizes)
    return std::nullopt;
  return Sizes->getNumElements();
}

std::string memRefFieldAt(uint64_t ByteOffset, const DataLayout &DL) {
  uint64_t Ptr = DL.getPointerSize();
  if (ByteOffset % Ptr || ByteOffset / Ptr > 2)
    return "";
  return MemRefFields[ByteOffset / Ptr];
}

bool pointsToMemRefDescriptor(const Argument &A) {
  return A.getType()->isPointerTy() &&
         compat::startsWith(A.getParent()->getName(), "_mlir_ciface_");
}

/// The field (0 allocated, 1 aligned) and rank of the memref descriptor an
/// insertvalue chain builds from A, when one does.
static std::optional<std::pair<unsigned, unsigned>>
descriptorChainField(const Argument &A) {
  for (const User *U : A.users()) {
    auto *IV = dyn_cast<InsertValueInst>(U);
    if (!IV || IV->getInsertedValueOperand() != &A ||
        IV->getNumIndices() != 1 || *IV->idx_begin() > 1)
      continue;
    if (std::optional<unsigned> Rank = memRefRank(IV->getType()))
      return std::make_pair(*IV->idx_begin(), *Rank);
  }
  return std::nullopt;
}

std::optional<MemRefPart> expandedMemRefPart(const Argument &A) {
  const Function &F = *A.getParent();
  // Evidence that F takes expanded memrefs: the descriptor MLIR rebuilds
  // from its arguments (gone after -O2), or the C-interface wrapper MLIR
  // emits for F.
  std::optional<std::pair<unsigned, unsigned>> Chain = descriptorChainField(A);
  if (!Chain &&
      !F.getParent()->getFunction(("_mlir_ciface_" + F.getName()).str()))
    return std::nullopt;
  unsigned N = F.arg_size();
  auto Is = [&](unsigned I, bool Pointer) {
    if (I >= N)
      return false;
    Type *T = F.getArg(I)->getType();
    return Pointer ? T->isPointerTy() : T->isIntegerTy();
  };
  // allocated, aligned, offset: where a memref's arguments begin.
  auto Starts = [&](unsigned I) {
    return Is(I, true) && Is(I + 1, true) && Is(I + 2, false);
  };
  unsigned No = A.getArgNo();
  unsigned First;
  if (Chain && No >= Chain->first)
    First = No - Chain->first;
  else if (Starts(No))
    First = No;
  else if (No && Starts(No - 1))
    First = No - 1;
  else
    return std::nullopt;
  MemRefPart Part{No != First, std::nullopt};
  // Count the memrefs before it; one whose descriptor is rebuilt says its
  // rank, so its sizes and strides are skipped exactly.
  for (unsigned I = 0, K = 0; I <= First;) {
    if (!Starts(I)) {
      ++I;
      continue;
    }
    if (I == First) {
      Part.Index = K;
      break;
    }
    ++K;
    std::optional<std::pair<unsigned, unsigned>> Other =
        descriptorChainField(*F.getArg(I));
    I += Other && Other->first == 0 ? 3 + 2 * Other->second : 3;
  }
  return Part;
}

std::optional<PackedArgs> tvmPackedArgs(const Argument &A) {
  const Function &F = *A.getParent();
  FunctionType *FT = F.getFunctionType();
  auto Is = [&](unsigned I, bool Pointer) {
    Type *T = FT->getParamType(I);
    return Pointer ? T->isPointerTy() : T->isIntegerTy(32);
  };
  if (!FT->getReturnType()->isIntegerTy(32) || FT->getNumParams() < 4 ||
      !Is(0, true) || !Is(1, true) || !Is(2, false) || !Is(3, true))
    return std::nullopt;
  if (FT->getNumParams() == 6 && A.getArgNo() == 0 && Is(4, true) &&
      Is(5, true))
    return PackedArgs{8, 0};
  if (FT->getNumParams() == 4 && A.getArgNo() == 1 &&
      compat::startsWith(F.getName(), "__tvm_ffi_"))
    return PackedArgs{16, 8};
  return std::nullopt;
}

} // namespace alignguard
