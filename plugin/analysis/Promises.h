//===- Promises.h - Find the alignment promises in a function ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// "Collect first, then rewrite": this file only reads IR. It lists every
// alignment promise of a function in the forms LLVM and its frontends write:
//
//   call void @llvm.assume(i1 true) ["align"(ptr %p, i64 64)]        bundle
//   call void @llvm.assume(i1 true) ["align"(ptr %p, i64 %a, i64 16)]
//   %m = and i64 (ptrtoint %p), 63 ; %c = icmp eq %m, 0
//   call void @llvm.assume(i1 %c)                                     icmp
//   define void @k(ptr align 64 %p)                  param-attr (entry only)
//   %p = call align 64 ptr @aligned_buf()                       return-attr
//   %q = call ptr @__rust_alloc(i64 %n, i64 allocalign %a)      return-attr
//   load <8 x float>, ptr %in, align 32   ; %in an entry's argument   access
//   %q = load ptr, ptr %x, !align !{i64 64}                   load-metadata
//
// The audit also asks for F's own return promise, which align-guard checks
// where it is relied on, after each call:
//
//   define align 64 ptr @aligned_buf()                          return-attr
//
// A promise the pass cannot check keeps a reason in Unsupported instead of
// being dropped, so callers can report it. This is the one place that
// decides what can be checked: the guard's warning and the audit's
// `unsupported` status both read Unsupported (odd operands, non-integral
// address spaces, naked functions, blocks shared by several EH funclets).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_PROMISES_H
#define ALIGNGUARD_PROMISES_H

#include "PromiseKind.h"

#include "llvm/ADT/APInt.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>
#include <vector>

namespace alignguard {

/// Which promises collectAlignmentPromises lists.
struct CollectScope {
  /// `align` parameters of an entry point (the pass checks these).
  bool EntryParams = true;
  /// `align` parameters of every definition (the audit lists them all).
  bool AllParams = false;
  /// Assumes and accesses align-guard has already guarded (skipped by the
  /// pass, listed by the audit).
  bool GuardedAssumes = false;
  /// `align` and `allocalign` on call results, and `align` on F's own
  /// return value.
  bool Returns = false;
  /// Loads, stores, masked accesses and memory intrinsics aligned beyond
  /// what their element type needs, on a pointer from F's arguments.
  bool Accesses = false;
  /// Pointers loaded with `!align` metadata (every function).
  bool Loads = false;
};

struct AlignmentPromise {
  PromiseKind Kind;
  llvm::Function *F = nullptr;
  /// The llvm.assume making the promise (bundle and icmp kinds).
  llvm::CallInst *Assume = nullptr;
  /// Which operand bundle of Assume (bundle kind).
  unsigned BundleIndex = 0;
  /// The parameter carrying `align N` (param-attr kind).
  llvm::Argument *Param = nullptr;
  /// The call, ret or memory access making the promise (return-attr and
  /// access kinds); the assume for the others.
  llvm::Instruction *Inst = nullptr;
  /// The assume or access carries align-guard's mark (GuardMetadata.h;
  /// only with CollectScope::GuardedAssumes).
  bool Guarded = false;
  /// The pointer (or fixed vector of pointers) promised to be aligned.
  llvm::Value *Pointer = nullptr;
  /// An integer; a ConstantInt when the alignment is known when compiling.
  llvm::Value *Alignment = nullptr;
  /// An integer or null (zero): the promise is about `Pointer - Offset`.
  llvm::Value *Offset = nullptr;
  /// Why the pass leaves this promise alone; empty when it can check it.
  std::string Unsupported;
  /// The alignment is the one the pointee's type implies on a pointer the
  /// frontend marks as a reference (C++ references and `this`, rustc's
  /// references): see isTypeAlignment. Not a kernel's promise; align-guard
  /// and the audit leave it out unless asked for `type-alignment`.
  bool TypeImplied = false;
  /// A return promise whose alignment is the call's `allocalign` argument
  /// (known at run time), not an `align` attribute.
  bool FromAllocAlign = false;

