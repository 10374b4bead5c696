//===- AuditReport.cpp - The audit's findings as a table or JSON ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "AuditReport.h"

#include "llvm/Support/JSON.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

#include <algorithm>
#include <map>

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

static constexpr AuditRule Rules[] = {
    {"alignguard/unchecked-assumption", "UncheckedAssumption",
     "An alignment promise that nothing checks before the optimiser relies "
     "on it",
     "The optimiser trusts an alignment promise (an assume, an align "
     "attribute, an over-aligned access) that no check dominates: a "
     "misaligned pointer from a caller is undefined behaviour. align-guard "
     "inserts the check; a suppressed result is one the ignorelist or the "
     "source opts out.",
     "warning"},
    {"alignguard/unsupported-assumption", "UnsupportedAssumption",
     "An alignment promise AlignGuard cannot check",
     "An alignment promise of a form AlignGuard cannot check (the reason "
     "says why); nothing checks it.",
     "note"},
    {"alignguard/verified-assumption", "VerifiedAssumption",
     "An alignment promise that is checked",
     "An alignment promise that a check dominates: guarded by align-guard, "
     "checked by the code itself, implied by every caller, or a type's "
     "alignment.",
     "none"},
};

ArrayRef<AuditRule> auditRules() { return Rules; }

const AuditRule &auditRuleOf(AuditStatus S) {
  switch (S) {
  case AuditStatus::Unchecked:
  case AuditStatus::Suppressed:
    return Rules[0];
  case AuditStatus::Unsupported:
    return Rules[1];
  case AuditStatus::Guarded:
  case AuditStatus::Checked:
  case AuditStatus::Implied:
  case AuditStatus::Type:
    return Rules[2];
  }
  llvm_unreachable("unknown audit status");
}

bool needsAttention(AuditStatus S) {
  return StringRef(auditRuleOf(S).Level) != "none";
}

ListingCondition listedWhen(AuditStatus S, bool System) {
  ListingCondition C;
  if (!needsAttention(S))
    C.push_back(S == AuditStatus::Type ? std::vector<StringRef>{"all", "type"}
                                       : std::vector<StringRef>{"all"});
  if (System)
    C.push_back({"system"});
  return C;
}

