//===- OptionsTest.cpp - align-guard<...> parameter parsing and printing --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Options.h"
#include "AuditReport.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cctype>
#include <set>

using namespace alignguard;

namespace {

/// A readable test name from the parameter text: "trap;entry=k_*" ->
/// "trap_entry_k__", prefixed with the case number to stay unique.
template <typename CaseT>
std::string caseName(const ::testing::TestParamInfo<CaseT> &Info) {
  std::string Name = std::to_string(Info.index) + "_";
  for (const char *C = Info.param.Params; *C; ++C)
    Name += std::isalnum(static_cast<unsigned char>(*C)) ? *C : '_';
  return Name;
}

struct ValidCase {
  const char *Params;
  FailureAction Action;
  std::vector<std::string> Entry, Exclude;
  int64_t ReturnValue = 0;
  bool Accesses = false;
  bool TypeAlignment = false;
  std::string Ignorelist;
};

class ValidOptions : public ::testing::TestWithParam<ValidCase> {};

TEST_P(ValidOptions, Parses) {
  const ValidCase &C = GetParam();
  llvm::Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(C.Params);
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_EQ(Opts->Action, C.Action);
  EXPECT_EQ(Opts->EntryGlobs, C.Entry);
  EXPECT_EQ(Opts->ExcludeGlobs, C.Exclude);
  EXPECT_EQ(Opts->ReturnValue, C.ReturnValue);
  EXPECT_EQ(Opts->Accesses, C.Accesses);
  EXPECT_EQ(Opts->TypeAlignment, C.TypeAlignment);
  EXPECT_EQ(Opts->Ignorelist, C.Ignorelist);
}

INSTANTIATE_TEST_SUITE_P(
    AlignGuard, ValidOptions,
    ::testing::Values(
        ValidCase{"", FailureAction::Abort, {}, {}},
        ValidCase{"abort", FailureAction::Abort, {}, {}},
        ValidCase{"trap", FailureAction::Trap, {}, {}},
        ValidCase{"recover", FailureAction::Recover, {}, {}},
        ValidCase{"recover;recover", FailureAction::Recover, {}, {}},
        ValidCase{";trap;", FailureAction::Trap, {}, {}},
        ValidCase{"entry=vadd*", FailureAction::Abort, {"vadd*"}, {}},
        ValidCase{"fallback", FailureAction::Fallback, {}, {}},
        ValidCase{"accesses", FailureAction::Abort, {}, {}, 0, true},
        ValidCase{
            "fallback;accesses", FailureAction::Fallback, {}, {}, 0, true},
        ValidCase{
            "type-alignment", FailureAction::Abort, {}, {}, 0, false, true},
        ValidCase{"recover;type-alignment;accesses;type-alignment",
                  FailureAction::Recover,
                  {},
                  {},
                  0,
                  true,
                  true},
        ValidCase{"type-alignment;ignorelist=ubsan.txt",
                  FailureAction::Abort,
                  {},
                  {},
                  0,
                  false,
                  true,
                  "ubsan.txt"},
        ValidCase{"return=-1", FailureAction::Return, {}, {}, -1},
        ValidCase{"return=24;entry=k", FailureAction::Return, {"k"}, {}, 24},
        ValidCase{"return=-24;return=-24", FailureAction::Return, {}, {}, -24},
        ValidCase{"ignorelist=ubsan.txt;recover",
                  FailureAction::Recover,
                  {},
                  {},
                  0,
                  false,
                  false,
                  "ubsan.txt"},
        ValidCase{"ignorelist=dir/a b.txt",
                  FailureAction::Abort,
                  {},
                  {},
                  0,
                  false,
                  false,
                  "dir/a b.txt"},
        ValidCase{"trap;entry=k_*;entry=main_[ab];exclude=k_ref",
                  FailureAction::Trap,
                  {"k_*", "main_[ab]"},
                  {"k_ref"}}),
    caseName<ValidCase>);

struct InvalidCase {
  const char *Params;
  const char *Error;
};

class InvalidOptions : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidOptions, FailsWithOneClearLine) {
  const InvalidCase &C = GetParam();
  llvm::Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(C.Params);
  ASSERT_FALSE(static_cast<bool>(Opts));
  EXPECT_EQ(llvm::toString(Opts.takeError()), C.Error);
}

