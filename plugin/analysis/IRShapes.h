//===- IRShapes.h - Where the IR keeps alignment, read once -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The few IR shapes every part of AlignGuard reads, each known in one place:
//
//   call void @llvm.assume(i1 true) ["align"(ptr %p, i64 64, i64 %off)]
//       forEachAlignBundle: the "align" bundles of an assume
//   load <8 x float>, ptr %p, align 32
//   call void @llvm.memcpy(ptr align 16 %d, ptr align 16 %s, ...)
//       memoryAccessOperands: which operand is the pointer, its alignment
//       and the type accessed (ASan's InterestingMemoryOperand, for us)
//   naturalAccessAlignment: the most an access of a type states without
//       promising anything (beyond it, the access is over-aligned)
//   abiElementAlignment: what an access of a type can count on without
//       any promise (what recover and fallback lower an access to)
//
//   checkCanMovePast: what a check can move below unobserved (the stores
//       and reloads between clang's -O0 assumes)
// and the target and EH facts the planner needs (GPU targets, funclets).
// Nothing here changes IR except setAccessAlignment.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_IRSHAPES_H
#define ALIGNGUARD_IRSHAPES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/TinyPtrVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace alignguard {

/// The tag of the assume bundles that promise alignment.
inline constexpr const char *AlignBundleTag = "align";

/// Calls Fn(unsigned Index, llvm::OperandBundleUse Bundle) for every "align"
/// operand bundle of Call, in order (Index counts all bundles).
template <typename CallbackT>
void forEachAlignBundle(const llvm::CallBase &Call, CallbackT Fn) {
  for (unsigned Idx = 0, E = Call.getNumOperandBundles(); Idx != E; ++Idx) {
    llvm::OperandBundleUse Bundle = Call.getOperandBundleAt(Idx);
    if (Bundle.getTagName() == AlignBundleTag)
      Fn(Idx, Bundle);
  }
}

/// True when Call has at least one "align" bundle.
bool hasAlignBundle(const llvm::CallBase &Call);

/// One pointer operand of a memory access: a load, store, masked load or
/// store, or memory intrinsic (a memcpy has two).
struct MemoryAccessOperand {
  unsigned OperandNo;         ///< the pointer's operand number in the access
  llvm::Value *Pointer;       ///< the pointer operand
  llvm::MaybeAlign Alignment; ///< what the access states (none: unknown)
  llvm::Type *AccessType;     ///< the type read or written (i8 for memory
                              ///< intrinsics)
  bool IsWrite;
};

/// The pointer operands through which I reads or writes memory; empty for
/// any other instruction.
llvm::SmallVector<MemoryAccessOperand, 2>
memoryAccessOperands(llvm::Instruction &I);

/// The largest alignment an access of Ty states without promising anything
/// beyond its type: the larger of its scalar (or vector element) type's ABI
/// alignment and store size. `load i64, align 8` and `load <2 x i64>, align
/// 8` are natural, also where a missing or default datalayout gives i64 an
/// ABI alignment of 4; `load <4 x i32>, align 16` states more (4) and is
/// over-aligned. An aggregate's is its ABI alignment.
llvm::Align naturalAccessAlignment(llvm::Type *Ty, const llvm::DataLayout &DL);

/// The alignment an access of Ty can count on without any promise: its
/// scalar (or vector element) type's ABI alignment (a <8 x float> access,
/// 4; an i64 where the layout gives 4, 4). What an access whose alignment
/// rested on a promise is lowered to when the promise goes (recover, the
/// fallback copy): not the store size, which the ABI does not promise (an
/// i64 field of a 4-aligned struct on i386).
llvm::Align abiElementAlignment(llvm::Type *Ty, const llvm::DataLayout &DL);

/// Sets the alignment I states for the pointer operand OperandNo (one of
/// memoryAccessOperands(I)).
void setAccessAlignment(llvm::Instruction &I, unsigned OperandNo,
                        llvm::Align A);

/// True when a check placed before I could as well go after it, unobserved:
/// I cannot trap or stop, touches no memory but the function's own allocas
/// (the spills and reloads of clang's unoptimised code), and is no call but
/// a debug or lifetime marker. Not an assume: an unchecked promise must not
/// come before its check.
bool checkCanMovePast(const llvm::Instruction &I);

/// True for what must stay at the top of the entry block, before any check:
/// an alloca (static there) and llvm.localescape.
bool staysAtEntryTop(const llvm::Instruction &I);

/// True when the module is device code, where no host runtime can be linked.
bool isGPUTarget(const llvm::Module &M);

/// How a failing check in a device module prints its report
/// (DeviceReport.h).
enum class DevicePrinter {
  None, ///< host code, or a device that cannot print (SPIR, SPIR-V, an
        ///< AMDGPU module without the ROCm device libraries)
  PTX,  ///< NVPTX: vprintf and __assertfail, resolved by ptxas and the driver
  HIP,  ///< amdgcn-amd-amdhsa: HIP's device stderr, the ROCm device
        ///< libraries' __ockl_fprintf_* (hipPrintFunctions)
};

/// The ROCm device libraries' functions that print to stderr from an AMDGPU
/// kernel (ockl's services.cl): begin, append a string, append arguments.
llvm::ArrayRef<llvm::StringRef> hipPrintFunctions();

/// M's printer. An amdgcn-amd-amdhsa module prints where the libraries'
/// functions are in M already (declared or defined) or LibrariesAfter says
/// they are linked after the pass (`device-libs-after`); otherwise nothing
/// would define them, and it cannot print.
DevicePrinter devicePrinter(const llvm::Module &M, bool LibrariesAfter);

/// The funclet colours of F's blocks (Windows EH); empty for other
/// personalities. Calls in a funclet need a "funclet" bundle.
llvm::DenseMap<llvm::BasicBlock *, llvm::TinyPtrVector<llvm::BasicBlock *>>
funcletColors(llvm::Function &F);

/// The pad of the one funclet BB belongs to (null outside funclets); sets
/// Ambiguous when BB belongs to several.
llvm::Instruction *funcletPadOf(
    const llvm::DenseMap<llvm::BasicBlock *,
                         llvm::TinyPtrVector<llvm::BasicBlock *>> &Colors,
    llvm::BasicBlock *BB, bool &Ambiguous);

/// Marks the `or`s whose operands share no bit as disjoint (LLVM 18+ reads
/// only a disjoint `or` as an add; IR from older LLVMs has no such flag).
/// Returns true when it marked one.
bool markDisjointOrs(llvm::Function &F);

} // namespace alignguard

#endif // ALIGNGUARD_IRSHAPES_H
