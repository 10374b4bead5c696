//===- Options.cpp - align-guard pass parameters -------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Parses and prints the parameters of `align-guard<...>` and
// `align-guard-audit<...>` (Options.h).
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/raw_ostream.h"

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

/// Handles `ignorelist=FILE`, shared by both passes. Returns false when
/// Param is not one; an Error when it is one but is bad. The file is read
/// when the pass runs (Suppressions.h), not here.
static Expected<bool> parseIgnorelist(StringRef Pass, StringRef Param,
                                      std::string &File) {
  StringRef Value = Param;
  if (!Value.consume_front("ignorelist=") && Param != "ignorelist")
    return false;
  if (Value.empty() || Param == "ignorelist")
    return invalidParameter(Pass, Param, "expected ignorelist=FILE");
  if (!File.empty() && File != Value)
    return invalidParameter(Pass, Param,
                            "conflicts with 'ignorelist=" + File +
                                "'; give one ignorelist");
  File = Value.str();
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

/// The words that set one flag of AlignGuardOptions, in the order the
/// error lists and the printer give them. GuardOnly: align-guard's own,
/// not the audit's (it lists every promise at once, deferred or not).
struct FlagWord {
  const char *Name;
  bool AlignGuardOptions::*Flag;
  bool GuardOnly;
};
static constexpr FlagWord FlagWords[] = {
    {"accesses", &AlignGuardOptions::Accesses, false},
    {"accesses-only", &AlignGuardOptions::AccessesOnly, true},
    {"type-alignment", &AlignGuardOptions::TypeAlignment, false},
    {"loads", &AlignGuardOptions::Loads, false},
    {"no-rerun", &AlignGuardOptions::NoRerun, false},
    {"deferred", &AlignGuardOptions::Deferred, true},
    {"device-libs-after", &AlignGuardOptions::DeviceLibsAfter, false},
};

/// The words that take a value, shared by both passes (parseEntryGlob,
/// parseIgnorelist), as the error lists them.
static constexpr const char *ScopeWords[] = {"entry=GLOB", "exclude=GLOB",
                                             "ignorelist=FILE"};

/// `expected a, b, ... or z`, from the words the parser takes.
static std::string expectedWords(ArrayRef<std::string> Words) {
  std::string Out = "expected ";
  for (size_t I = 0; I != Words.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Words.size() ? " or " : ", ") + Words[I];
  return Out;
}

/// The action words (`return=N` for Return) and the flag words a pass
/// takes (AsGuard: align-guard's own too), in their order.
static void appendGuardWords(std::vector<std::string> &Words, bool AsGuard) {
  for (FailureAction A :
       {FailureAction::Abort, FailureAction::Trap, FailureAction::Recover,
        FailureAction::Return, FailureAction::Fallback})
    Words.push_back(failureActionName(A).str() +
                    (A == FailureAction::Return ? "=N" : ""));
  for (const FlagWord &W : FlagWords)
    if (AsGuard || !W.GuardOnly)
      Words.push_back(W.Name);
}

/// Handles the failure actions (abort, trap, recover, return=N, fallback)
/// and the flag words (FlagWords; AsGuard: align-guard's own too). Returns
/// false when Param is none of them; an Error when it is one but is bad.
/// ActionWord is the first action given, to name it in a conflict.
static Expected<bool> parseGuardWord(StringRef Pass, StringRef Param,
                                     AlignGuardOptions &Opts,
                                     StringRef &ActionWord, bool AsGuard) {
  for (const FlagWord &W : FlagWords)
    if (Param == W.Name && (AsGuard || !W.GuardOnly)) {
      Opts.*W.Flag = true;
      // accesses-only checks the accesses, and nothing else.
      Opts.Accesses |= Opts.AccessesOnly;
      return true;
    }
  FailureAction Action;
  bool IsAction = parseActionWord(Param, Action);
  StringRef Value = Param;
  if (Value.consume_front("return=") || Param == "return") {
    int64_t N;
    if (Param == "return" || Value.getAsInteger(10, N))
      return invalidParameter(Pass, Param,
                              "expected return=N, N a decimal integer");
    Opts.ReturnValue = N;
    Action = FailureAction::Return;
    IsAction = true;
  }
  if (!IsAction)
    return false;
  // The same action twice is fine; two different ones (or two return
  // values) are not.
  if (!ActionWord.empty() && ActionWord != Param)
    return invalidParameter(Pass, Param,
                            "conflicts with '" + ActionWord +
                                "'; give one failure action");
  ActionWord = Param;
  Opts.Action = Action;
  return true;
}

Expected<AlignGuardOptions> parseAlignGuardOptions(StringRef Params) {
  AlignGuardOptions Opts;
  StringRef ActionWord; // the first action given, to name it in a conflict
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param.empty())
      continue;

    Expected<bool> IsGuardWord = parseGuardWord("align-guard", Param, Opts,
                                                ActionWord, /*AsGuard=*/true);
    if (!IsGuardWord)
      return IsGuardWord.takeError();
    if (*IsGuardWord)
      continue;

    Expected<bool> IsGlob = parseEntryGlob("align-guard", Param,
                                           Opts.EntryGlobs, Opts.ExcludeGlobs);
    if (!IsGlob)
      return IsGlob.takeError();
    if (*IsGlob)
      continue;
    Expected<bool> IsList =
        parseIgnorelist("align-guard", Param, Opts.Ignorelist);
    if (!IsList)
      return IsList.takeError();
    if (*IsList)
      continue;
    std::vector<std::string> Words;
    appendGuardWords(Words, /*AsGuard=*/true);
    Words.insert(Words.end(), std::begin(ScopeWords), std::end(ScopeWords));
    return invalidParameter("align-guard", Param, expectedWords(Words));
  }
  return Opts;
}

