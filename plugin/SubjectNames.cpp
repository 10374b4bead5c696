//===- SubjectNames.cpp - Name the pointer a promise is about ------------===//
#include "SubjectNames.h"

#include "Compat.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace alignguard {

SubjectNamer::SubjectNamer(Function &F) {
  compat::forEachDebugVariable(F, [&](Value *Loc, DILocalVariable *Var) {
    if (Loc && Var && !Var->getName().empty())
      Vars.try_emplace(Loc, Var);
  });
}

std::string SubjectNamer::variableName(const Value *V) const {
  auto It = Vars.find(V);
  if (It != Vars.end())
    return It->second->getName().str();
  return "";
}

std::string SubjectNamer::argumentName(const Argument &A) const {
  std::string Name = variableName(&A);
  if (Name.empty()) {
    // At -O0 the debug variable describes the argument's spill slot.
    for (const User *U : A.users())
      if (auto *Store = dyn_cast<StoreInst>(U))
        if (Store->getValueOperand() == &A)
          if (!(Name = variableName(Store->getPointerOperand())).empty())
            break;
  }
  if (Name.empty() && A.hasName())
    Name = A.getName().str();
  return Name;
}

const Argument *SubjectNamer::underlyingArgument(const Value *V) const {
  // Spill chains are short (clang -O0, SIMDe's macros: two slots); the bound
  // only guards against pathological IR.
  for (unsigned Depth = 0; Depth != 8; ++Depth) {
    V = V->stripPointerCasts();
    if (auto *A = dyn_cast<Argument>(V))
      return A;
    // %v = load %slot, where the only store to the alloca %slot is X:
    // continue with X.
    auto *Load = dyn_cast<LoadInst>(V);
    if (!Load)
      return nullptr;
    auto *Slot =
        dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts());
    if (!Slot)
      return nullptr;
    const Value *Stored = nullptr;
    for (const User *U : Slot->users()) {
      if (auto *Store = dyn_cast<StoreInst>(U)) {
        if (Store->getPointerOperand() != Slot || Stored)
          return nullptr; // stored more than once, or the slot escapes
        Stored = Store->getValueOperand();
      } else if (!isa<LoadInst>(U) && !isa<IntrinsicInst>(U)) {
        return nullptr; // escapes or is written some other way
      }
    }
    if (!Stored)
      return nullptr;
    V = Stored;
  }
  return nullptr;
}

std::string SubjectNamer::describe(const Value *V) const {
  if (const Argument *A = underlyingArgument(V)) {
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
  // A pointer loaded from a field of a struct argument (DLTensor-style).
  if (auto *Load = dyn_cast<LoadInst>(Stripped))
    if (auto *GEP = dyn_cast<GEPOperator>(Load->getPointerOperand()))
      if (GEP->getNumIndices() == 2)
        if (auto *Field = dyn_cast<ConstantInt>(GEP->getOperand(2)))
          if (const Argument *Base =
                  underlyingArgument(GEP->getPointerOperand()))
            return "field " + std::to_string(Field->getZExtValue()) + " of " +
                   describe(Base);
  if (Stripped->hasName())
    return "'%" + Stripped->getName().str() + "'";
  if (isa<ConstantPointerNull>(Stripped))
    return "null";
  if (auto *I = dyn_cast<Instruction>(Stripped))
    return std::string("the result of a ") + I->getOpcodeName();
  return "a pointer";
}

} // namespace alignguard
