//===- AuditReport.cpp - The audit's findings as a table, JSON or SARIF --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "AuditReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace llvm;

namespace alignguard {

/// The finding's kind as the docs, JSON and SARIF spell it.
static std::string kindName(const AuditFinding &F) {
  return promiseKindName(F.Promise.Kind).str();
}

StringRef auditStatusName(AuditStatus Status) {
  switch (Status) {
  case AuditStatus::Guarded:
    return "guarded";
  case AuditStatus::Checked:
    return "checked";
  case AuditStatus::Implied:
    return "implied";
  case AuditStatus::Unchecked:
    return "unchecked";
  case AuditStatus::Unsupported:
    return "unsupported";
  case AuditStatus::Suppressed:
    return "suppressed";
  case AuditStatus::Type:
    return "type";
  }
  llvm_unreachable("unknown audit status");
}

void AuditSummary::add(AuditStatus S) {
  ++Total;
  switch (S) {
  case AuditStatus::Guarded:
    ++Guarded;
    break;
  case AuditStatus::Checked:
    ++Checked;
    break;
  case AuditStatus::Implied:
    ++Implied;
    break;
  case AuditStatus::Unchecked:
    ++Unchecked;
    break;
  case AuditStatus::Unsupported:
    ++Unsupported;
    break;
  case AuditStatus::Suppressed:
    ++Suppressed;
    break;
  case AuditStatus::Type:
    ++Type;
    break;
  }
}

AuditSummary AuditReport::summary() const {
  AuditSummary S;
  for (const AuditFinding &F : Findings)
    S.add(F.Status);
  return S;
}

static std::string location(const AuditFinding &F) {
  if (F.Promise.File.empty())
    return "-";
  std::string S = F.Promise.File;
  if (F.Promise.Line)
    S += ":" + std::to_string(F.Promise.Line);
  if (F.Promise.Line && F.Promise.Column)
    S += ":" + std::to_string(F.Promise.Column);
  return S;
}

static std::string alignmentText(const AuditFinding &F) {
  std::string S =
      F.Promise.Alignment ? std::to_string(*F.Promise.Alignment) : "run-time";
  if (!F.Promise.Offset)
    S += " (offset at run time)";
  else if (*F.Promise.Offset)
    S += " (offset " + std::to_string(*F.Promise.Offset) + ")";
  return S;
}

/// A table cell: control characters (from odd IR names) shown as \xNN so
/// that one finding stays one line.
static std::string cell(StringRef Text) {
  std::string Out;
  for (unsigned char C : Text) {
    if (C < 0x20 || C == 0x7f) {
      static const char Hex[] = "0123456789abcdef";
      Out += "\\x";
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    } else {
      Out += static_cast<char>(C);
    }
  }
  return Out;
}

void writeAuditTable(raw_ostream &OS, const AuditReport &R, bool All) {
  std::vector<std::vector<std::string>> Rows = {
      {"STATUS", "KIND", "FUNCTION", "SUBJECT", "ALIGN", "LOCATION", "REASON"}};
  for (const AuditFinding &F : R.Findings)
    if (All || isListedByDefault(F.Status))
      Rows.push_back(
          {auditStatusName(F.Status).str(), kindName(F),
           cell(F.Promise.Function), cell(F.Promise.Subject), alignmentText(F),
           cell(location(F)),
           F.Reason.empty() && F.Placement.empty()
               ? "-"
               : cell(F.Placement.empty() ? F.Reason
                      : F.Reason.empty()  ? F.Placement
                                          : F.Placement + "; " + F.Reason)});
  std::vector<size_t> Width(Rows.front().size(), 0);
  for (const auto &Row : Rows)
    for (size_t C = 0; C != Row.size(); ++C)
      Width[C] = std::max(Width[C], Row[C].size());

  OS << "alignguard audit: " << cell(R.Module) << "\n";
  if (Rows.size() > 1)
    for (const auto &Row : Rows) {
      for (size_t C = 0; C != Row.size(); ++C) {
        OS << Row[C];
        if (C + 1 != Row.size())
          OS.indent(Width[C] - Row[C].size() + 2);
      }
      OS << "\n";
    }
  AuditSummary S = R.summary();
  OS << "summary: " << S.Total << " assumptions: " << S.Unchecked
     << " unchecked, " << S.Guarded << " guarded, " << S.Checked << " checked, "
     << S.Implied << " implied, " << S.Unsupported << " unsupported, "
     << S.Suppressed << " suppressed, " << S.Type << " type\n";
}

template <typename T> static json::Value optional(const std::optional<T> &V) {
  if (V)
    return json::Value(*V);
  return nullptr;
}

static json::Value orNull(const std::string &S) {
  if (S.empty())
    return nullptr;
  return S;
}

void writeAuditJSON(raw_ostream &OS, const AuditReport &R, bool All) {
  AuditSummary S = R.summary();
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("alignguard_audit", 1);
    J.attribute("module", R.Module);
    J.attributeArray("assumptions", [&] {
      for (const AuditFinding &F : R.Findings) {
        if (!All && !isListedByDefault(F.Status))
          continue;
        J.object([&] {
          J.attribute("function", F.Promise.Function);
          J.attribute("kind", kindName(F));
          J.attribute("subject", F.Promise.Subject);
          J.attribute("argument", optional(F.Promise.Argument));
          J.attribute("alignment", optional(F.Promise.Alignment));
          J.attribute("offset", optional(F.Promise.Offset));
          J.attribute("file", orNull(F.Promise.File));
          J.attribute("line", F.Promise.File.empty() || !F.Promise.Line
                                  ? json::Value(nullptr)
                                  : json::Value(F.Promise.Line));
          J.attribute("column", F.Promise.File.empty() || !F.Promise.Column
                                    ? json::Value(nullptr)
                                    : json::Value(F.Promise.Column));
          J.attribute("status", auditStatusName(F.Status));
          J.attribute("reason", orNull(F.Reason));
          J.attribute("placement", orNull(F.Placement));
          J.attribute("suppression", orNull(F.SuppressionKind));
          if (F.Planned)
            J.attributeObject("plan", [&] {
              const PlannedAction &P = *F.Planned;
              J.attribute("check", P.Check);
              J.attribute("site", optional(P.Site));
              J.attribute("action", orNull(P.Action));
              J.attribute("placement", orNull(P.Placement));
              J.attribute("reason", orNull(P.Reason));
            });
        });
      }
    });
    J.attributeObject("summary", [&] {
      J.attribute("total", S.Total);
      J.attribute("unchecked", S.Unchecked);
      J.attribute("guarded", S.Guarded);
      J.attribute("checked", S.Checked);
      J.attribute("implied", S.Implied);
      J.attribute("unsupported", S.Unsupported);
      J.attribute("suppressed", S.Suppressed);
      J.attribute("type", S.Type);
    });
  });
  OS << "\n";
}

