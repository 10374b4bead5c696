//===- Options.h - align-guard pass parameters -------------------*- C++ -*-===//
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
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_OPTIONS_H
#define ALIGNGUARD_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

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
  /// N of `return=N`.
  int64_t ReturnValue = 0;
  /// `accesses`: also check the alignment that over-aligned loads, stores,
  /// masked accesses and memory intrinsics on an entry's arguments promise.
  bool Accesses = false;
  /// Globs over function names that make a definition an entry point.
  std::vector<std::string> EntryGlobs;
  /// Globs over function names that are never entry points.
  std::vector<std::string> ExcludeGlobs;
};

/// Parses the parameter text of `align-guard<...>` (without the brackets).
llvm::Expected<AlignGuardOptions> parseAlignGuardOptions(llvm::StringRef Params);

enum class AuditFormat { Table, JSON, SARIF };

/// The parameters of `align-guard-audit<json|sarif;output=FILE;all;
/// fail-on-unchecked;entry=GLOB;exclude=GLOB>`.
struct AuditOptions {
  AuditFormat Format = AuditFormat::Table;
  /// Where the report goes; empty: the table to stderr, JSON and SARIF to
  /// stdout. `%m` is replaced by the module's source file name, so one
  /// clang build writes one file per translation unit.
  std::string Output;
  /// List every promise, not only the unchecked and unsupported ones.
  bool All = false;
  /// Fail the run (an error diagnostic) when a promise is unchecked.
  bool FailOnUnchecked = false;
  /// Entry points, as for align-guard (they decide the `access` kind).
  std::vector<std::string> EntryGlobs, ExcludeGlobs;
};

llvm::Expected<AuditOptions> parseAuditOptions(llvm::StringRef Params);

/// True when Name is `PassName` or `PassName<params>`; sets Params to the
/// text between the brackets (empty for the bare name). Our own copy of PassBuilder::parsePassParameters' name handling, which is
/// not public in LLVM 14.
bool matchPassName(llvm::StringRef Name, llvm::StringRef PassName,
                   llvm::StringRef &Params);

} // namespace alignguard

#endif // ALIGNGUARD_OPTIONS_H