  bool isSupported() const { return Unsupported.empty(); }
  /// A compile-time alignment of 1 promises nothing: no check needed.
  bool isTrivial() const;
};

/// All alignment promises of F that Scope asks for, parameter and return
/// attributes first, then in instruction order. IsEntry says whether F is a
/// kernel entry point (EntryParams, Accesses).
std::vector<AlignmentPromise>
collectAlignmentPromises(llvm::Function &F, bool IsEntry,
                         const CollectScope &Scope = CollectScope());

/// A test `(ptrtoint P - Offset) & (A-1) ==/!= 0` (or `urem` by A): legacy
/// assumes hold one, and so do checks that code does itself. The same test
/// of a plain integer (a stride, say: `and %stride, 31`) sets Integer
/// instead of Pointer.
struct AlignmentTest {
  llvm::Value *Pointer = nullptr;
  llvm::Value *Integer = nullptr;
  llvm::APInt Alignment;
  llvm::Value *Offset = nullptr; ///< null: zero
  bool AlignedWhenTrue = true;   ///< `icmp eq` (true) or `icmp ne` (false)
};

/// Reads Cond as an AlignmentTest, or returns false.
bool matchAlignmentTest(llvm::Value *Cond, AlignmentTest &Test);

/// The rule for type alignment: `align N` on a parameter or a return value
/// that the frontend also marks `dereferenceable(M)` or
/// `dereferenceable_or_null(M)` with M a multiple of N, or `nonnull`, and N
/// at most 16. That is what clang writes for every C++ reference, `this`
/// and reference return (`align alignof(T) dereferenceable(sizeof(T))`),
/// and rustc for references (`&[f32; 16]`: `align 4 dereferenceable(64)`;
/// a slice: `nonnull align 4`). A type's size is a multiple of its
/// alignment, so a larger N than M's share is not a type's; and no scalar
/// type of the targets AlignGuard supports is aligned beyond 16 (long
/// double, __int128), so a larger N is an alignment someone wrote: rustc's
/// `#[repr(align(64))]`, alignas(64), a vector type of 32 or 64 bytes.
/// ArgNo is a parameter's number, or -1 for the return value.
bool isTypeAlignment(const llvm::AttributeList &Attrs, int ArgNo,
                     uint64_t Alignment);

/// True when CB calls a C or C++ library allocator whose alignment LLVM
/// knows on its own (aligned_alloc, memalign, the align_val_t operators
/// new): LLVM folds a check of the returned pointer away whatever the
/// attributes say, so align-guard does not check it.
bool isLibraryAlignedAllocator(const llvm::CallBase &CB);

/// Why a call isLibraryAlignedAllocator is left alone, for the guard's
/// remark and the audit's reason alike.
std::string libraryAllocatorGuarantee(const llvm::CallBase &CB);

/// Where the check of the pointer I produces (a call's result, a loaded
/// pointer) goes: the instruction after I, or the first of an invoke's
/// normal destination (align-guard gives it a single predecessor first),
/// past any static alloca; null when there is none (callbr).
llvm::Instruction *resultCheckPoint(const llvm::Instruction &I);

/// The alignment a load's `!align` metadata promises its loaded pointer,
/// or none.
std::optional<uint64_t> loadedAlignment(const llvm::LoadInst &Load);

/// isTypeAlignment for a pointer loaded with `!align`: at most 16, whatever
/// else the load says. `!align` is itself the reference marker: rustc puts
/// it on loads of references, Box and NonNull-like values (`!nonnull !{}
/// !align !{i64 4}`, and on Option<&T> without `!nonnull`) with the pointee
/// type's alignment; a larger one is `#[repr(align(N))]`.
bool isTypeAlignment(const llvm::LoadInst &Load, uint64_t Alignment);

/// True when an `align` on this parameter is part of the calling convention,
/// not a caller's promise: the callee's own copy (byval, inalloca,
/// preallocated), or a byref argument whose alignment lays out the kernel
/// argument segment. Removing it would change the ABI, so it stays, unchecked.
bool isABIAlignment(const llvm::Argument &A);

} // namespace alignguard

#endif // ALIGNGUARD_PROMISES_H
