//===- SubjectNames.h - Name the pointer a promise is about -----*- C++ -*-===//
//
// A report must let a user find the pointer in their source. Names come, in
// this order, from debug info (the source variable), the IR value's name,
// and a description of the value (`argument #2`, `A->data` for a pointer
// loaded from a struct field: the member's name from debug info, DLPack's
// names for a DLTensor, else `field<k>`).
// Arguments count from 0, as LLVM's getArgNo() does.
//
//   define void @vadd(ptr %a, ptr align 64 %b)  ->  "argument #1 'b'"
//   %0 = load ptr, ptr %p.addr   (clang -O0 spill of argument p)
//                                               ->  "argument #0 'p'"
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_SUBJECTNAMES_H
#define ALIGNGUARD_SUBJECTNAMES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <string>

namespace alignguard {

class SubjectNamer {
public:
  /// Reads F's debug variables once; describe() is then cheap.
  explicit SubjectNamer(llvm::Function &F);

  /// A short human name for the pointer value V used in F.
  std::string describe(const llvm::Value *V) const;

  /// The source name of argument A: its debug variable, else its IR name;
  /// empty when it has neither.
  std::string argumentName(const llvm::Argument &A) const;

private:
  /// The debug variable of V (for an argument, also its -O0 spill slot's).
  const llvm::DILocalVariable *variableOf(const llvm::Value *V) const;
  std::string variableName(const llvm::Value *V) const;
  /// `base->field` for a load from a struct field, or "".
  std::string fieldLoad(const llvm::LoadInst &L) const;

  llvm::DenseMap<const llvm::Value *, const llvm::DILocalVariable *> Vars;
};

} // namespace alignguard

#endif // ALIGNGUARD_SUBJECTNAMES_H