INSTANTIATE_TEST_SUITE_P(
    AlignGuard, InvalidOptions,
    ::testing::Values(
        InvalidCase{"bogus",
                    "invalid align-guard pass parameter 'bogus': "
                    "expected abort, trap, recover, return=N, "
                    "fallback, accesses, accesses-only, type-alignment, loads, "
                    "no-rerun, deferred, device-libs-after, entry=GLOB, "
                    "exclude=GLOB "
                    "or ignorelist=FILE"},
        InvalidCase{"Abort",
                    "invalid align-guard pass parameter 'Abort': "
                    "expected abort, trap, recover, return=N, "
                    "fallback, accesses, accesses-only, type-alignment, loads, "
                    "no-rerun, deferred, device-libs-after, entry=GLOB, "
                    "exclude=GLOB "
                    "or ignorelist=FILE"},
        InvalidCase{"abort;trap",
                    "invalid align-guard pass parameter 'trap': conflicts "
                    "with 'abort'; give one failure action"},
        InvalidCase{"entry=", "invalid align-guard pass parameter 'entry=': "
                              "expected entry=GLOB"},
        InvalidCase{"exclude=", "invalid align-guard pass parameter "
                                "'exclude=': expected exclude=GLOB"},
        InvalidCase{"recover=1",
                    "invalid align-guard pass parameter 'recover=1': "
                    "expected abort, trap, recover, return=N, fallback, "
                    "accesses, accesses-only, type-alignment, loads, no-rerun, "
                    "deferred, device-libs-after, entry=GLOB, exclude=GLOB or "
                    "ignorelist=FILE"},
        InvalidCase{"type-alignment=1",
                    "invalid align-guard pass parameter 'type-alignment=1': "
                    "expected abort, trap, recover, return=N, fallback, "
                    "accesses, accesses-only, type-alignment, loads, no-rerun, "
                    "deferred, device-libs-after, entry=GLOB, exclude=GLOB or "
                    "ignorelist=FILE"},
        InvalidCase{"return", "invalid align-guard pass parameter 'return': "
                              "expected return=N, N a decimal integer"},
        InvalidCase{"return=", "invalid align-guard pass parameter "
                               "'return=': expected return=N, N a decimal "
                               "integer"},
        InvalidCase{"return=0x10", "invalid align-guard pass parameter "
                                   "'return=0x10': expected return=N, N a "
                                   "decimal integer"},
        InvalidCase{"return=-1;fallback",
                    "invalid align-guard pass parameter 'fallback': conflicts "
                    "with 'return=-1'; give one failure action"},
        InvalidCase{"return=1;return=2",
                    "invalid align-guard pass parameter 'return=2': conflicts "
                    "with 'return=1'; give one failure action"},
        InvalidCase{"ignorelist", "invalid align-guard pass parameter "
                                  "'ignorelist': expected ignorelist=FILE"},
        InvalidCase{"ignorelist=", "invalid align-guard pass parameter "
                                   "'ignorelist=': expected ignorelist=FILE"},
        InvalidCase{"ignorelist=a.txt;ignorelist=b.txt",
                    "invalid align-guard pass parameter 'ignorelist=b.txt': "
                    "conflicts with 'ignorelist=a.txt'; give one ignorelist"}),
    caseName<InvalidCase>);

