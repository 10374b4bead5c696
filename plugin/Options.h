//===- Options.h - align-guard pass parameters ------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The parameters of `align-guard<...>`, parsed from the text between the
// angle brackets into an Expected<AlignGuardOptions>:
//
//   align-guard<recover;entry=vadd*;exclude=vadd_ref>
//
// Every parameter is one word or one key=value pair, separated by ';'.
// Errors read `invalid align-guard pass parameter '<p>'`, with the reason
// after a colon, so a user sees at once which word was wrong.
//
// printAlignGuardOptions / printAuditOptions write the same text back in one
// canonical form (for `opt -print-pipeline-passes`), which the parsers read
// back to equal options. A glob or file name holding ';' or '>' cannot be
// written in a pipeline at all, so it cannot be printed back either.
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_OPTIONS_H
#define ALIGNGUARD_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace alignguard {

/// What a failing check does.
enum class FailureAction {
  Abort,    ///< __alignguard_report_abort: one report line, then abort().
  Trap,     ///< llvm.trap: no runtime needed (freestanding and GPU code).
  Recover,  ///< __alignguard_report, then continue without the promise.
  Return,   ///< __alignguard_report, then the entry point returns N.
  Fallback, ///< __alignguard_fallback, then the entry point returns what
            ///< its assumption-free copy computes from the same arguments.
};

/// The word a user writes for Action (`abort`, `trap`, `recover`,
/// `return`, `fallback`).
llvm::StringRef failureActionName(FailureAction Action);

struct AlignGuardOptions {
  FailureAction Action = FailureAction::Abort;
  /// N of `return=N` (meaningless, and not printed, for the other actions).
  int64_t ReturnValue = 0;
  /// `accesses`: also check the alignment that over-aligned loads, stores,
  /// masked accesses and memory intrinsics on an entry's arguments promise.
  bool Accesses = false;
  /// `type-alignment`: also check the alignments a parameter's or return's
  /// type implies on a reference (AlignmentPromise::TypeImplied), as
  /// UBSan's -fsanitize=alignment checks references.
  bool TypeAlignment = false;
  /// `loads`: also check the alignment that `!align` metadata on a load
  /// promises about the loaded pointer (rustc puts it on reference loads).
  bool Loads = false;
  /// `no-rerun`: under recover, a failing call goes on in the function
  /// itself, without the promises it checks, everywhere (as UBSan's
  /// recover does); by default, where a failing call could run a copy from
  /// the start, it reruns in a recover copy and the aligned path keeps its
  /// promises (FailurePolicy::Rerun), at the cost of the copy's code.
  bool NoRerun = false;
  /// `accesses-only` (implies `accesses`; align-guard's, not the audit's):
  /// check the over-aligned accesses and nothing else. A clang build
  /// (`-fpass-plugin`) runs an `align-guard<accesses>` of its pipeline once
  /// more so, after the inliner, where the aligned accesses of intrinsics
  /// and SIMD libraries have reached the entry points (Plugin.cpp).
  bool AccessesOnly = false;
  /// `deferred` (align-guard's): abort, trap and recover places get a
  /// marker call that `align-guard-expand` turns into their branch at the
  /// end of the pipeline (DeferredPlaces.h); clang's pipeline runs so.
  bool Deferred = false;
  /// `device-libs-after`: an amdgcn-amd-amdhsa module gets the ROCm device
  /// libraries linked after this pass (clang 19+'s -Xclang
  /// -mlink-builtin-bitcode-postopt, or llvm-link before llc), so its
  /// failing checks may call their stderr functions (devicePrinter).
  bool DeviceLibsAfter = false;
  /// Globs over function names that make a definition an entry point.
  std::vector<std::string> EntryGlobs;
  /// Globs over function names that are never entry points.
  std::vector<std::string> ExcludeGlobs;
  /// `ignorelist=FILE`: a special-case list (clang's -fsanitize-ignorelist
  /// format) whose `fun:` and `src:` entries, in an `[alignment]` section
  /// or unsectioned, suppress the checks of whole functions
  /// (Suppressions.h); empty: none.
  std::string Ignorelist;
};

bool operator==(const AlignGuardOptions &A, const AlignGuardOptions &B);
inline bool operator!=(const AlignGuardOptions &A, const AlignGuardOptions &B) {
  return !(A == B);
}

/// Parses the parameter text of `align-guard<...>` (without the brackets).
llvm::Expected<AlignGuardOptions>
parseAlignGuardOptions(llvm::StringRef Params);

/// Prints the parameter text of `align-guard<...>` (without the brackets):
/// the action word (always), then `accesses`, `type-alignment`, `loads`,
/// `accesses-only`, `deferred`, `device-libs-after`, then
/// `entry=GLOB` and `exclude=GLOB` once per glob in order, then
/// `ignorelist=FILE`, separated by ';':
///
///   abort
///   return=-24;accesses;type-alignment;loads;entry=k*;exclude=a;ignorelist=x.txt
///   abort;accesses;accesses-only;deferred
void printAlignGuardOptions(llvm::raw_ostream &OS,
                            const AlignGuardOptions &Opts);

