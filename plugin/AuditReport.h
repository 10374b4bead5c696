//===- AuditReport.h - The audit's findings as a table, JSON or SARIF ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One AuditFinding per alignment promise; writers for the three formats.
// The JSON field names are a contract (README, "Audit JSON"): keep them.
//
//   {"alignguard_audit": 1, "module": "k.ll", "assumptions": [{"function":
//    "vadd", "kind": "param-attr", "subject": "argument #1 'b'", "argument":
//    1, "alignment": 64, "offset": 0, "file": "vadd.c", "line": 12,
//    "column": 3, "status": "unchecked", "reason": "..."}], "summary": {...}}
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_AUDITREPORT_H
#define ALIGNGUARD_AUDITREPORT_H

#include "PromiseDescription.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace alignguard {

/// Type: the alignment of a reference's type (AlignmentPromise::
/// TypeImplied), not a kernel's promise; counted, listed only with `all`.
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

/// True for the statuses that need no attention (listed only with `all`).
inline bool isVerified(AuditStatus S) {
  return S == AuditStatus::Guarded || S == AuditStatus::Checked ||
         S == AuditStatus::Implied;
}

/// What align-guard would do with a promise (`align-guard-audit<plan>`).
/// Listed without `all`: unchecked, unsupported and suppressed promises.
inline bool isListedByDefault(AuditStatus S) {
  return S == AuditStatus::Unchecked || S == AuditStatus::Unsupported ||
         S == AuditStatus::Suppressed;
}

struct PlannedAction {
  bool Check = false;      ///< it gets a check of its own
  std::optional<int> Site; ///< the site that checks or covers it
  std::string Action;      ///< that site's failure action
  std::string Placement;   ///< that site's placement
  std::string Reason;      ///< why no check, or why the action changed
};

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
  std::optional<PlannedAction> Planned;
  /// Suppressed: where the opt-out is written, SARIF's suppression kind
  /// (`external`: the ignorelist, `inSource`: the annotation); Reason
  /// holds the rule.
  std::string SuppressionKind;
};

struct AuditSummary {
  unsigned Total = 0, Guarded = 0, Checked = 0, Implied = 0, Unchecked = 0,
           Unsupported = 0, Suppressed = 0, Type = 0;
  void add(AuditStatus S);
};

/// The module's findings, with what it needs to print them.
struct AuditReport {
  std::string Module;
  std::vector<AuditFinding> Findings;
  AuditSummary summary() const;
};

/// A readable table: the unchecked and unsupported findings (every one with
/// All), then one summary line.
void writeAuditTable(llvm::raw_ostream &OS, const AuditReport &R, bool All);
/// The JSON contract; with All false, only the findings the table lists
/// (the summary always counts all).
void writeAuditJSON(llvm::raw_ostream &OS, const AuditReport &R, bool All);
/// SARIF 2.1.0: one result per unchecked promise, rule
/// `alignguard/unchecked-assumption` (unsupported ones under
/// `alignguard/unsupported-assumption`, verified ones as notes with All);
/// a suppressed one under the unchecked rule with a `suppressions` entry.
void writeAuditSARIF(llvm::raw_ostream &OS, const AuditReport &R, bool All);

} // namespace alignguard

#endif // ALIGNGUARD_AUDITREPORT_H
