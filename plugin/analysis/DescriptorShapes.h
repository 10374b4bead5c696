//===- DescriptorShapes.h - Buffer descriptors of generators ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kernel generators hand buffers to their code in descriptors, and their IR
// carries no debug info to name the fields: DLPack's DLTensor (TVM),
// Halide's halide_buffer_t, MLIR's memref descriptor, and TVM's array of
// packed arguments. Their shapes let a report name the pointer as the user
// knows it (SubjectNames.h) instead of by a temporary.
//
//   { ptr, ptr, i64, [1 x i64], [1 x i64] }     MLIR memref of rank 1:
//                                 allocated, aligned, offset, sizes, strides
//   define void @f(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4, ptr %5, ...)
//                                 %1: aligned pointer of memref #0, %5: #1's
//   define i32 @k(ptr %args, ptr %type_codes, i32 %n, ptr, ptr, ptr)
//                                 `load ptr, ptr (%args + 8)` is args[1]
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_DESCRIPTORSHAPES_H
#define ALIGNGUARD_DESCRIPTORSHAPES_H

#include "llvm/IR/Argument.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"

#include <optional>
#include <string>

namespace alignguard {

/// The name of field Index of STy when STy is a descriptor recognised by
/// its name or shape (DLTensor, halide_buffer_t, MLIR memref), else "".
std::string descriptorFieldName(llvm::StructType *STy, unsigned Index);

/// DLPack's DLTensor as TVM declares it, with this target's layout.
llvm::StructType *dlTensorType(llvm::LLVMContext &Ctx);

/// MLIR's ranked memref descriptor
/// `{ ptr allocated, ptr aligned, iN offset, [R x iN] sizes, [R x iN]
/// strides }`; its rank R, or none for any other type.
std::optional<unsigned> memRefRank(const llvm::Type *T);

/// The field of a memref descriptor at ByteOffset (allocated, aligned,
/// offset; the sizes and strides depend on the rank), else "".
std::string memRefFieldAt(uint64_t ByteOffset, const llvm::DataLayout &DL);

/// True when A points to a memref descriptor: a pointer argument of the
/// C-interface wrapper MLIR emits (`_mlir_ciface_<name>`).
bool pointsToMemRefDescriptor(const llvm::Argument &A);

/// Which pointer of which memref argument A is, when A's function takes its
/// memrefs expanded, as MLIR's own functions do: allocated, aligned,
/// offset, sizes..., strides... in consecutive arguments.
struct MemRefPart {
  bool Aligned;                  ///< the aligned pointer, else the allocated
  std::optional<unsigned> Index; ///< memref #k, counting memrefs from 0
};
std::optional<MemRefPart> expandedMemRefPart(const llvm::Argument &A);

/// TVM's packed arguments: an array of Stride-byte values whose pointer
/// payload is at Payload. Legacy `int f(TVMValue *args, int *type_codes,
/// int num_args, TVMValue *ret, int *ret_code, void *resource)`: 8-byte
/// TVMValues; tvm-ffi's `int f(void *self, const TVMFFIAny *args, int
/// num_args, TVMFFIAny *result)`: 16-byte TVMFFIAny, the pointer at 8.
struct PackedArgs {
  uint64_t Stride, Payload;
};
std::optional<PackedArgs> tvmPackedArgs(const llvm::Argument &A);

} // namespace alignguard

#endif // ALIGNGUARD_DESCRIPTORSHAPES_H
