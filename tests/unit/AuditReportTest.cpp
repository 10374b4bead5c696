//===- AuditReportTest.cpp - Fingerprints, system headers, merged findings ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// decideListing is the audit's one decision on what its report lists:
// tested here on findings made by hand, without running the pass.
//
//===----------------------------------------------------------------------===//
#include "AuditReport.h"
#include "PromiseDescription.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace alignguard;

namespace {

PromiseDescription vaddParam() {
  PromiseDescription D;
  D.Function = "vadd";
  D.Kind = PromiseKind::ParamAttr;
  D.Subject = "argument #1 'b'";
  D.Argument = 1;
  D.Alignment = 64;
  D.Offset = 0;
  D.File = "vadd.c";
  D.Line = 12;
  D.Column = 3;
  D.Path = "/src/vadd.c";
  return D;
}

// --- Fingerprints ---

TEST(AuditFingerprint, IsTheMD5OfTheNamedFieldsPinned) {
  // hashlib.md5(b"vadd\0param-attr\0argument #1 'b'\0" b"64\0" b"0\0"
  //             b"vadd.c\0").hexdigest()[:16]: the same on every LLVM, and
  // a tool outside can compute it.
  EXPECT_EQ(promiseFingerprint(vaddParam()), "e4be613f5f50dc19");
  PromiseDescription RunTime = vaddParam();
  RunTime.Kind = PromiseKind::Access;
  RunTime.Alignment.reset();
  RunTime.Offset.reset();
  RunTime.File.clear();
  EXPECT_EQ(promiseFingerprint(RunTime), "09ed8123c01a6bc1");
}

TEST(AuditFingerprint, IgnoresLinesColumnsAndDirectories) {
  PromiseDescription Moved = vaddParam();
  Moved.Line = 40;
  Moved.Column = 9;
  Moved.File = "../other/dir/vadd.c";
  Moved.Path = "/elsewhere/vadd.c";
  Moved.PromisedLine = 7;
  EXPECT_EQ(promiseFingerprint(Moved), promiseFingerprint(vaddParam()));
}

TEST(AuditFingerprint, ChangesWithWhatThePromiseIs) {
  std::string Base = promiseFingerprint(vaddParam());
  auto Changed = [&](auto Edit) {
    PromiseDescription D = vaddParam();
    Edit(D);
    return promiseFingerprint(D);
  };
  EXPECT_NE(Changed([](auto &D) { D.Function = "vsub"; }), Base);
  EXPECT_NE(Changed([](auto &D) { D.Kind = PromiseKind::AssumeBundle; }), Base);
  EXPECT_NE(Changed([](auto &D) { D.Subject = "argument #0 'a'"; }), Base);
  EXPECT_NE(Changed([](auto &D) { D.Alignment = 32; }), Base);
  EXPECT_NE(Changed([](auto &D) { D.Offset = 4; }), Base);
  EXPECT_NE(Changed([](auto &D) { D.Offset.reset(); }), Base);
  EXPECT_NE(Changed([](auto &D) { D.File = "vsub.c"; }), Base);
}

// --- System headers ---

TEST(AuditSystemPath, DefaultPrefixes) {
  EXPECT_TRUE(isSystemPath("/usr/include/c++/12/bits/stl_vector.h", {}));
  EXPECT_TRUE(isSystemPath("/usr/local/include/x.h", {}));
  EXPECT_TRUE(isSystemPath("/usr/lib/gcc/x86_64-linux-gnu/12/include/a.h", {}));
  EXPECT_TRUE(isSystemPath(
      "/usr/lib/llvm-14/lib/clang/14.0.6/include/avxintrin.h", {}));
  EXPECT_TRUE(isSystemPath("/usr/lib/llvm-22/include/c++/v1/vector", {}));
  EXPECT_FALSE(isSystemPath("/usr/includes/k.h", {}));
  EXPECT_FALSE(isSystemPath("/usr/lib/llvm-14", {}));
  EXPECT_FALSE(isSystemPath("/home/me/usr/include/k.h", {}));
  EXPECT_FALSE(isSystemPath("", {}));
}

TEST(AuditSystemPath, ExtraPrefixesAreDirectories) {
  std::vector<std::string> Extra = {"/opt/sdk/include/", "/work/./vendor"};
  EXPECT_TRUE(isSystemPath("/opt/sdk/include/sdk.h", Extra));
  EXPECT_TRUE(isSystemPath("/work/vendor/lib/v.h", Extra));
  EXPECT_FALSE(isSystemPath("/opt/sdk/includes/sdk.h", Extra));
  EXPECT_FALSE(isSystemPath("/work/vendored.h", Extra));
}

// --- The listing ---

/// The listing of align-guard-audit<Words>, Words `;`-separated.
AuditListing listing(llvm::StringRef Words,
                     std::vector<std::string> Prefixes = {}) {
  AuditListing L;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Words.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Parts)
    EXPECT_TRUE(L.set(W)) << W.str();
  L.SystemPrefixes = std::move(Prefixes);
  return L;
}