static constexpr const char *UncheckedRule = "alignguard/unchecked-assumption";
static constexpr const char *UnsupportedRule =
    "alignguard/unsupported-assumption";
static constexpr const char *VerifiedRule = "alignguard/verified-assumption";

static std::string sarifMessage(const AuditFinding &F) {
  std::string M =
      kindName(F) + " in '" + F.Promise.Function + "': " + F.Promise.Subject +
      " is promised to be " +
      (F.Promise.Alignment ? std::to_string(*F.Promise.Alignment) + "-byte"
                           : std::string("run-time")) +
      " aligned";
  if (F.Promise.Offset && *F.Promise.Offset)
    M += " at offset " + std::to_string(*F.Promise.Offset);
  M += "; " + auditStatusName(F.Status).str();
  if (!F.Reason.empty())
    M += ": " + F.Reason;
  return M;
}

void writeAuditSARIF(raw_ostream &OS, const AuditReport &R, bool All) {
  auto Rule = [](const char *Id, const char *Text) {
    return json::Object{{"id", Id},
                        {"shortDescription", json::Object{{"text", Text}}}};
  };
  json::Array Results;
  for (const AuditFinding &F : R.Findings) {
    const char *RuleId = F.Status == AuditStatus::Unchecked ||
                                 F.Status == AuditStatus::Suppressed
                             ? UncheckedRule
                         : F.Status == AuditStatus::Unsupported
                             ? UnsupportedRule
                             : VerifiedRule;
    if (RuleId == VerifiedRule && !All)
      continue;
    json::Object Location{{"logicalLocations", json::Array{json::Object{
                                                   {"name", F.Promise.Function},
                                                   {"kind", "function"}}}}};
    if (!F.Promise.File.empty()) {
      json::Object Region;
      if (F.Promise.Line)
        Region["startLine"] = F.Promise.Line;
      if (F.Promise.Line && F.Promise.Column)
        Region["startColumn"] = F.Promise.Column;
      json::Object Physical{
          {"artifactLocation", json::Object{{"uri", F.Promise.File}}}};
      if (F.Promise.Line)
        Physical["region"] = std::move(Region);
      Location["physicalLocation"] = std::move(Physical);
    }
    json::Object Result{
        {"ruleId", RuleId},
        {"level", RuleId == UncheckedRule     ? "warning"
                  : RuleId == UnsupportedRule ? "note"
                                              : "none"},
        {"message", json::Object{{"text", sarifMessage(F)}}},
        {"locations", json::Array{std::move(Location)}},
    };
    // Code-scanning tools show a result with a suppression as suppressed,
    // not as absent and not as open.
    if (F.Status == AuditStatus::Suppressed)
      Result["suppressions"] =
          json::Array{json::Object{{"kind", F.SuppressionKind},
                                   {"status", "accepted"},
                                   {"justification", F.Reason}}};
    Results.push_back(std::move(Result));
  }
  json::Object Driver{
      {"name", "AlignGuard"},
      {"rules",
       json::Array{
           Rule(UncheckedRule,
                "An alignment promise that nothing checks before the "
                "optimiser relies on it"),
           Rule(UnsupportedRule,
                "An alignment promise AlignGuard cannot check"),
           Rule(VerifiedRule, "An alignment promise that is checked")}}};
  json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{json::Object{
                   {"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"results", std::move(Results)}}}}};
  OS << formatv("{0:2}", json::Value(std::move(Log))) << "\n";
}

} // namespace alignguard
