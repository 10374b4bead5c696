//===- Compat.h - The one place that knows LLVM versions differ ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// AlignGuard builds against every LLVM major from 14 to 22. This is the only
// file that tests LLVM_VERSION_MAJOR or __has_include; everything else calls
// the small helpers below, so a reader of a pass never meets an #if.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_COMPAT_H
#define ALIGNGUARD_COMPAT_H

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <memory>
#include <optional>
// Triple.h moved from ADT/ to TargetParser/ in LLVM 17.
#if __has_include("llvm/TargetParser/Triple.h")
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

#if LLVM_VERSION_MAJOR >= 19
#include "llvm/IR/DebugProgramInstruction.h"
#endif
#if LLVM_VERSION_MAJOR >= 18
#include "llvm/Analysis/SimplifyQuery.h"
#endif

// EHPersonalities.h moved from Analysis/ to IR/ in LLVM 17.
#if __has_include("llvm/IR/EHPersonalities.h")
#include "llvm/IR/EHPersonalities.h"
#else
#include "llvm/Analysis/EHPersonalities.h"
#endif

// Instrumentation.h (PrepareToSplitEntryBlock) moved from Transforms/ to
// Transforms/Utils/ between LLVM 19 and 22.
#if __has_include("llvm/Transforms/Utils/Instrumentation.h")
#include "llvm/Transforms/Utils/Instrumentation.h"
#else
#include "llvm/Transforms/Instrumentation.h"
#endif

// PassPlugin.h moved to llvm/Plugins/ in LLVM 22.
#if __has_include("llvm/Plugins/PassPlugin.h")
#define ALIGNGUARD_PASS_PLUGIN_H "llvm/Plugins/PassPlugin.h"
#else
#define ALIGNGUARD_PASS_PLUGIN_H "llvm/Passes/PassPlugin.h"
#endif

// Host.h (sys::getProcessTriple, for the unit tests) moved from Support/ to
// TargetParser/ in LLVM 17.
#if __has_include("llvm/TargetParser/Host.h")
#define ALIGNGUARD_HOST_H "llvm/TargetParser/Host.h"
#else
#define ALIGNGUARD_HOST_H "llvm/Support/Host.h"
#endif

// The LLVM major the plugin was built for, as text the wrappers and the
// driver find in the plugin file (scripts/alignguard-clang reads it to check
// the plugin against the clang or opt it is about to run).
#define ALIGNGUARD_STRINGIFY_(X) #X
#define ALIGNGUARD_STRINGIFY(X) ALIGNGUARD_STRINGIFY_(X)
#define ALIGNGUARD_LLVM_MAJOR_TAG                                              \
  "alignguard-plugin-llvm-major=" ALIGNGUARD_STRINGIFY(LLVM_VERSION_MAJOR)

namespace alignguard {
namespace compat {

/// An `i8*` in address space AS: typed on LLVM 14-16, `ptr` from 17 on.
inline llvm::PointerType *bytePtrTy(llvm::LLVMContext &Ctx, unsigned AS = 0) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::get(Ctx, AS);
#else
  return llvm::PointerType::get(llvm::Type::getInt8Ty(Ctx), AS);
#endif
}

/// True for a pointer type that names its element type (LLVM 14-16 without
/// opaque pointers): such types cannot share a function by their name.
inline bool isTypedPointer(llvm::Type *T) {
#if LLVM_VERSION_MAJOR >= 17
  return false;
#else
  auto *PT = llvm::dyn_cast<llvm::PointerType>(T);
  return PT && !PT->isOpaque();
#endif
}

/// True for a coroutine that CoroSplit has not split yet.
inline bool isPresplitCoroutine(const llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 15
  return F.isPresplitCoroutine();
#else
  return F.hasFnAttribute("coroutine.presplit");
#endif
}

/// The module's target triple (a std::string before LLVM 21, a Triple after).
inline llvm::Triple targetTriple(const llvm::Module &M) {
  return llvm::Triple(M.getTargetTriple());
}

/// Calls Fn(Value *Location, DILocalVariable *Var) for every debug variable
/// record in F: dbg.declare/dbg.value intrinsics on every version, and the
/// debug records that replaced them (the default from LLVM 19).
template <typename CallbackT>
void forEachDebugVariable(llvm::Function &F, CallbackT Fn) {
  for (llvm::Instruction &I : llvm::instructions(F)) {
    if (auto *DVI = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&I))
      for (llvm::Value *Loc : DVI->location_ops())
        Fn(Loc, DVI->getVariable());
#if LLVM_VERSION_MAJOR >= 19
    for (llvm::DbgVariableRecord &DVR :
         llvm::filterDbgVars(I.getDbgRecordRange()))
      for (llvm::Value *Loc : DVR.location_ops())
        Fn(Loc, DVR.getVariable());
#endif
  }
}

/// Empties a temporary subprogram's retained nodes (its local variables and
/// labels): operand 7 on every major from 14 to 22 (getRawRetainedNodes);
/// replaceRetainedNodes is not on all of them.
inline void clearRetainedNodes(llvm::TempDISubprogram &SP) {
  SP->replaceOperandWith(7, nullptr);
}