/// The audit's formats: a table for a reader, JSON for the alignguard driver
/// (which writes SARIF from it: one SARIF writer) and other tools.
enum class AuditFormat { Table, JSON };

/// The audit parameters a listing needs to show a finding: groups, each of
/// which needs one of its parameters given (`all`, `type`, `system`); no
/// group: always listed. Decided per finding by AuditReport.h's listedWhen;
/// the JSON's `listed_when`, which the alignguard driver applies.
using ListingCondition = std::vector<std::vector<llvm::StringRef>>;

/// What an audit lists: its listing words `all`, `type`, `system` (the
/// one table of them is AuditListing::set's) and `system-prefix=DIR`.
struct AuditListing {
  /// `all`: every promise, not only those that need attention (unchecked,
  /// unsupported, suppressed).
  bool All = false;
  /// `type`: also the type alignments (status `type`), as `all` does.
  bool Type = false;
  /// `system`: also list (and count) the promises in system headers
  /// (AuditReport.h, isSystemPath); by default they are left out and only
  /// counted as `system` in the summary.
  bool System = false;
  /// `system-prefix=DIR`, repeatable: more directories whose files count as
  /// system headers, besides the default ones.
  std::vector<std::string> SystemPrefixes;

  /// Gives the listing word Param; false when it is not one.
  bool set(llvm::StringRef Param);
  /// Whether the listing word Param is given.
  bool given(llvm::StringRef Param) const;
  /// Whether a finding listed when C is listed: one word of each group
  /// given.
  bool lists(const ListingCondition &C) const;
  /// The listing words given, in their canonical order.
  std::vector<llvm::StringRef> words() const;
};

bool operator==(const AuditListing &A, const AuditListing &B);

/// The parameters of `align-guard-audit<table|json;output=FILE;all;type;
/// system;fail-on-unchecked;plan;ACTION;accesses;type-alignment;loads;
/// entry=GLOB;exclude=GLOB;ignorelist=FILE;system-prefix=DIR>`, ACTION
/// one of align-guard's (abort, trap, recover, return=N, fallback).
struct AuditOptions {
  AuditFormat Format = AuditFormat::Table;
  /// Where the report goes; empty: the table to stderr, JSON to stdout. `%m` is
  /// replaced by the module's source_filename made into one file name: `.`
  /// components dropped, `..` ones written `up`, the rest joined with `_`
  /// (/src/a/k.c -> src_a_k.c, ../k.c -> up_k.c), so one clang build writes one
  /// file per translation unit, even for two sources of one name in different
  /// directories.
  std::string Output;
  /// What the report lists: `all`, `type`, `system`, `system-prefix=DIR`.
  AuditListing Listing;
  /// Fail the run (an error diagnostic) when a promise is unchecked.
  bool FailOnUnchecked = false;
  /// `plan`: also report what align-guard with the options Guard would do.
  bool Plan = false;
  /// The align-guard options the audit is run for: its entry/exclude
  /// globs decide the entry points (and so the `access` kind) as for
  /// align-guard, its ignorelist the `suppressed` status; the action words and
  /// `accesses` decide the plan (accepted without `plan` too, where they change
  /// nothing).
  AlignGuardOptions Guard;
};

bool operator==(const AuditOptions &A, const AuditOptions &B);
inline bool operator!=(const AuditOptions &A, const AuditOptions &B) {
  return !(A == B);
}

llvm::Expected<AuditOptions> parseAuditOptions(llvm::StringRef Params);

/// Prints the parameter text of `align-guard-audit<...>` (without the
/// brackets), ';'-separated, in this order: the format word (always:
/// `table` or `json`), `output=FILE`, `all`, `system`,
/// `fail-on-unchecked`, `plan`, Guard's action word (with `plan`, always;
/// without, only when it is not `abort`), `accesses`, `type-alignment` and
/// `loads` (Guard's), then `entry=GLOB` and `exclude=GLOB` once per glob of
/// EntryGlobs and ExcludeGlobs in order, then `ignorelist=FILE` (Guard's),
/// then `system-prefix=DIR` once per prefix in order:
///
///   table
///   json;output=x.json;all;system;fail-on-unchecked;plan;fallback
///   json;system-prefix=/opt/sdk/include
void printAuditOptions(llvm::raw_ostream &OS, const AuditOptions &Opts);

/// True when Name is `PassName` or `PassName<params>`; sets Params to the
/// text between the brackets (empty for the bare name). Our own copy of
/// PassBuilder::parsePassParameters' name handling, which is not public in
/// LLVM 14.
bool matchPassName(llvm::StringRef Name, llvm::StringRef PassName,
                   llvm::StringRef &Params);

} // namespace alignguard

#endif // ALIGNGUARD_OPTIONS_H