std::string auditMessage(const AuditFinding &F) {
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

/// P as a directory: absolute, normalised, without a trailing separator.
static std::string directoryPrefix(StringRef P) {
  SmallString<256> Dir(P);
  sys::fs::make_absolute(Dir);
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  while (Dir.size() > 1 && sys::path::is_separator(Dir.back()))
    Dir.pop_back();
  return std::string(Dir);
}

/// Whether Path is Dir or lies under it.
static bool isUnder(StringRef Path, StringRef Dir) {
  if (Path.substr(0, Dir.size()) != Dir)
    return false;
  return Path.size() == Dir.size() || Dir == "/" ||
         sys::path::is_separator(Path[Dir.size()]);
}

bool isSystemPath(StringRef Path, ArrayRef<std::string> Extra) {
  if (Path.empty())
    return false;
  for (StringRef Dir : {"/usr/include", "/usr/local/include", "/usr/lib/gcc"})
    if (isUnder(Path, Dir))
      return true;
  // /usr/lib/llvm-*/: clang's resource directory and libc++ of any major.
  StringRef Rest = Path;
  if (Rest.consume_front("/usr/lib/llvm-") && Rest.contains('/'))
    return true;
  for (const std::string &Dir : Extra)
    if (isUnder(Path, directoryPrefix(Dir)))
      return true;
  return false;
}

/// What must be equal for two findings to merge (decideListing).
static std::string identity(const AuditFinding &F) {
  std::string Id;
  raw_string_ostream OS(Id);
  OS << F.Fingerprint << '\0' << auditStatusName(F.Status) << '\0' << F.Reason
     << '\0' << F.Placement << '\0' << F.SuppressionKind;
  if (const std::optional<PromisePlan> &P = F.Planned)
    OS << '\0' << P->Check << '\0' << (P->Site ? *P->Site : -1) << '\0'
       << P->Action << '\0' << P->Placement << '\0' << P->Reason << '\0'
       << P->Deferred << '\0' << P->Report;
  return OS.str();
}

AuditReport decideListing(std::string Module,
                          std::vector<AuditFinding> Findings,
                          const AuditListing &L) {
  AuditReport R;
  R.Module = std::move(Module);
  R.SystemListed = L.System;
  // The first listed finding of each identity: fingerprint, status and
  // reason, and what else a finding says besides its location (placement,
  // suppression, plan), so that a merged finding speaks for each promise.
  std::map<std::string, size_t> First;
  for (AuditFinding &F : Findings) {
    F.System = F.LibraryPromise ||
               isSystemPath(F.Promise.Path, L.SystemPrefixes) ||
               isSystemPath(F.Promise.FunctionPath, L.SystemPrefixes);
    if (F.System)
      ++R.Summary.System;
    if (F.System && !L.System)
      continue;
    R.Summary.add(F.Status);
    F.ListedWhen = listedWhen(F.Status, F.System);
    if (!L.lists(F.ListedWhen))
      continue;
    F.Fingerprint = promiseFingerprint(F.Promise);
    auto [It, New] = First.try_emplace(identity(F), R.Findings.size());
    if (!New) {
      ++R.Findings[It->second].Occurrences;
      continue;
    }
    F.Rule = &auditRuleOf(F.Status);
    F.Message = auditMessage(F);
    R.Findings.push_back(std::move(F));
  }
  return R;
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
static std::string cell(StringRef Text) { return escapeControlBytes(Text); }

void writeAuditTable(raw_ostream &OS, const AuditReport &R) {
  std::vector<std::vector<std::string>> Rows = {
      {"STATUS", "KIND", "FUNCTION", "SUBJECT", "ALIGN", "LOCATION", "REASON"}};
  for (const AuditFinding &F : R.Findings)
    Rows.push_back(
        {auditStatusName(F.Status).str(), kindName(F), cell(F.Promise.Function),
         cell(F.Promise.Subject), alignmentText(F),
         cell(location(F)) + (F.Occurrences > 1
                                  ? " (x" + std::to_string(F.Occurrences) + ")"
                                  : ""),
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
  const AuditSummary &S = R.Summary;
  OS << "summary: " << S.Total << " assumptions: " << S.Unchecked
     << " unchecked, " << S.Guarded << " guarded, " << S.Checked << " checked, "
     << S.Implied << " implied, " << S.Unsupported << " unsupported, "
     << S.Suppressed << " suppressed, " << S.Type << " type";
  // The system headers' promises are in the counts above only with
  // `system`, which lists them.
  if (S.System)
    OS << "; " << S.System << " in system headers"
       << (R.SystemListed ? "" : ", not listed");
  OS << "\n";
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

/// docs/audit.md (#Anchor, when given) as a file URI: the installed copy of the
/// prefix the plugin is installed in
/// (PREFIX/lib/alignguard/llvm-N/AlignGuard.so ->
/// PREFIX/share/doc/alignguard/docs/audit.md, cmake/Install.cmake), else
/// the source tree's (a build directory's plugin, the unit tests).
static std::string docUri(StringRef Anchor) {
  static const std::string Page = [] {
    Dl_info Info;
    if (dladdr(reinterpret_cast<void *>(&docUri), &Info) && Info.dli_fname) {
      SmallString<256> Path(Info.dli_fname);
      for (int Up = 0; Up != 4; ++Up)
        sys::path::remove_filename(Path);
      sys::path::append(Path, "share/doc/alignguard/docs/audit.md");
      if (sys::path::is_absolute(Path) && sys::fs::exists(Path))
        return "file://" + std::string(Path);
    }
    return std::string("file://" ALIGNGUARD_SOURCE_DOCS "/audit.md");
  }();
  return Anchor.empty() ? Page : Page + "#" + Anchor.str();
}

/// The JSON's `rules`: the SARIF reportingDescriptors the alignguard driver
/// writes as tool.driver.rules (and takes informationUri from).
static json::Array rulesJSON() {
  json::Array Out;
  for (const AuditRule &Rule : auditRules())
    Out.push_back(json::Object{
        {"id", Rule.Id},
        {"name", Rule.Name},
        {"shortDescription", json::Object{{"text", Rule.Short}}},
        {"fullDescription", json::Object{{"text", Rule.Full}}},
        {"helpUri", docUri("statuses")},
        {"defaultConfiguration", json::Object{{"level", Rule.Level}}}});
  return Out;
}

void writeAuditJSON(raw_ostream &OS, const AuditReport &R) {
  const AuditSummary &S = R.Summary;
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("alignguard_audit", 1);
    J.attribute("version", ALIGNGUARD_VERSION);
    J.attribute("module", R.Module);
    J.attributeArray("assumptions", [&] {
      for (const AuditFinding &F : R.Findings) {
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
              const PromisePlan &P = *F.Planned;
              J.attribute("check", P.Check);
              J.attribute("site", optional(P.Site));
              J.attribute("action", orNull(P.Action));
              J.attribute("placement", orNull(P.Placement));
              J.attribute("reason", orNull(P.Reason));
              J.attribute("deferred", P.Deferred);
              J.attribute("report", orNull(P.Report));
            });
          J.attribute("path", orNull(F.Promise.Path));
          J.attribute("system", F.System);
          J.attributeArray("listed_when", [&] {
            for (const std::vector<StringRef> &Group : F.ListedWhen)
              J.array([&] {
                for (StringRef P : Group)
                  J.value(P);
              });
          });
          J.attribute("fingerprint", F.Fingerprint);
          J.attribute("occurrences", F.Occurrences);
          J.attribute("rule", F.Rule->Id);
          J.attribute("message", F.Message);
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
      J.attribute("system", S.System);
    });
    J.attribute("rules", rulesJSON());
  });
  OS << "\n";
}

} // namespace alignguard
