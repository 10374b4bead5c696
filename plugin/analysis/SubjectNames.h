//===- SubjectNames.h - Name the pointer a promise is about -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A report must let a user find the pointer in their source. Names come, in
// this order, from debug info (the source variable), the argument, the way
// the pointer was read when its field is known (`A->data`: the member's name
// from debug info, or a generator's descriptor's, DescriptorShapes.h; TVM's
// `args[0]`; `field<k>` of any other struct type), the IR value's name
// unless a temporary's (`.unpack2`), the bytes it was read at or its offset
// from a named pointer (`*(argument #0 + 8)`, `argument #0 'p' + 8`), and
// last what the value is (`the result of a phi`).
// Arguments count from 0, as LLVM's getArgNo() does.
//
//   define void @vadd(ptr %a, ptr align 64 %b)  ->  "argument #1 'b'"
//   %0 = load ptr, ptr %p.addr   (clang -O0 spill of argument p)
//                                               ->  "argument #0 'p'"
//   MLIR: define void @k(ptr %0, ptr %1, i64 %2, ...)
//                       %1  ->  "argument #1 (aligned pointer of memref #0)"
//   %.unpack2 = load ptr, ptr (gep i8, ptr %0, i64 8)  in _mlir_ciface_k
//                                               ->  "argument #0->aligned"
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_SUBJECTNAMES_H
#define ALIGNGUARD_SUBJECTNAMES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>

namespace alignguard {

/// The suffix of a recover copy's name (UnalignedCopies.h).
inline constexpr const char *RecoverSuffix = ".alignguard.recover";

/// The suffix of the function that holds a checked function's body
/// (OutlineBodyPass.h).
inline constexpr const char *BodySuffix = ".alignguard.body";

/// The name reports give F's function (mangled): a recover copy's, and an
/// outlined body's, is its original's.
llvm::StringRef sourceFunctionName(const llvm::Function &F);

/// True when F is a recover copy align-guard made: its promises are its
/// original's, which the audit lists there.
bool isRecoverCopy(const llvm::Function &F);

class SubjectNamer {
public:
  /// Reads F's debug variables once; describe() is then cheap.
  explicit SubjectNamer(llvm::Function &F);

  /// A short human name for the pointer value V used in F.
  std::string describe(const llvm::Value *V) const;

  /// The source name of argument A: its debug variable, else its IR name;
  /// empty when it has neither.
  std::string argumentName(const llvm::Argument &A) const;

  /// G's source function name (sourceFunctionName), demangled: for F,
  /// the namer's own function, worked out once.
  std::string functionName(const llvm::Function &G) const;

private:
  /// The debug variable of V (for an argument, also its -O0 spill slot's).
  const llvm::DILocalVariable *variableOf(const llvm::Value *V) const;
  std::string variableName(const llvm::Value *V) const;
  /// `argument #N 'name'`, and which memref's pointer it is in MLIR's
  /// expanded convention.
  std::string argumentDescription(const llvm::Argument &A) const;
  /// V named as the struct in `V->field` (unquoted): its debug variable
  /// (returned in Var, for the member's name), the argument, a generator's
  /// IR name, else the way it was read; "" when none.
  std::string baseName(const llvm::Value *V, const llvm::DILocalVariable *&Var,
                       unsigned Depth) const;
  /// The way a pointer L loads was read: `A->data`, `args[0]`,
  /// `argument #0->aligned` (Exact: the field is known), else the bytes it
  /// was read at, `*(argument #0 + 8)`; "" when its base has no name.
  std::string loadPath(const llvm::LoadInst &L, bool &Exact,
                       unsigned Depth) const;
  /// `argument #0->aligned` for a field of a struct loaded whole, or
  /// `argument #0.aligned` of one passed by value; "" otherwise.
  std::string extractPath(const llvm::ExtractValueInst &EV,
                          unsigned Depth) const;
  /// `argument #0 'p' + 8` for a constant offset from a named pointer.
  std::string offsetPath(const llvm::Value *V) const;

  /// Loads through loads: TVM's args -> DLTensor* -> data is two.
  static constexpr unsigned MaxPathDepth = 4;
  llvm::DenseMap<const llvm::Value *, const llvm::DILocalVariable *> Vars;
  const llvm::Function &F;
  /// functionName(F), once asked for.
  mutable std::optional<std::string> Name;
};

} // namespace alignguard

#endif // ALIGNGUARD_SUBJECTNAMES_H