/// Builds a copy of CI with other bundles, just before CI (insertion by
/// iterator from LLVM 19; by instruction before).
inline llvm::CallInst *
cloneCallWithBundles(llvm::CallInst *CI,
                     llvm::ArrayRef<llvm::OperandBundleDef> Bundles) {
#if LLVM_VERSION_MAJOR >= 19
  return llvm::CallInst::Create(CI, Bundles, CI->getIterator());
#else
  return llvm::CallInst::Create(CI, Bundles, CI);
#endif
}

/// Emits `call void @llvm.trap()` (the IRBuilder overloads for intrinsics
/// differ between versions; a declaration works on all).
/// The declaration of the (not overloaded) intrinsic ID in M (renamed in
/// LLVM 20).
inline llvm::Function *intrinsicDeclaration(llvm::Module *M,
                                            llvm::Intrinsic::ID ID) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::getOrInsertDeclaration(M, ID);
#else
  return llvm::Intrinsic::getDeclaration(M, ID);
#endif
}

inline llvm::CallInst *
createTrap(llvm::IRBuilderBase &B,
           llvm::ArrayRef<llvm::OperandBundleDef> Bundles = {}) {
  llvm::Module *M = B.GetInsertBlock()->getModule();
  return B.CreateCall(intrinsicDeclaration(M, llvm::Intrinsic::trap), {},
                      Bundles);
}

/// The alignment of a masked load or store, whose pointer is operand
/// PtrIdx: an i32 operand after the pointer before LLVM 22, the pointer's
/// `align` attribute from 22 on.
inline llvm::MaybeAlign maskedAccessAlign(const llvm::IntrinsicInst &II,
                                          unsigned PtrIdx) {
#if LLVM_VERSION_MAJOR >= 22
  return II.getParamAlign(PtrIdx);
#else
  if (auto *C = llvm::dyn_cast<llvm::ConstantInt>(II.getArgOperand(PtrIdx + 1)))
    return llvm::MaybeAlign(C->getZExtValue());
  return llvm::MaybeAlign();
#endif
}

/// Sets the alignment of a masked load or store (see maskedAccessAlign).
inline void setMaskedAccessAlign(llvm::IntrinsicInst &II, unsigned PtrIdx,
                                 llvm::Align A) {
#if LLVM_VERSION_MAJOR >= 22
  II.removeParamAttr(PtrIdx, llvm::Attribute::Alignment);
  II.addParamAttr(PtrIdx,
                  llvm::Attribute::getWithAlignment(II.getContext(), A));
#else
  II.setArgOperand(PtrIdx + 1,
                   llvm::ConstantInt::get(
                       llvm::Type::getInt32Ty(II.getContext()), A.value()));
#endif
}

/// The number of low bits known zero in S (renamed in LLVM 17).
inline uint32_t minTrailingZeros(llvm::ScalarEvolution &SE,
                                 const llvm::SCEV *S) {
#if LLVM_VERSION_MAJOR >= 17
  return SE.getMinTrailingZeros(S);
#else
  return SE.GetMinTrailingZeros(S);
#endif
}

/// A SCEVExpander (it stopped taking the DataLayout in LLVM 21).
inline std::unique_ptr<llvm::SCEVExpander>
makeSCEVExpander(llvm::ScalarEvolution &SE, const llvm::DataLayout &DL,
                 const char *Name) {
#if LLVM_VERSION_MAJOR >= 21
  (void)DL;
  return std::make_unique<llvm::SCEVExpander>(SE, Name);
#else
  return std::make_unique<llvm::SCEVExpander>(SE, DL, Name);
#endif
}

/// Marks I disjoint when it is an `or` whose operands provably share no
/// bit; returns true when it did. The flag exists from LLVM 18 on; older
/// versions test the bits themselves, so this does nothing there.
inline bool markDisjointIfNoCommonBits(llvm::Instruction &I) {
#if LLVM_VERSION_MAJOR >= 18
  auto *Or = llvm::dyn_cast<llvm::PossiblyDisjointInst>(&I);
  if (!Or || Or->isDisjoint() ||
      !llvm::haveNoCommonBitsSet(
          I.getOperand(0), I.getOperand(1),
          llvm::SimplifyQuery(I.getModule()->getDataLayout(), &I)))
    return false;
  Or->setIsDisjoint(true);
  return true;
#else
  (void)I;
  return false;
#endif
}

/// The first instruction of BB that is not a PHI (an iterator from LLVM 20).
inline llvm::Instruction *firstNonPHI(llvm::BasicBlock &BB) {
#if LLVM_VERSION_MAJOR >= 20
  auto It = BB.getFirstNonPHIIt();
  return It == BB.end() ? nullptr : &*It;
#else
  return BB.getFirstNonPHI();
#endif
}

/// The `range` return attribute in AL: none where there is none, and before
/// LLVM 19, where the attribute does not exist.
inline std::optional<llvm::ConstantRange>
returnRangeAttr(const llvm::AttributeList &AL) {
#if LLVM_VERSION_MAJOR >= 19
  llvm::Attribute A = AL.getRetAttr(llvm::Attribute::Range);
  if (A.isValid())
    return A.getRange();
#endif
  (void)AL;
  return std::nullopt;
}