AuditFinding finding(PromiseDescription D, AuditStatus S, std::string Why) {
  AuditFinding F;
  F.Promise = std::move(D);
  F.Status = S;
  F.Reason = std::move(Why);
  return F;
}

TEST(AuditListing, MergesIdenticalFindingsKeepingTheFirstLocation) {
  PromiseDescription Second = vaddParam();
  Second.Line = 14;
  PromiseDescription Other = vaddParam();
  Other.Alignment = 32;
  std::vector<AuditFinding> In = {
      finding(vaddParam(), AuditStatus::Unchecked, "nothing checks it"),
      finding(Other, AuditStatus::Unchecked, "nothing checks it"),
      finding(Second, AuditStatus::Unchecked, "nothing checks it"),
      // Same fingerprint, another reason: its own finding.
      finding(Second, AuditStatus::Unchecked, "rests on an unchecked assume"),
      // Same fingerprint, another status: its own finding.
      finding(Second, AuditStatus::Guarded, "")};
  AuditReport R = decideListing("vadd.c", In, listing("all"));
  ASSERT_EQ(R.Findings.size(), 4u);
  EXPECT_EQ(R.Findings[0].Occurrences, 2u);
  EXPECT_EQ(R.Findings[0].Promise.Line, 12u);
  EXPECT_EQ(R.Findings[0].Fingerprint, "e4be613f5f50dc19");
  EXPECT_STREQ(R.Findings[0].Rule->Id, "alignguard/unchecked-assumption");
  EXPECT_EQ(R.Findings[0].Message,
            "param-attr in 'vadd': argument #1 'b' is promised to be 64-byte "
            "aligned; unchecked: nothing checks it");
  EXPECT_EQ(R.Findings[1].Occurrences, 1u);
  EXPECT_STREQ(R.Findings[3].Rule->Id, "alignguard/verified-assumption");
  // The summary counts promises, not merged findings.
  EXPECT_EQ(R.Summary.Total, 5u);
  EXPECT_EQ(R.Summary.Unchecked, 4u);
  EXPECT_EQ(R.Summary.Guarded, 1u);
}

TEST(AuditListing, DifferentPlansAreNotMerged) {
  AuditFinding A = finding(vaddParam(), AuditStatus::Unchecked, "x");
  AuditFinding B = A;
  A.Planned = PromisePlan{true, 0, "abort", "at-promise", ""};
  B.Planned = PromisePlan{false, 0, "abort", "at-promise", ""};
  AuditReport R = decideListing("vadd.c", {A, B}, listing(""));
  EXPECT_EQ(R.Findings.size(), 2u);
}

TEST(AuditListing, LeavesSystemHeadersOutUnlessAsked) {
  PromiseDescription Lib = vaddParam();
  Lib.Function = "std::vector<float>::data()";
  Lib.Path = "/src/vadd.c"; // inlined: the location is the user's
  Lib.FunctionPath = "/usr/include/c++/12/bits/stl_vector.h";
  PromiseDescription Vendor = vaddParam();
  Vendor.Path = "/src/vendor/v.h";
  std::vector<AuditFinding> In = {
      finding(vaddParam(), AuditStatus::Unchecked, "nothing checks it"),
      finding(Lib, AuditStatus::Unchecked, "nothing checks it"),
      finding(Vendor, AuditStatus::Checked, "")};

  AuditReport Default = decideListing("m", In, listing("all"));
  ASSERT_EQ(Default.Findings.size(), 2u);
  EXPECT_FALSE(Default.Findings[0].System);
  EXPECT_EQ(Default.Summary.Total, 2u);
  EXPECT_EQ(Default.Summary.Unchecked, 1u);
  EXPECT_EQ(Default.Summary.System, 1u);

  AuditReport Prefixed =
      decideListing("m", In, listing("all", {"/src/vendor"}));
  EXPECT_EQ(Prefixed.Findings.size(), 1u);
  EXPECT_EQ(Prefixed.Summary.System, 2u);
  EXPECT_EQ(Prefixed.Summary.Total, 1u);

  AuditReport All = decideListing("m", In, listing("all;system"));
  ASSERT_EQ(All.Findings.size(), 3u);
  EXPECT_TRUE(All.Findings[1].System);
  EXPECT_EQ(All.Summary.Total, 3u);
  EXPECT_EQ(All.Summary.Unchecked, 2u);
  EXPECT_EQ(All.Summary.System, 1u);

  // Without `all` only what needs attention is listed; all is counted.
  AuditReport Short = decideListing("m", In, listing("system"));
  EXPECT_EQ(Short.Findings.size(), 2u);
  EXPECT_EQ(Short.Summary.Total, 3u);
}

