//===- GuardMetadata.h - The contract between align-guard and the audit ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// align-guard marks what it guarded, so that a second run leaves it alone and
// the audit can say what became of each promise. This file is the contract
// (the names, the layouts) and its only reader; transform/GuardMarking.h is
// its only writer:
//
//   call void @llvm.assume(i1 true) ["align"(ptr %b, i64 64)],
//       !alignguard.guarded !0
//   load <8 x float>, ptr %p, align 32, !alignguard.guarded !1
//   !0 = !{!"param-attr"}            ; made from an `align` parameter
//                                    ; (`return-attr`: a call's result;
//                                    ; `load-metadata`: a load's `!align`)
//   !1 = !{!"hoisted"}               ; an access's or assume's check
//                                    ; placement
//   !2 = !{!"fallback-unsafe: ..."}  ; why the requested action was not used
//   !alignguard.version = !{!3}      ; !3 = !{i32 1}: this contract's version
//
// A node holds at most one note of each kind: the origin (a promise kind),
// the placement (a CheckPlacement name), and the downgrade (any other text).
//
// A deferred run (passes/ExpandPass.h) leaves an entry point's `align`
// parameters as they are until the end of the pipeline; what marks them
// checked meanwhile is the marker call that tests the argument:
//
//   call void @alignguard.deferred.check(i32 0) ["alignguard.checks"(ptr %b,
//                                                   ...)]
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_GUARDMETADATA_H
#define ALIGNGUARD_GUARDMETADATA_H

#include "PromiseKind.h"

#include "llvm/IR/Instruction.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class CallBase;
} // namespace llvm

namespace alignguard {

/// The metadata kind on a guarded assume or access.
inline constexpr const char *GuardedMDName = "alignguard.guarded";
/// The module's named metadata holding the contract's version.
inline constexpr const char *GuardVersionMDName = "alignguard.version";
/// The version this build writes and reads.
inline constexpr unsigned GuardContractVersion = 1;

/// Where a check sits relative to the promise it tests.
enum class CheckPlacement {
  AtPromise, ///< just before the assume, or at the entry for parameters
  Hoisted,   ///< a check moved out of at least one loop (an access's, an
             ///< assume's, an `!align` load's)
  InLoop,    ///< an access check before the access, inside its loop
  InPlace,   ///< an access check before the access, which is in no loop
};

/// `at-promise`, `hoisted`, `in-loop`, `in-place`.
llvm::StringRef checkPlacementName(CheckPlacement P);

/// What align-guard records on a guarded instruction.
struct GuardNote {
  /// The kind of promise the assume was made from, after its check: `align`
  /// parameters (ParamAttr), a call's `align`/`allocalign` (ReturnAttr), a
  /// load's `!align` (LoadMetadata); none for an assume that was one.
  std::optional<PromiseKind> MadeFrom;
  /// Recorded for access checks, and for an assume whose check was
  /// hoisted before its loop (otherwise the assume's own is AtPromise).
  std::optional<CheckPlacement> Placement;
  /// Why the requested action was not used here (the check aborts); empty
  /// when it was.
  std::string Downgrade;
};

/// The note on I; none when I is not guarded.
std::optional<GuardNote> readGuardNote(const llvm::Instruction &I);

/// True when I carries the guarded mark.
bool isGuarded(const llvm::Instruction &I);

/// True when I is marked as instrumentation (`!nosanitize`, GuardMarking.h).
bool isNoSanitize(const llvm::Instruction &I);

/// The function a deferred place calls until `align-guard-expand` makes its
/// branch (passes/ExpandPass.h), and the bundle that holds its checks.
constexpr const char *DeferredCheckName = "alignguard.deferred.check";
constexpr const char *DeferredChecksBundle = "alignguard.checks";

/// One check's operands in that bundle, in their order there: the pointer,
/// the alignment, the offset (0: none), the guard (true: none), the
/// descriptor (null under trap). This file writes and reads the layout.
struct DeferredCheckOperands {
  llvm::Value *Pointer, *Alignment, *Offset, *Guard, *Site;
};

/// The checks a call of the marker holds; none when Call is not one, or its
/// bundle is not a whole number of checks.
std::vector<DeferredCheckOperands>
readDeferredChecks(const llvm::CallBase &Call);

/// True when a deferred place tests Arg itself for at least Alignment,
/// always (no offset, no guard): its parameter's promise is checked there.
/// For a vector of pointers, each of its elements (an `extractelement` at a
/// constant index) is tested.
bool isCheckedByDeferredPlace(const llvm::Argument &Arg, uint64_t Alignment);

} // namespace alignguard

#endif // ALIGNGUARD_GUARDMETADATA_H