/// AL with its `range` return attribute set to R, or removed when R is none
/// (AL itself before LLVM 19).
inline llvm::AttributeList
withReturnRangeAttr(llvm::LLVMContext &Ctx, const llvm::AttributeList &AL,
                    const std::optional<llvm::ConstantRange> &R) {
#if LLVM_VERSION_MAJOR >= 19
  llvm::AttributeList Out = AL.removeRetAttribute(Ctx, llvm::Attribute::Range);
  return R ? Out.addRangeRetAttr(Ctx, *R) : Out;
#else
  (void)Ctx;
  (void)R;
  return AL;
#endif
}

/// The argument of CB marked `allocalign` (on the call or its callee): the
/// run-time alignment of the returned block (LangRef: aligned, or null).
/// The attribute is new in LLVM 15; before, no call has one.
inline llvm::Value *allocAlignArgument(const llvm::CallBase &CB) {
#if LLVM_VERSION_MAJOR >= 15
  for (unsigned I = 0, E = CB.arg_size(); I != E; ++I)
    if (CB.paramHasAttr(I, llvm::Attribute::AllocAlign))
      return CB.getArgOperand(I);
#else
  (void)CB;
#endif
  return nullptr;
}

/// The parameter of F marked `allocalign`, if any (none before LLVM 15).
inline std::optional<unsigned> allocAlignParam(const llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 15
  for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
    if (F.hasParamAttribute(I, llvm::Attribute::AllocAlign))
      return I;
#else
  (void)F;
#endif
  return std::nullopt;
}

/// Marks CB's argument I `allocalign` (LLVM 15+; before, nothing has it).
inline void addAllocAlignParam(llvm::CallBase &CB, unsigned I) {
#if LLVM_VERSION_MAJOR >= 15
  CB.addParamAttr(I, llvm::Attribute::AllocAlign);
#else
  (void)CB;
  (void)I;
#endif
}

/// Removes `allocalign` from every parameter of AL (AL itself before 15).
inline llvm::AttributeList withoutAllocAlign(llvm::LLVMContext &Ctx,
                                             llvm::AttributeList AL,
                                             unsigned NumParams) {
#if LLVM_VERSION_MAJOR >= 15
  for (unsigned I = 0; I != NumParams; ++I)
    AL = AL.removeParamAttribute(Ctx, I, llvm::Attribute::AllocAlign);
#else
  (void)Ctx;
  (void)NumParams;
#endif
  return AL;
}

/// Registers Fn(ModulePassManager &, OptimizationLevel) at the first
/// module-level extension point of the default pipelines that comes after
/// the inliners, at every -O level (-O0's always-inliner included): the
/// optimizer-early one (LLVM 15 on: after the inliner, before the
/// vectorizers), else the optimizer-last one (LLVM 14, which has no
/// optimizer-early: after the vectorizers, before code generation). A
/// template, so that only Plugin.cpp includes PassBuilder.h; the trailing
/// parameters take the ThinOrFullLTOPhase that LLVM 20 added.
template <typename PassBuilderT, typename CallbackT>
void registerAfterInliningEPCallback(PassBuilderT &PB, CallbackT Fn) {
  auto Forward = [Fn](auto &MPM, auto Level, auto &&...) { Fn(MPM, Level); };
#if LLVM_VERSION_MAJOR >= 15
  PB.registerOptimizerEarlyEPCallback(Forward);
#else
  PB.registerOptimizerLastEPCallback(Forward);
#endif
}

/// SpecialCaseList::inSectionBlame answers the line (LLVM 14-19) or
/// (file index, line) (LLVM 22); these take either.
inline unsigned blamedLine(unsigned Line) { return Line; }
inline unsigned blamedLine(std::pair<unsigned, unsigned> FileAndLine) {
  return FileAndLine.second;
}

/// The line of the one file List was read from whose rule puts Query in
/// Section under Prefix (`fun`, `src`), or 0 when none does.
inline unsigned specialCaseLine(const llvm::SpecialCaseList &List,
                                llvm::StringRef Section, llvm::StringRef Prefix,
                                llvm::StringRef Query) {
  return blamedLine(List.inSectionBlame(Section, Prefix, Query));
}

/// Whether S begins with Prefix (StringRef::startswith became starts_with
/// in LLVM 18, and the old name went away).
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.take_front(Prefix.size()) == Prefix;
}

/// A byte order, as Support/Endian.h's read and write take it:
/// llvm::endianness from LLVM 18 on, llvm::support::endianness before.
#if LLVM_VERSION_MAJOR >= 18
using Endianness = llvm::endianness;
#else
using Endianness = llvm::support::endianness;
#endif

/// The byte order of DL's target.
inline Endianness byteOrder(const llvm::DataLayout &DL) {
  return DL.isLittleEndian() ? Endianness::little : Endianness::big;
}

} // namespace compat
} // namespace alignguard

#endif // ALIGNGUARD_COMPAT_H
