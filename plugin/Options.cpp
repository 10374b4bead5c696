//===- Options.cpp - align-guard pass parameters -------------------------===//
//
// Parses `align-guard<abort|trap|recover;entry=GLOB;exclude=GLOB>`.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/Support/GlobPattern.h"

using namespace llvm;

namespace alignguard {

StringRef failureActionName(FailureAction Action) {
  switch (Action) {
  case FailureAction::Abort:
    return "abort";
  case FailureAction::Trap:
    return "trap";
  case FailureAction::Recover:
    return "recover";
  case FailureAction::Return:
    return "return";
  case FailureAction::Fallback:
    return "fallback";
  }
  llvm_unreachable("unknown failure action");
}

static Error invalidParameter(StringRef Pass, StringRef Param,
                              const Twine &Why) {
  return make_error<StringError>("invalid " + Pass + " pass parameter '" +
                                     Param + "': " + Why,
                                 inconvertibleErrorCode());
}

/// Handles `entry=GLOB` and `exclude=GLOB`, shared by both passes. Returns
/// false when Param is neither; an Error when it is one but is bad.
static Expected<bool> parseEntryGlob(StringRef Pass, StringRef Param,
                                     std::vector<std::string> &Entry,
                                     std::vector<std::string> &Exclude) {
  StringRef Key, Value;
  std::tie(Key, Value) = Param.split('=');
  if (Key != "entry" && Key != "exclude")
    return false;
  if (Value.empty())
    return invalidParameter(Pass, Param, "expected " + Key + "=GLOB");
  Expected<GlobPattern> Glob = GlobPattern::create(Value);
  if (!Glob)
    return invalidParameter(Pass, Param, toString(Glob.takeError()));
  (Key == "entry" ? Entry : Exclude).push_back(Value.str());
  return true;
}

/// Returns the action a bare word names, or false when it names none
/// (`return` takes a value and is parsed as return=N).
static bool parseActionWord(StringRef Word, FailureAction &Action) {
  for (FailureAction A : {FailureAction::Abort, FailureAction::Trap,
                          FailureAction::Recover, FailureAction::Fallback})
    if (Word == failureActionName(A)) {
      Action = A;
      return true;
    }
  return false;
}

Expected<AlignGuardOptions> parseAlignGuardOptions(StringRef Params) {
  AlignGuardOptions Opts;
  StringRef ActionWord; // the first action given, to name it in a conflict
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param.empty())
      continue;

    FailureAction Action;
    bool IsAction = parseActionWord(Param, Action);
    StringRef Value = Param;
    if (Value.consume_front("return=") || Param == "return") {
      int64_t N;
      if (Param == "return" || Value.getAsInteger(10, N))
        return invalidParameter("align-guard", Param,
                                "expected return=N, N a decimal integer");
      Opts.ReturnValue = N;
      Action = FailureAction::Return;
      IsAction = true;
    }
    if (Param == "accesses") {
      Opts.Accesses = true;
      continue;
    }
    if (IsAction) {
      // The same action twice is fine; two different ones (or two return
      // values) are not.
      if (!ActionWord.empty() && ActionWord != Param)
        return invalidParameter("align-guard", Param,
                                "conflicts with '" + ActionWord +
                                    "'; give one failure action");
      ActionWord = Param;
      Opts.Action = Action;
      continue;
    }

    Expected<bool> IsGlob = parseEntryGlob("align-guard", Param,
                                           Opts.EntryGlobs, Opts.ExcludeGlobs);
    if (!IsGlob)
      return IsGlob.takeError();
    if (*IsGlob)
      continue;
    return invalidParameter(
        "align-guard", Param,
        "expected abort, trap, recover, return=N, fallback, accesses, "
        "entry=GLOB or exclude=GLOB");
  }
  return Opts;
}

Expected<AuditOptions> parseAuditOptions(StringRef Params) {
  AuditOptions Opts;
  StringRef FormatWord;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param.empty())
      continue;
    if (Param == "json" || Param == "sarif" || Param == "table") {
      if (!FormatWord.empty() && FormatWord != Param)
        return invalidParameter("align-guard-audit", Param,
                                "conflicts with '" + FormatWord +
                                    "'; give one format");
      FormatWord = Param;
      Opts.Format = Param == "json"    ? AuditFormat::JSON
                    : Param == "sarif" ? AuditFormat::SARIF
                                       : AuditFormat::Table;
      continue;
    }
    if (Param == "all") {
      Opts.All = true;
      continue;
    }
    if (Param == "fail-on-unchecked") {
      Opts.FailOnUnchecked = true;
      continue;
    }
    if (Param.consume_front("output=")) {
      if (Param.empty())
        return invalidParameter("align-guard-audit", "output=",
                                "expected output=FILE");
      Opts.Output = Param.str();
      continue;
    }
    Expected<bool> IsGlob = parseEntryGlob(
        "align-guard-audit", Param, Opts.EntryGlobs, Opts.ExcludeGlobs);
    if (!IsGlob)
      return IsGlob.takeError();
    if (*IsGlob)
      continue;
    return invalidParameter("align-guard-audit", Param,
                            "expected table, json, sarif, output=FILE, all, "
                            "fail-on-unchecked, entry=GLOB or exclude=GLOB");
  }
  return Opts;
}

bool matchPassName(StringRef Name, StringRef PassName, StringRef &Params) {
  if (!Name.consume_front(PassName))
    return false;
  if (Name.empty()) {
    Params = "";
    return true;
  }
  if (!Name.consume_front("<") || !Name.consume_back(">"))
    return false;
  Params = Name;
  return true;
}

} // namespace alignguard
