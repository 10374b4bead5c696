//===- Suppressions.cpp - Which functions a user opted out, and by what --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See Suppressions.h. The ignorelist is LLVM's SpecialCaseList, read once
// per pass run; the annotations are read once per module.
//
//===----------------------------------------------------------------------===//
#include "Suppressions.h"

#include "Compat.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace alignguard {

/// The section UBSan's alignment check reads; unsectioned entries (`*`)
/// match it too.
static constexpr const char *Section = "alignment";

/// The C string a global annotation operand points to, or empty.
static StringRef annotationText(const Value *V) {
  auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return "";
  auto *Data = dyn_cast<ConstantDataSequential>(GV->getInitializer());
  if (!Data || !Data->isCString())
    return "";
  return Data->getAsCString();
}

/// Fills Annotated with the functions `annotate("no_align_guard")` marks:
/// the entries { function, text, file, line, args } of
/// @llvm.global.annotations.
static void
readAnnotations(const Module &M,
                DenseMap<const Function *, std::string> &Annotated) {
  const GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Entries = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Entries)
    return;
  for (const Use &U : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(U.get());
    if (!Entry || Entry->getNumOperands() < 4)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    if (!F || annotationText(Entry->getOperand(1)) != NoAlignGuardAnnotation)
      continue;
    std::string Where =
        "annotate(\"" + std::string(NoAlignGuardAnnotation) + "\")";
    StringRef File = annotationText(Entry->getOperand(2));
    auto *Line = dyn_cast<ConstantInt>(Entry->getOperand(3));
    if (!File.empty()) {
      Where += " at " + File.str();
      if (Line && !Line->isZero())
        Where += ":" + std::to_string(Line->getZExtValue());
    }
    Annotated.try_emplace(F, std::move(Where));
  }
}

Expected<Suppressions> Suppressions::load(const Module &M, StringRef File) {
  Suppressions S;
  readAnnotations(M, S.Annotated);
  if (File.empty())
    return std::move(S);
  S.File = File.str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read ignorelist '" + File +
                                 "': " + Buffer.getError().message());
  S.Buffer = std::move(*Buffer);
  std::string Error;
  S.List = SpecialCaseList::create(S.Buffer.get(), Error);
  if (!S.List)
    return createStringError(inconvertibleErrorCode(),
                             "invalid ignorelist '" + File + "': " + Error);
  return std::move(S);
}

std::string Suppressions::rule(unsigned Line) const {
  StringRef Rest = Buffer->getBuffer(), Text;
  for (unsigned I = 0; I != Line; ++I)
    std::tie(Text, Rest) = Rest.split('\n');
  return Text.trim().str() + " at " + File + ":" + std::to_string(Line);
}

std::optional<Suppression> Suppressions::of(const Function &F) const {
  auto It = Annotated.find(&F);
  if (It != Annotated.end())
    return Suppression{Suppression::InSource, It->second};
  if (!List)
    return std::nullopt;
  std::string Demangled = demangle(F.getName().str());
  for (StringRef Name : {F.getName(), StringRef(Demangled)})
    if (unsigned Line = compat::specialCaseLine(*List, Section, "fun", Name))
      return Suppression{Suppression::External, rule(Line)};
  SmallVector<std::string, 2> Sources;
  if (const DISubprogram *SP = F.getSubprogram())
    Sources.push_back(SP->getFilename().str());
  Sources.push_back(F.getParent()->getSourceFileName());
  for (const std::string &Source : Sources)
    if (!Source.empty())
      if (unsigned Line =
              compat::specialCaseLine(*List, Section, "src", Source))
        return Suppression{Suppression::External, rule(Line)};
  return std::nullopt;
}

} // namespace alignguard
