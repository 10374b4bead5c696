//===- EntryPoints.cpp - Which definitions are kernel entry points -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See EntryPoints.h for the rules.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"

#include "SubjectNames.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/GlobPattern.h"

using namespace llvm;

namespace alignguard {

bool isOptedOut(const Function &F) {
  return F.hasFnAttribute(NoAlignGuardAttr);
}

static bool hasKernelCallingConv(const Function &F) {
  switch (F.getCallingConv()) {
  case CallingConv::PTX_Kernel:
  case CallingConv::AMDGPU_KERNEL:
  case CallingConv::SPIR_KERNEL:
    return true;
  default:
    return false;
  }
}

/// Adds the functions named by `!nvvm.annotations = !{!{f, !"kernel", i32 1}}`.
CallingConv::ID calleeConvention(CallingConv::ID CC) {
  switch (CC) {
  case CallingConv::SPIR_KERNEL:
    return CallingConv::SPIR_FUNC;
  case CallingConv::AMDGPU_KERNEL:
  case CallingConv::PTX_Kernel:
    return CallingConv::C;
  default:
    return CC;
  }
}

static void collectNVVMKernels(const Module &M,
                               SmallPtrSetImpl<Function *> &Out) {
  NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations");
  if (!Annotations)
    return;
  for (MDNode *Node : Annotations->operands()) {
    if (Node->getNumOperands() < 3)
      continue;
    auto *FnMD = dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0).get());
    auto *Key = dyn_cast_or_null<MDString>(Node->getOperand(1).get());
    auto *Val = dyn_cast_or_null<ConstantAsMetadata>(Node->getOperand(2).get());
    if (!FnMD || !Key || !Val || Key->getString() != "kernel")
      continue;
    auto *F = dyn_cast<Function>(FnMD->getValue()->stripPointerCasts());
    auto *On = dyn_cast<ConstantInt>(Val->getValue());
    if (F && On && !On->isZero())
      Out.insert(F);
  }
}

bool isGPUKernel(const Function &F) {
  if (hasKernelCallingConv(F))
    return true;
  SmallPtrSet<Function *, 8> Kernels;
  collectNVVMKernels(*F.getParent(), Kernels);
  return Kernels.count(const_cast<Function *>(&F)) != 0;
}

/// Adds the functions carrying `__attribute__((annotate("alignguard_entry")))`,
/// which clang records in @llvm.global.annotations as {fn, string, ...}.
static void collectAnnotatedEntries(Module &M,
                                    SmallPtrSetImpl<Function *> &Out) {
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Array = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Array)
    return;
  for (Value *Op : Array->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    auto *Str =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    if (!F || !Str || !Str->hasInitializer())
      continue;
    auto *Text = dyn_cast<ConstantDataSequential>(Str->getInitializer());
    if (Text && Text->isCString() && Text->getAsCString() == EntryAnnotation)
      Out.insert(F);
  }
}

/// Externally visible in the sense of the default rule: a caller outside the
/// module can reach it, and this very body is the one that runs.
static bool isExternallyVisibleDefinition(const Function &F) {
  return F.hasExternalLinkage() || F.hasWeakAnyLinkage();
}

/// Compiles the globs once per module rather than once per function.
static std::vector<GlobPattern>
compileGlobs(const std::vector<std::string> &Texts) {
  std::vector<GlobPattern> Globs;
  for (const std::string &Text : Texts) {
    Expected<GlobPattern> Glob = GlobPattern::create(Text);
    if (!Glob) {
      consumeError(Glob.takeError());
      assert(false && "globs are validated by parseAlignGuardOptions");
      continue;
    }
    Globs.push_back(std::move(*Glob));
  }
  return Globs;
}

static bool matchesAny(const std::vector<GlobPattern> &Globs, StringRef Name) {
  for (const GlobPattern &Glob : Globs)
    if (Glob.match(Name))
      return true;
  return false;
}

EntryPoints::EntryPoints(Module &M, const AlignGuardOptions &Opts)
    : M(M), EntryGlobs(compileGlobs(Opts.EntryGlobs)),
      ExcludeGlobs(compileGlobs(Opts.ExcludeGlobs)) {
  collectNVVMKernels(M, Marked);
  collectAnnotatedEntries(M, Marked);
  for (Function &F : M)
    if (hasKernelCallingConv(F) || F.hasFnAttribute(EntryAttr))
      Marked.insert(&F);
  HasMarkers = !Marked.empty();
  UseDefaultRule = !HasMarkers && Opts.EntryGlobs.empty();
}

bool EntryPoints::isEntry(const Function &F) const {
  if (F.isDeclaration() || isOptedOut(F))
    return false;
  // A recover copy is called where its function was: an entry point when
  // that is one.
  if (isRecoverCopy(F)) {
    const Function *Original = M.getFunction(sourceFunctionName(F));
    return Original && Original != &F && isEntry(*Original);
  }
  bool Entry = Marked.count(&F) || hasKernelCallingConv(F) ||
               F.hasFnAttribute(EntryAttr) ||
               matchesAny(EntryGlobs, F.getName()) ||
               (UseDefaultRule && isExternallyVisibleDefinition(F));
  return Entry && !matchesAny(ExcludeGlobs, F.getName());
}

} // namespace alignguard
