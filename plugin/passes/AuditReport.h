//===- AuditReport.h - The audit's findings as a table or JSON -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One AuditFinding per alignment promise; decideListing turns them into
// what the report lists (system headers left out, identical findings
// merged, each with its fingerprint, SARIF rule and message) and the
// summary; the writers for the two formats print what that decided. The
// listing rule lives here alone: each JSON finding carries the audit
// parameters a listing needs to show it (`listed_when`), and the alignguard
// driver applies its --all, --include-type and --include-system to that.
// The JSON field names are a contract (docs/audit.md): keep them. SARIF is
// written by one writer, the alignguard driver's, from this JSON (each
// finding's rule, message, fingerprint and suppression; the `rules`).
//
//   {"alignguard_audit": 1, "version": "0.1.0", "module": "k.ll",
//    "assumptions": [{"function": "vadd", "kind": "param-attr", "subject":
//    "argument #1 'b'", "argument": 1, "alignment": 64, "offset": 0, "file":
//    "vadd.c", "line": 12, "column": 3, "status": "unchecked", "reason":
//    "...", ..., "fingerprint": "0123456789abcdef", "occurrences": 1}],
//    "summary": {...}, "rules": [...]}
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_AUDITREPORT_H
#define ALIGNGUARD_AUDITREPORT_H

#include "CheckPlan.h"
#include "Options.h"
#include "PromiseDescription.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace alignguard {

/// Type: the alignment of a reference's type (AlignmentPromise::
/// TypeImplied), not a kernel's promise; counted, listed only with `all`
/// or `type`.
enum class AuditStatus {
  Guarded,
  Checked,
  Implied,
  Unchecked,
  Unsupported,
  Suppressed, ///< unchecked, but the ignorelist or the source opts it out
  Type,       ///< a reference's type alignment, left unchecked
};

/// `guarded`, `checked`, `implied`, `unchecked`, `unsupported`,
/// `suppressed`, `type`.
llvm::StringRef auditStatusName(AuditStatus Status);

/// Guarded, checked, implied: something checks the promise.
inline bool isVerified(AuditStatus S) {
  return S == AuditStatus::Guarded || S == AuditStatus::Checked ||
         S == AuditStatus::Implied;
}

/// Whether a finding of status S needs attention: its rule (auditRuleOf)
/// has a level other than `none` (unchecked, unsupported, suppressed). Those
/// are listed without `all`, missed remarks, and what a baseline records;
/// the driver reads the same from the rule levels of the JSON's `rules`.
bool needsAttention(AuditStatus S);

/// A SARIF reportingDescriptor (tool.driver.rules[]), also the JSON's
/// `rules`.
struct AuditRule {
  const char *Id;    ///< alignguard/unchecked-assumption
  const char *Name;  ///< UncheckedAssumption
  const char *Short; ///< shortDescription
  const char *Full;  ///< fullDescription
  const char *Level; ///< defaultConfiguration.level of its results
};

/// The listing rule (Options.h, ListingCondition): a finding that needs
/// attention is listed whatever the words; another one needs `all` (a type
/// alignment: `all` or `type`); one in a system header also `system`.
ListingCondition listedWhen(AuditStatus S, bool System);

struct AuditFinding {
  /// What the promise is (PromiseDescription.h: the one description the
  /// guard's reports use too).
  PromiseDescription Promise;
  AuditStatus Status = AuditStatus::Unchecked;
  std::string Reason; ///< empty: null
  /// For an access that align-guard<accesses> checks: `hoisted` (before
  /// the loop), `in-loop`, or `in-place` (no loop around it); empty: null.
  std::string Placement;
  /// With `plan`: what align-guard would do.
  std::optional<PromisePlan> Planned;
  /// Suppressed: where the opt-out is written, SARIF's suppression kind
  /// (`external`: the ignorelist, `inSource`: the annotation); Reason
  /// holds the rule.
  std::string SuppressionKind;
  /// The system library's own promise (isLibraryAlignedAllocator: the
  /// result of aligned_alloc, memalign, aligned operator new): system
  /// whatever its location.
  bool LibraryPromise = false;

  // Decided by decideListing; the writers print them as they are.
  std::string Fingerprint;         ///< promiseFingerprint(Promise)
  bool System = false;             ///< in a system header (isSystemPath), or a
                                   ///< LibraryPromise
  ListingCondition ListedWhen;     ///< listedWhen(Status, System)
  unsigned Occurrences = 1;        ///< identical findings merged into this one
  const AuditRule *Rule = nullptr; ///< the SARIF rule it falls under
  std::string Message;             ///< the SARIF message text
};

/// The rules, in the order SARIF lists them: unchecked (warning),
/// unsupported (note), verified (none).
llvm::ArrayRef<AuditRule> auditRules();

/// The rule of a finding of status S: unchecked and suppressed ones under
/// `alignguard/unchecked-assumption`, unsupported ones under
/// `alignguard/unsupported-assumption`, the rest (verified, type) under
/// `alignguard/verified-assumption`.
const AuditRule &auditRuleOf(AuditStatus S);

/// The SARIF message of F (and the JSON's `message`): `KIND in 'F':
/// SUBJECT is promised to be A-byte aligned[ at offset O]; STATUS[:
/// REASON]`.
std::string auditMessage(const AuditFinding &F);

/// Counts of promises (not of merged findings) by status; `total` is the
/// sum of the statuses. Without `system`, the promises in system headers
/// are counted in System only; with it, in their status and in System.
struct AuditSummary {
  unsigned Total = 0, Guarded = 0, Checked = 0, Implied = 0, Unchecked = 0,
           Unsupported = 0, Suppressed = 0, Type = 0, System = 0;
  void add(AuditStatus S);
};

/// True when Path (absolute, normalised) is in a system header directory:
/// /usr/include/, /usr/local/include/, /usr/lib/gcc/, /usr/lib/llvm-*/
/// (clang's resource directory and libc++), or one of Extra (directories,
/// made absolute and normalised here).
bool isSystemPath(llvm::StringRef Path, llvm::ArrayRef<std::string> Extra);

/// The module's listed findings and its summary.
struct AuditReport {
  std::string Module;
  std::vector<AuditFinding> Findings;
  AuditSummary Summary;
  bool SystemListed = false; ///< `system`: the system ones are listed
};

/// The audit's one decision on what the report lists, from every promise's
/// finding (in module order): a finding is system when the Path of its
/// location or the FunctionPath of its function isSystemPath; it is
/// listed when L.lists(listedWhen(...)) (system ones only with L.System;
/// verified ones with L.All; type ones with L.All or L.Type);
/// the summary counts every promise not left out for being system, and
/// the system ones; listed findings with the same fingerprint, status and
/// reason (and the same placement, suppression and plan: all but the
/// location) become the first of them with Occurrences the number merged.
AuditReport decideListing(std::string Module,
                          std::vector<AuditFinding> Findings,
                          const AuditListing &L);

/// A readable table of R's findings (a merged one with ` (xN)` after its
/// location), then one summary line.
void writeAuditTable(llvm::raw_ostream &OS, const AuditReport &R);
/// The JSON contract, from which the alignguard driver writes SARIF.
void writeAuditJSON(llvm::raw_ostream &OS, const AuditReport &R);

} // namespace alignguard

#endif // ALIGNGUARD_AUDITREPORT_H
