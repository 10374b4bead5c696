//===- EntryPoints.h - Which definitions are entry points -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An `align N` parameter attribute is a promise the *caller* makes. AlignGuard
// checks it only where the caller is outside the compiler's view: at a kernel
// entry point. A definition is an entry point when
//   - it has a GPU kernel calling convention (ptx_kernel, amdgpu_kernel,
//     spir_kernel) or an !nvvm.annotations "kernel" entry;
//   - it carries the string attribute "alignguard-entry", or clang's
//     __attribute__((annotate("alignguard_entry")));
//   - its name matches an entry=GLOB of the pass (exclude=GLOB removes).
// When the module marks none of these ways and no entry=GLOB is given, every
// externally visible definition is an entry point. A recover copy
// (UnalignedCopies.h) is one when its function is. A function with the
// string attribute "no-align-guard" is never instrumented at all.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_ENTRYPOINTS_H
#define ALIGNGUARD_ENTRYPOINTS_H

#include "Options.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/GlobPattern.h"

#include <vector>

namespace alignguard {

/// The string attribute that opts a function out of AlignGuard entirely.
inline constexpr const char *NoAlignGuardAttr = "no-align-guard";
/// The string attribute (and annotate() text, with '_') marking an entry.
inline constexpr const char *EntryAttr = "alignguard-entry";
inline constexpr const char *EntryAnnotation = "alignguard_entry";

class EntryPoints {
public:
  /// Reads M's markers and Opts' globs. An invalid glob in Opts is a bug of
  /// the caller: parseAlignGuardOptions has rejected it already.
  EntryPoints(llvm::Module &M, const AlignGuardOptions &Opts);

  /// Whether F, a function of M, is an entry point now (its linkage and
  /// attributes as they are, the module's markers as they were read).
  bool isEntry(const llvm::Function &F) const;
  /// True when the module marks entry points itself (calling convention,
  /// metadata, attribute or annotation), so the default rule is off.
  bool moduleHasMarkers() const { return HasMarkers; }

private:
  const llvm::Module &M;
  std::vector<llvm::GlobPattern> EntryGlobs, ExcludeGlobs;
  /// Marked by module metadata, annotation, calling convention or attribute.
  llvm::SmallPtrSet<llvm::Function *, 16> Marked;
  bool HasMarkers = false;
  /// No markers and no entry=GLOB: every externally visible definition.
  bool UseDefaultRule = false;
};

/// True when F opted out with "no-align-guard".
bool isOptedOut(const llvm::Function &F);

/// Whether F is a GPU kernel: a kernel calling convention (ptx_kernel,
/// amdgpu_kernel, spir_kernel) or an !nvvm.annotations "kernel" entry.
bool isGPUKernel(const llvm::Function &F);

/// The calling convention of a function made from one of convention CC
/// that it calls (a recover or fallback copy, an outlined body): a kernel
/// convention, which permits no calls, becomes its target's convention for
/// device functions (spir_kernel: spir_func; amdgpu_kernel, ptx_kernel: C).
llvm::CallingConv::ID calleeConvention(llvm::CallingConv::ID CC);

} // namespace alignguard

#endif // ALIGNGUARD_ENTRYPOINTS_H
