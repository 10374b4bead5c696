//===- PointerOrigins.h - Where a pointer value comes from ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Promises and checks name the same pointer through different SSA values:
// clang -O0 spills every argument to an alloca and reloads it for each use,
// and an access adds a GEP to the checked base. These helpers see through
// both, so `load %p.addr` twice is one pointer, and `gep %in, %i` is %in's;
// and through aggregates: two `extractvalue %desc, 1` are one pointer.
//
//   %p.addr = alloca ptr ; store ptr %p, ptr %p.addr
//   %0 = load ptr, ptr %p.addr      spilledValue(%0) == %p
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_POINTERORIGINS_H
#define ALIGNGUARD_POINTERORIGINS_H

#include "llvm/IR/Argument.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

namespace alignguard {

/// The value a reload of a spill slot reads, when it is certain: L loads
/// from an alloca stored exactly once, in the entry block before L or in
/// L's block before L (at -O0, an inlined wrapper's parameter slot, in a
/// loop too), and written by nothing else. Null otherwise.
const llvm::Value *spilledValue(const llvm::LoadInst &L);

/// The value an `extractvalue` V reads when the IR says which (a field of
/// an insertvalue chain: MLIR's memref descriptor built from arguments),
/// else the first `extractvalue` of the same aggregate and field (two reads
/// of one field are one value); V for anything else.
const llvm::Value *sameField(const llvm::Value *V);

/// V with pointer casts, field reads (sameField) and spill reloads stripped
/// (not GEPs): the same address under another name.
const llvm::Value *sameAddress(const llvm::Value *V);

/// The object V points into: GEPs, casts and spill reloads stripped.
const llvm::Value *pointerRoot(const llvm::Value *V);

/// True when V points into an argument's object, or into memory that a
/// pointer loaded from (a field of) an argument points to: Halide's
/// `buffer->host`, TVM's `args[i]->data`.
bool comesFromArgument(const llvm::Value *V);

/// The alignment a struct type gives a field, when V is a GEP with constant
/// indices into a struct (a field of a `T*` is as aligned as T's layout
/// says); 1 otherwise.
llvm::Align alignmentFromType(const llvm::Value *V, const llvm::DataLayout &DL);

/// The argument whose value V is (casts and spill reloads stripped), or null.
inline const llvm::Argument *argumentOf(const llvm::Value *V) {
  return llvm::dyn_cast<llvm::Argument>(sameAddress(V));
}

} // namespace alignguard

#endif // ALIGNGUARD_POINTERORIGINS_H