/// The listing words, in their canonical order, and what each gives.
static constexpr std::pair<const char *, bool AuditListing::*> ListingWords[] =
    {{"all", &AuditListing::All},
     {"type", &AuditListing::Type},
     {"system", &AuditListing::System}};

bool AuditListing::set(StringRef Param) {
  for (const auto &[Word, Flag] : ListingWords)
    if (Param == Word) {
      this->*Flag = true;
      return true;
    }
  return false;
}

bool AuditListing::given(StringRef Param) const {
  for (const auto &[Word, Flag] : ListingWords)
    if (Param == Word)
      return this->*Flag;
  return false;
}

bool AuditListing::lists(const ListingCondition &C) const {
  return llvm::all_of(C, [&](const std::vector<StringRef> &Group) {
    return llvm::any_of(Group, [&](StringRef P) { return given(P); });
  });
}

std::vector<StringRef> AuditListing::words() const {
  std::vector<StringRef> Out;
  for (const auto &[Word, Flag] : ListingWords)
    if (this->*Flag)
      Out.push_back(Word);
  return Out;
}

bool operator==(const AuditListing &A, const AuditListing &B) {
  return A.All == B.All && A.Type == B.Type && A.System == B.System &&
         A.SystemPrefixes == B.SystemPrefixes;
}

/// The audit's own words, in the order its error lists them; the parser
/// below takes each.
static constexpr const char *AuditFormatWords[] = {"table", "json"};
static constexpr const char *AuditOwnWords[] = {
    "output=FILE", "system-prefix=DIR", "fail-on-unchecked", "plan"};

/// What align-guard-audit's error says it takes.
static std::string auditWords() {
  std::vector<std::string> Words(std::begin(AuditFormatWords),
                                 std::end(AuditFormatWords));
  Words.push_back(AuditOwnWords[0]);
  for (const auto &[Word, Flag] : ListingWords)
    Words.push_back(Word);
  Words.insert(Words.end(), std::begin(AuditOwnWords) + 1,
               std::end(AuditOwnWords));
  appendGuardWords(Words, /*AsGuard=*/false);
  Words.insert(Words.end(), std::begin(ScopeWords), std::end(ScopeWords));
  return expectedWords(Words);
}

Expected<AuditOptions> parseAuditOptions(StringRef Params) {
  AuditOptions Opts;
  StringRef FormatWord, ActionWord;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param.empty())
      continue;
    if (is_contained(AuditFormatWords, Param)) {
      if (!FormatWord.empty() && FormatWord != Param)
        return invalidParameter("align-guard-audit", Param,
                                "conflicts with '" + FormatWord +
                                    "'; give one format");
      FormatWord = Param;
      Opts.Format = Param == "json" ? AuditFormat::JSON : AuditFormat::Table;
      continue;
    }
    if (Opts.Listing.set(Param))
      continue;
    if (Param.consume_front("system-prefix=")) {
      if (Param.empty())
        return invalidParameter("align-guard-audit",
                                "system-prefix=", "expected system-prefix=DIR");
      Opts.Listing.SystemPrefixes.push_back(Param.str());
      continue;
    }
    if (Param == "fail-on-unchecked") {
      Opts.FailOnUnchecked = true;
      continue;
    }
    if (Param == "plan") {
      Opts.Plan = true;
      continue;
    }
    if (Param.consume_front("output=")) {
      if (Param.empty())
        return invalidParameter("align-guard-audit",
                                "output=", "expected output=FILE");
      Opts.Output = Param.str();
      continue;
    }
    Expected<bool> IsGuardWord =
        parseGuardWord("align-guard-audit", Param, Opts.Guard, ActionWord,
                       /*AsGuard=*/false);
    if (!IsGuardWord)
      return IsGuardWord.takeError();
    if (*IsGuardWord)
      continue;
    Expected<bool> IsGlob =
        parseEntryGlob("align-guard-audit", Param, Opts.Guard.EntryGlobs,
                       Opts.Guard.ExcludeGlobs);
    if (!IsGlob)
      return IsGlob.takeError();
    if (*IsGlob)
      continue;
    Expected<bool> IsList =
        parseIgnorelist("align-guard-audit", Param, Opts.Guard.Ignorelist);
    if (!IsList)
      return IsList.takeError();
    if (*IsList)
      continue;
    return invalidParameter("align-guard-audit", Param, auditWords());
  }
  return Opts;
}