// --- The listing rule: listedWhen, the one place it is written ---

constexpr AuditStatus AllStatuses[] = {
    AuditStatus::Guarded,   AuditStatus::Checked,     AuditStatus::Implied,
    AuditStatus::Unchecked, AuditStatus::Unsupported, AuditStatus::Suppressed,
    AuditStatus::Type};

TEST(AuditListingRule, ListedWhenPinned) {
  using C = ListingCondition;
  EXPECT_EQ(listedWhen(AuditStatus::Unchecked, false), C{});
  EXPECT_EQ(listedWhen(AuditStatus::Unsupported, false), C{});
  EXPECT_EQ(listedWhen(AuditStatus::Suppressed, false), C{});
  EXPECT_EQ(listedWhen(AuditStatus::Guarded, false), C{{"all"}});
  EXPECT_EQ(listedWhen(AuditStatus::Checked, false), C{{"all"}});
  EXPECT_EQ(listedWhen(AuditStatus::Implied, false), C{{"all"}});
  EXPECT_EQ(listedWhen(AuditStatus::Type, false), (C{{"all", "type"}}));
  EXPECT_EQ(listedWhen(AuditStatus::Unchecked, true), C{{"system"}});
  EXPECT_EQ(listedWhen(AuditStatus::Guarded, true), (C{{"all"}, {"system"}}));
  EXPECT_EQ(listedWhen(AuditStatus::Type, true),
            (C{{"all", "type"}, {"system"}}));
}

TEST(AuditListingRule, AttentionIsTheRulesLevel) {
  for (AuditStatus S : AllStatuses)
    EXPECT_EQ(needsAttention(S),
              llvm::StringRef(auditRuleOf(S).Level) != "none")
        << auditStatusName(S).str();
  EXPECT_TRUE(needsAttention(AuditStatus::Suppressed));
  EXPECT_FALSE(needsAttention(AuditStatus::Type));
}

// decideListing lists a finding exactly when the words satisfy its
// listed_when, under every combination of `all`, `type` and `system`.
TEST(AuditListingRule, DecideListingAppliesListedWhen) {
  PromiseDescription Own = vaddParam();
  PromiseDescription Lib = vaddParam();
  Lib.Path = "/usr/include/lib.h";
  for (const char *Words : {"", "all", "type", "system", "all;type",
                            "all;system", "type;system", "all;type;system"}) {
    AuditListing L = listing(Words);
    for (AuditStatus S : AllStatuses)
      for (bool System : {false, true}) {
        AuditReport R =
            decideListing("m", {finding(System ? Lib : Own, S, "why")}, L);
        bool Expected =
            (!System || L.System) &&
            (needsAttention(S) || L.All || (S == AuditStatus::Type && L.Type));
        ASSERT_EQ(R.Findings.size(), Expected ? 1u : 0u)
            << Words << " " << auditStatusName(S).str() << " " << System;
        EXPECT_EQ(L.lists(listedWhen(S, System)), Expected);
        if (Expected) {
          EXPECT_EQ(R.Findings[0].ListedWhen, listedWhen(S, System));
        }
      }
  }
}

TEST(AuditListingRule, TheJSONCarriesListedWhen) {
  PromiseDescription Lib = vaddParam();
  Lib.Path = "/usr/include/lib.h";
  AuditReport R =
      decideListing("m",
                    {finding(vaddParam(), AuditStatus::Unchecked, "why"),
                     finding(Lib, AuditStatus::Type, "a reference")},
                    listing("all;system"));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeAuditJSON(OS, R);
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(OS.str());
  ASSERT_TRUE(static_cast<bool>(Doc)) << llvm::toString(Doc.takeError());
  const llvm::json::Array *Found = Doc->getAsObject()->getArray("assumptions");
  ASSERT_EQ(Found->size(), 2u);
  EXPECT_EQ((*Found)[0].getAsObject()->get("listed_when")->getAsArray()->size(),
            0u);
  EXPECT_EQ(
      *(*Found)[1].getAsObject()->get("listed_when"),
      llvm::json::Value(llvm::json::Array{llvm::json::Array{"all", "type"},
                                          llvm::json::Array{"system"}}));
}

TEST(AuditRules, LevelsAndNames) {
  ASSERT_EQ(auditRules().size(), 3u);
  EXPECT_STREQ(auditRuleOf(AuditStatus::Suppressed).Level, "warning");
  EXPECT_STREQ(auditRuleOf(AuditStatus::Unsupported).Name,
               "UnsupportedAssumption");
  EXPECT_STREQ(auditRuleOf(AuditStatus::Type).Level, "none");
}

} // namespace
