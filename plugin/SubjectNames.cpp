//===- SubjectNames.cpp - Name the pointer a promise is about ------------===//
#include "SubjectNames.h"

#include "Compat.h"
#include "PointerOrigins.h"

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
  // A pointer loaded from a field of a struct argument (DLTensor-style).
  if (auto *Load = dyn_cast<LoadInst>(Stripped))
    if (auto *GEP = dyn_cast<GEPOperator>(Load->getPointerOperand()))
      if (GEP->getNumIndices() == 2)
        if (auto *Field = dyn_cast<ConstantInt>(GEP->getOperand(2)))
          if (const Argument *Base =
                  argumentOf(GEP->getPointerOperand()))
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