bool operator==(const AlignGuardOptions &A, const AlignGuardOptions &B) {
  return A.Action == B.Action && A.ReturnValue == B.ReturnValue &&
         A.Accesses == B.Accesses && A.TypeAlignment == B.TypeAlignment &&
         A.Loads == B.Loads && A.NoRerun == B.NoRerun &&
         A.AccessesOnly == B.AccessesOnly && A.Deferred == B.Deferred &&
         A.DeviceLibsAfter == B.DeviceLibsAfter &&
         A.EntryGlobs == B.EntryGlobs && A.ExcludeGlobs == B.ExcludeGlobs &&
         A.Ignorelist == B.Ignorelist;
}

bool operator==(const AuditOptions &A, const AuditOptions &B) {
  return A.Format == B.Format && A.Output == B.Output &&
         A.Listing == B.Listing && A.FailOnUnchecked == B.FailOnUnchecked &&
         A.Plan == B.Plan && A.Guard == B.Guard;
}

/// Prints the action word: `return=N` for Return, the bare word otherwise.
static void printAction(raw_ostream &OS, ListSeparator &LS,
                        const AlignGuardOptions &Opts) {
  OS << LS << failureActionName(Opts.Action);
  if (Opts.Action == FailureAction::Return)
    OS << '=' << Opts.ReturnValue;
}

/// `entry=GLOB`, `exclude=GLOB` in order, then `ignorelist=FILE`.
static void printScope(raw_ostream &OS, ListSeparator &LS,
                       const AlignGuardOptions &Opts) {
  for (const std::string &Glob : Opts.EntryGlobs)
    OS << LS << "entry=" << Glob;
  for (const std::string &Glob : Opts.ExcludeGlobs)
    OS << LS << "exclude=" << Glob;
  if (!Opts.Ignorelist.empty())
    OS << LS << "ignorelist=" << Opts.Ignorelist;
}

/// The flag words set in Opts (FlagWords; AsGuard: align-guard's own too).
static void printFlagWords(raw_ostream &OS, ListSeparator &LS,
                           const AlignGuardOptions &Opts, bool AsGuard) {
  for (const FlagWord &W : FlagWords)
    if (Opts.*W.Flag && (AsGuard || !W.GuardOnly))
      OS << LS << W.Name;
}

void printAlignGuardOptions(raw_ostream &OS, const AlignGuardOptions &Opts) {
  ListSeparator LS(";");
  printAction(OS, LS, Opts);
  printFlagWords(OS, LS, Opts, /*AsGuard=*/true);
  printScope(OS, LS, Opts);
}

static StringRef auditFormatName(AuditFormat Format) {
  switch (Format) {
  case AuditFormat::Table:
    return "table";
  case AuditFormat::JSON:
    return "json";
  }
  llvm_unreachable("unknown audit format");
}

void printAuditOptions(raw_ostream &OS, const AuditOptions &Opts) {
  ListSeparator LS(";");
  OS << LS << auditFormatName(Opts.Format);
  if (!Opts.Output.empty())
    OS << LS << "output=" << Opts.Output;
  for (StringRef Word : Opts.Listing.words())
    OS << LS << Word;
  if (Opts.FailOnUnchecked)
    OS << LS << "fail-on-unchecked";
  if (Opts.Plan)
    OS << LS << "plan";
  // Without `plan` the action changes nothing; it is printed only when it
  // is not the default, so that the text still parses back to equal options.
  if (Opts.Plan || Opts.Guard.Action != FailureAction::Abort)
    printAction(OS, LS, Opts.Guard);
  printFlagWords(OS, LS, Opts.Guard, /*AsGuard=*/false);
  printScope(OS, LS, Opts.Guard);
  for (const std::string &Prefix : Opts.Listing.SystemPrefixes)
    OS << LS << "system-prefix=" << Prefix;
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
