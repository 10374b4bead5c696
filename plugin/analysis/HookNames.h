//===- HookNames.h - The runtime's hooks, by name ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The names of runtime/include/alignguard/alignguard.h's report hooks, their
// kinds and shapes: what the emitter calls (transform/RuntimeABI.h), what the
// analyses recognise as a check's failing side (AlignmentFacts.h), and what
// align-guard-cold-exits rewrites. Names only: building the calls is
// RuntimeABI's.
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_HOOKNAMES_H
#define ALIGNGUARD_HOOKNAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace alignguard {

inline constexpr const char *ReportHookName = "__alignguard_report";
inline constexpr const char *ReportAbortHookName = "__alignguard_report_abort";
inline constexpr const char *FallbackHookName = "__alignguard_fallback";

/// The runtime's hooks: report and continue (recover, return=N), report
/// and abort, record that the unaligned fallback runs.
enum class HookKind { Report, Abort, Fallback };

/// How a hook is called: with one check's descriptor, pointer, alignment
/// and offset (`void (ptr, i64, i64, i64)`), or with a place's pointers,
/// 0 past the count, then a table of its 2 to MaxTableChecks descriptors
/// and their count (`void (i64, i64, i64, i64, ptr, i64)`): the runtime
/// finds the first that fails (`__alignguard_report_first`, ...). The
/// pointers come first so that they are passed in the registers a kernel's
/// own pointer arguments arrive in: the hot path need not move them.
enum class HookShape { OneCheck, Table };
inline constexpr unsigned MaxTableChecks = 4;

/// The name of the hook of Kind and Shape.
llvm::StringRef hookName(HookKind Kind, HookShape Shape);
/// Every hook's name, and whether Name is one, an aborting one or a
/// fallback one.
llvm::ArrayRef<llvm::StringRef> hookNames();
bool isHookName(llvm::StringRef Name);
bool isAbortHookName(llvm::StringRef Name);
bool isFallbackHookName(llvm::StringRef Name);

/// One hook: its name, kind, shape and C type (for the error when a module
/// declares it otherwise).
struct HookEntry {
  llvm::StringRef Name;
  HookKind Kind;
  HookShape Shape;
  const char *CType; ///< the runtime's parameters, for the error
};
/// Every hook, in the order align-guard-cold-exits makes their thunks.
llvm::ArrayRef<HookEntry> hooks();

} // namespace alignguard

#endif // ALIGNGUARD_HOOKNAMES_H