// GlobPattern's own explanation differs between LLVM versions; what we add
// in front of it does not.
TEST(InvalidOptionsGlob, NamesTheParameterAndTheGlobProblem) {
  for (const char *Params : {"entry=[", "trap;exclude=a[b"}) {
    llvm::Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(Params);
    ASSERT_FALSE(static_cast<bool>(Opts));
    std::string Bad = llvm::StringRef(Params).rsplit(';').second.str();
    if (Bad.empty())
      Bad = Params;
    std::string Expected = "invalid align-guard pass parameter '" + Bad +
                           "': invalid glob pattern";
    EXPECT_EQ(llvm::toString(Opts.takeError()).substr(0, Expected.size()),
              Expected);
  }
}

TEST(PassName, MatchesBareAndParameterizedNames) {
  llvm::StringRef Params = "unset";
  EXPECT_TRUE(matchPassName("align-guard", "align-guard", Params));
  EXPECT_EQ(Params, "");
  EXPECT_TRUE(
      matchPassName("align-guard<trap;entry=k>", "align-guard", Params));
  EXPECT_EQ(Params, "trap;entry=k");
  EXPECT_FALSE(matchPassName("align-guard-audit", "align-guard", Params));
  EXPECT_FALSE(matchPassName("align-guard<trap", "align-guard", Params));
  EXPECT_FALSE(matchPassName("instcombine", "align-guard", Params));
}

TEST(FailureActionName, RoundTripsThroughTheParser) {
  for (FailureAction A : {FailureAction::Abort, FailureAction::Trap,
                          FailureAction::Recover, FailureAction::Fallback}) {
    llvm::Expected<AlignGuardOptions> Opts =
        parseAlignGuardOptions(failureActionName(A));
    ASSERT_TRUE(static_cast<bool>(Opts));
    EXPECT_EQ(Opts->Action, A);
  }
}

// --- Printing: what -print-pipeline-passes writes between the brackets ---

template <typename OptionsT>
std::string printed(const OptionsT &Opts,
                    void (*Print)(llvm::raw_ostream &, const OptionsT &)) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Print(OS, Opts);
  return OS.str();
}

struct PrintCase {
  const char *Params;  // any spelling the parser accepts
  const char *Printed; // the canonical text
};

class PrintAlignGuard : public ::testing::TestWithParam<PrintCase> {};

TEST_P(PrintAlignGuard, PrintsCanonicallyAndParsesBackEqual) {
  const PrintCase &C = GetParam();
  llvm::Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(C.Params);
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  std::string Text = printed(*Opts, printAlignGuardOptions);
  EXPECT_EQ(Text, C.Printed);
  llvm::Expected<AlignGuardOptions> Again = parseAlignGuardOptions(Text);
  ASSERT_TRUE(static_cast<bool>(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(*Again == *Opts) << Text;
  EXPECT_EQ(printed(*Again, printAlignGuardOptions), Text);
}

INSTANTIATE_TEST_SUITE_P(
    AlignGuard, PrintAlignGuard,
    ::testing::Values(
        PrintCase{"", "abort"}, PrintCase{"abort", "abort"},
        PrintCase{"trap", "trap"}, PrintCase{";recover;recover;", "recover"},
        PrintCase{"fallback", "fallback"}, PrintCase{"return=0", "return=0"},
        PrintCase{"return=-24;accesses;exclude=a;exclude=b",
                  "return=-24;accesses;exclude=a;exclude=b"},
        PrintCase{"exclude=k_ref;entry=k_*;accesses;entry=main_[ab];trap",
                  "trap;accesses;entry=k_*;entry=main_[ab];exclude=k_ref"},
        PrintCase{"recover;entry=k*", "recover;entry=k*"},
        PrintCase{"ignorelist=ubsan.txt;entry=k*;trap",
                  "trap;entry=k*;ignorelist=ubsan.txt"},
        PrintCase{"ignorelist=a.txt;ignorelist=a.txt",
                  "abort;ignorelist=a.txt"},
        PrintCase{"entry=k;type-alignment;accesses;recover",
                  "recover;accesses;type-alignment;entry=k"},
        PrintCase{"ignorelist=a.txt;entry=k;type-alignment",
                  "abort;type-alignment;entry=k;ignorelist=a.txt"},
        PrintCase{"loads;entry=k;accesses;trap", "trap;accesses;loads;entry=k"},
        PrintCase{"no-rerun;recover", "recover;no-rerun"},
        PrintCase{"entry=k;device-libs-after",
                  "abort;device-libs-after;entry=k"}),
    caseName<PrintCase>);

class PrintAudit : public ::testing::TestWithParam<PrintCase> {};

TEST_P(PrintAudit, PrintsCanonicallyAndParsesBackEqual) {
  const PrintCase &C = GetParam();
  llvm::Expected<AuditOptions> Opts = parseAuditOptions(C.Params);
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  std::string Text = printed(*Opts, printAuditOptions);
  EXPECT_EQ(Text, C.Printed);
  llvm::Expected<AuditOptions> Again = parseAuditOptions(Text);
  ASSERT_TRUE(static_cast<bool>(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(*Again == *Opts) << Text;
  EXPECT_EQ(printed(*Again, printAuditOptions), Text);
}

INSTANTIATE_TEST_SUITE_P(
    Audit, PrintAudit,
    ::testing::Values(
        PrintCase{"", "table"}, PrintCase{"table", "table"},
        PrintCase{"json", "json"}, PrintCase{"json;abort", "json"},
        PrintCase{"plan", "table;plan;abort"},
        PrintCase{"json;plan;recover;accesses", "json;plan;recover;accesses"},
        PrintCase{"json;all;fail-on-unchecked;output=x.json;plan;fallback",
                  "json;output=x.json;all;fail-on-unchecked;plan;fallback"},
        // Without plan a non-default action is kept, so it still round-trips.
        PrintCase{"trap;json", "json;trap"},
        PrintCase{"accesses", "table;accesses"},
        PrintCase{"type-alignment;all", "table;all;type-alignment"},
        PrintCase{"type-alignment;plan;accesses;json",
                  "json;plan;abort;accesses;type-alignment"},
        PrintCase{"return=7;plan;exclude=b;entry=a;output=%m.audit.json",
                  "table;output=%m.audit.json;plan;return=7;entry=a;"
                  "exclude=b"},
        PrintCase{"ignorelist=ubsan.txt;all;json",
                  "json;all;ignorelist=ubsan.txt"},
        PrintCase{"ignorelist=u.txt;type-alignment;json",
                  "json;type-alignment;ignorelist=u.txt"},
        PrintCase{"loads;json;plan", "json;plan;abort;loads"},
        PrintCase{"system;json", "json;system"},
        PrintCase{"system;type;json", "json;type;system"},
        PrintCase{"type;all;type-alignment", "table;all;type;type-alignment"},
        PrintCase{"fail-on-unchecked;system;all",
                  "table;all;system;fail-on-unchecked"},
        // Prefixes last, once each in order.
        PrintCase{"system-prefix=/opt/b;json;system-prefix=/opt/a;entry=k",
                  "json;entry=k;system-prefix=/opt/b;system-prefix=/opt/a"},
        PrintCase{"system-prefix=sdk/include;ignorelist=u.txt;system",
                  "table;system;ignorelist=u.txt;system-prefix=sdk/include"}),
    caseName<PrintCase>);

// --- The listing words ---

// Every word the audit's listing rule names in a finding's listed_when (the
// words the alignguard driver passes for --all, --include-type and
// --include-system) is an align-guard-audit parameter that gives it.
TEST(AuditListingWords, EveryWordOfListedWhenIsAParameter) {
  std::set<std::string> Named;
  for (AuditStatus S :
       {AuditStatus::Guarded, AuditStatus::Checked, AuditStatus::Implied,
        AuditStatus::Unchecked, AuditStatus::Unsupported,
        AuditStatus::Suppressed, AuditStatus::Type})
    for (bool System : {false, true})
      for (const auto &Group : listedWhen(S, System))
        for (llvm::StringRef Word : Group)
          Named.insert(Word.str());
  EXPECT_EQ(Named, (std::set<std::string>{"all", "system", "type"}));
  for (const std::string &Word : Named) {
    llvm::Expected<AuditOptions> Opts = parseAuditOptions(Word);
    ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
    EXPECT_TRUE(Opts->Listing.given(Word)) << Word;
    EXPECT_EQ(Opts->Listing.words(), std::vector<llvm::StringRef>{Word});
    EXPECT_TRUE(Opts->Listing.lists({{Word}}));
    EXPECT_FALSE(AuditOptions().Listing.lists({{Word}}));
  }
  AuditListing None;
  EXPECT_FALSE(None.set("type-alignment"));
  EXPECT_TRUE(None.lists({}));
}

// --- The audit's plan and the guard's words it takes ---

TEST(AuditPlan, TakesTheGuardsWordsAndGlobs) {
  llvm::Expected<AuditOptions> Opts =
      parseAuditOptions("json;plan;return=-3;accesses;entry=k*;exclude=k_ref");
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_EQ(Opts->Format, AuditFormat::JSON);
  EXPECT_TRUE(Opts->Plan);
  EXPECT_EQ(Opts->Guard.Action, FailureAction::Return);
  EXPECT_EQ(Opts->Guard.ReturnValue, -3);
  EXPECT_TRUE(Opts->Guard.Accesses);
  std::vector<std::string> Entry{"k*"}, Exclude{"k_ref"};
  EXPECT_EQ(Opts->Guard.EntryGlobs, Entry);
  EXPECT_EQ(Opts->Guard.ExcludeGlobs, Exclude);

  // The guard's options in the audit are exactly what align-guard itself
  // makes of the same words.
  llvm::Expected<AlignGuardOptions> Guard =
      parseAlignGuardOptions("return=-3;accesses;entry=k*;exclude=k_ref");
  ASSERT_TRUE(static_cast<bool>(Guard));
  EXPECT_TRUE(Opts->Guard == *Guard);
}

TEST(AuditPlan, TakesTheGuardsIgnorelist) {
  llvm::Expected<AuditOptions> Opts =
      parseAuditOptions("json;ignorelist=ubsan.txt");
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_EQ(Opts->Guard.Ignorelist, "ubsan.txt");
  llvm::Expected<AuditOptions> Twice =
      parseAuditOptions("ignorelist=a.txt;ignorelist=b.txt");
  ASSERT_FALSE(static_cast<bool>(Twice));
  EXPECT_EQ(llvm::toString(Twice.takeError()),
            "invalid align-guard-audit pass parameter 'ignorelist=b.txt': "
            "conflicts with 'ignorelist=a.txt'; give one ignorelist");
}

TEST(AuditPlan, DefaultsToNoPlanAndAbort) {
  llvm::Expected<AuditOptions> Opts = parseAuditOptions("");
  ASSERT_TRUE(static_cast<bool>(Opts));
  EXPECT_FALSE(Opts->Plan);
  EXPECT_TRUE(Opts->Guard == AlignGuardOptions());
  EXPECT_TRUE(*Opts == AuditOptions());
  EXPECT_FALSE(Opts->Guard.TypeAlignment);
}

TEST(AuditPlan, TypeAlignmentIsTheGuards) {
  llvm::Expected<AuditOptions> Opts = parseAuditOptions("type-alignment");
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_TRUE(Opts->Guard.TypeAlignment);
  EXPECT_FALSE(*Opts == AuditOptions());
  llvm::Expected<AlignGuardOptions> Guard =
      parseAlignGuardOptions("type-alignment");
  ASSERT_TRUE(static_cast<bool>(Guard));
  EXPECT_TRUE(Opts->Guard == *Guard);
  EXPECT_FALSE(*Guard == AlignGuardOptions());
}

TEST(AuditPlan, ActionWithoutPlanIsAccepted) {
  llvm::Expected<AuditOptions> Opts = parseAuditOptions("fallback");
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_FALSE(Opts->Plan);
  EXPECT_EQ(Opts->Guard.Action, FailureAction::Fallback);
}

class InvalidAuditOptions : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidAuditOptions, FailsWithOneClearLine) {
  const InvalidCase &C = GetParam();
  llvm::Expected<AuditOptions> Opts = parseAuditOptions(C.Params);
  ASSERT_FALSE(static_cast<bool>(Opts));
  EXPECT_EQ(llvm::toString(Opts.takeError()), C.Error);
}

INSTANTIATE_TEST_SUITE_P(
    Audit, InvalidAuditOptions,
    ::testing::Values(
        InvalidCase{"xml",
                    "invalid align-guard-audit pass parameter 'xml': "
                    "expected table, json, output=FILE, all, "
                    "type, system, system-prefix=DIR, fail-on-unchecked, "
                    "plan, abort, trap, recover, return=N, fallback, "
                    "accesses, type-alignment, loads, no-rerun, "
                    "device-libs-after, entry=GLOB, exclude=GLOB or "
                    "ignorelist=FILE"},
        // SARIF is the alignguard driver's, written from the JSON.
        InvalidCase{"sarif",
                    "invalid align-guard-audit pass parameter 'sarif': "
                    "expected table, json, output=FILE, all, "
                    "type, system, system-prefix=DIR, fail-on-unchecked, "
                    "plan, abort, trap, recover, return=N, fallback, "
                    "accesses, type-alignment, loads, no-rerun, "
                    "device-libs-after, entry=GLOB, exclude=GLOB or "
                    "ignorelist=FILE"},
        InvalidCase{"json;system-prefix=",
                    "invalid align-guard-audit pass parameter "
                    "'system-prefix=': expected system-prefix=DIR"},
        InvalidCase{"json;table",
                    "invalid align-guard-audit pass parameter 'table': "
                    "conflicts with 'json'; give one format"},
        InvalidCase{"output=", "invalid align-guard-audit pass parameter "
                               "'output=': expected output=FILE"},
        InvalidCase{"plan;return", "invalid align-guard-audit pass parameter "
                                   "'return': expected return=N, N a "
                                   "decimal integer"},
        InvalidCase{"plan;return=x",
                    "invalid align-guard-audit pass parameter 'return=x': "
                    "expected return=N, N a decimal integer"},
        InvalidCase{"plan;trap;recover",
                    "invalid align-guard-audit pass parameter 'recover': "
                    "conflicts with 'trap'; give one failure action"},
        InvalidCase{"return=1;plan;return=2",
                    "invalid align-guard-audit pass parameter 'return=2': "
                    "conflicts with 'return=1'; give one failure action"},
        InvalidCase{"plan;entry=", "invalid align-guard-audit pass parameter "
                                   "'entry=': expected entry=GLOB"}),
    caseName<InvalidCase>);

/// `deferred`, what clang's pipeline runs: prints back after accesses-only
/// and before the scope, and compares.
TEST(AlignGuardDeferred, ParsesAndPrintsBack) {
  llvm::Expected<AlignGuardOptions> Opts =
      parseAlignGuardOptions("entry=k*;deferred;recover;accesses-only");
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_TRUE(Opts->Deferred);
  std::string Text = printed(*Opts, printAlignGuardOptions);
  EXPECT_EQ(Text, "recover;accesses;accesses-only;deferred;entry=k*");
  llvm::Expected<AlignGuardOptions> Plain = parseAlignGuardOptions("recover");
  ASSERT_TRUE(static_cast<bool>(Plain));
  EXPECT_FALSE(Plain->Deferred);
  Plain->Deferred = true;
  Plain->AccessesOnly = Plain->Accesses = true;
  Plain->EntryGlobs = {"k*"};
  EXPECT_TRUE(*Plain == *Opts);
}

/// `accesses-only`, the second run of a build's align-guard<accesses>:
/// implies accesses, prints back canonically, and is not the audit's.
TEST(AlignGuardAccessesOnly, ParsesPrintsAndIsNotTheAudits) {
  struct {
    const char *Params;
    const char *Printed;
  } Cases[] = {
      {"accesses-only", "abort;accesses;accesses-only"},
      {"accesses-only;fallback;accesses", "fallback;accesses;accesses-only"},
      {"entry=k*;accesses-only;accesses-only;trap",
       "trap;accesses;accesses-only;entry=k*"},
  };
  for (const auto &C : Cases) {
    llvm::Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(C.Params);
    ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
    EXPECT_TRUE(Opts->AccessesOnly) << C.Params;
    EXPECT_TRUE(Opts->Accesses) << C.Params;
    std::string Text = printed(*Opts, printAlignGuardOptions);
    EXPECT_EQ(Text, C.Printed);
    llvm::Expected<AlignGuardOptions> Again = parseAlignGuardOptions(Text);
    ASSERT_TRUE(static_cast<bool>(Again)) << llvm::toString(Again.takeError());
    EXPECT_TRUE(*Again == *Opts) << Text;
  }
  llvm::Expected<AlignGuardOptions> Plain = parseAlignGuardOptions("accesses");
  ASSERT_TRUE(static_cast<bool>(Plain));
  EXPECT_FALSE(Plain->AccessesOnly);
  llvm::Expected<AuditOptions> Audit = parseAuditOptions("plan;accesses-only");
  ASSERT_FALSE(static_cast<bool>(Audit));
  EXPECT_EQ(llvm::toString(Audit.takeError()),
            "invalid align-guard-audit pass parameter 'accesses-only': "
            "expected table, json, output=FILE, all, type, system, "
            "system-prefix=DIR, fail-on-unchecked, plan, abort, trap, "
            "recover, return=N, fallback, accesses, type-alignment, loads, "
            "no-rerun, device-libs-after, entry=GLOB, exclude=GLOB or "
            "ignorelist=FILE");
}

/// Every word an error lists (the list is made from the parser's own
/// tables) parses, with a value where it takes one.
template <typename ParseT>
void expectListedWordsParse(ParseT Parse, llvm::StringRef Bogus) {
  auto Error = Parse(Bogus);
  ASSERT_FALSE(static_cast<bool>(Error));
  std::string Text = llvm::toString(Error.takeError());
  llvm::StringRef List = llvm::StringRef(Text).split(": expected ").second;
  ASSERT_FALSE(List.empty()) << Text;
  llvm::SmallVector<llvm::StringRef, 32> Words;
  List.split(Words, ", ");
  auto [Rest, Last] = Words.pop_back_val().split(" or ");
  Words.push_back(Rest);
  Words.push_back(Last);
  EXPECT_GE(Words.size(), 10u) << Text;
  for (llvm::StringRef Word : Words) {
    std::string Param = Word.str();
    for (auto [Placeholder, Value] :
         {std::pair<const char *, const char *>{"=N", "=1"},
          {"=GLOB", "=k*"},
          {"=FILE", "=f.txt"},
          {"=DIR", "=/usr"}})
      if (llvm::StringRef(Param).size() > strlen(Placeholder) &&
          Param.compare(Param.size() - strlen(Placeholder), std::string::npos,
                        Placeholder) == 0)
        Param = Param.substr(0, Param.size() - strlen(Placeholder)) + Value;
    auto Parsed = Parse(Param);
    EXPECT_TRUE(static_cast<bool>(Parsed))
        << Word.str() << ": " << llvm::toString(Parsed.takeError());
  }
}

TEST(OptionsTest, EveryListedWordParses) {
  expectListedWordsParse(parseAlignGuardOptions, "bogus");
  expectListedWordsParse(parseAuditOptions, "bogus");
}

} // namespace
