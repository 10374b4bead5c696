//===- tests/unit/RuntimeTest.cpp - Tests of the AlignGuard C runtime -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Exact report lines from alignguard_format_report, handler override, per-site
// deduplication (also from 8 threads and past the 256-site table), the abort
// hook, the per-thread last error, the fallback hook (its count, its own
// dedup table, report_fallback=1), the program's errno kept around every
// hook, and ALIGNGUARD_OPTIONS (log_path, quiet, report_fallback, bad keys).
// Names from the IR and text from ALIGNGUARD_OPTIONS have their control bytes
// escaped (\xNN, as in the audit table), so every report is one line; a log
// that cannot be opened or written is given up for stderr with one line
// saying why.
//
// The runtime keeps process-wide state: options are parsed once, on the first
// report, and a site is reported once per process. So every test that reports
// runs its body in a fresh process: a death test in gtest's "threadsafe"
// style, which re-executes this binary and runs just that one statement. The
// child prints what it saw to stderr and the parent compares the whole of it
// with EXPECT_EXIT, so the tests hold under --gtest_shuffle and --gtest_repeat.
//
//===----------------------------------------------------------------------===//

#include "SiteBlocks.h"

#include "alignguard/alignguard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

sites::Fields siteFields(const char *Fn, const char *Subject, const char *File,
                         uint32_t Line, uint32_t Column) {
  sites::Fields F;
  F.Function = Fn;
  F.Subject = Subject;
  F.File = File;
  F.Line = Line;
  F.Column = Column;
  return F;
}

const alignguard_site *makeSite(const char *Fn, const char *Subject,
                                const char *File, uint32_t Line,
                                uint32_t Column) {
  return sites::block({siteFields(Fn, Subject, File, Line, Column)});
}

/// A site that also says where its promise was written.
const alignguard_site *makePromisedSite(const char *Fn, const char *File,
                                        uint32_t Line, uint32_t Column,
                                        const char *PromiseFile,
                                        uint32_t PromiseLine,
                                        uint32_t PromiseColumn) {
  sites::Fields F = siteFields(Fn, "p", File, Line, Column);
  F.PromiseFile = PromiseFile;
  F.PromiseLine = PromiseLine;
  F.PromiseColumn = PromiseColumn;
  return sites::block({F});
}

std::string format(const alignguard_site *Site, uint64_t Ptr, uint64_t Align,
                   int64_t Off) {
  char Buf[1024];
  size_t N = alignguard_format_report(Buf, sizeof Buf, Site, Ptr, Align, Off);
  EXPECT_EQ(N, std::strlen(Buf));
  return Buf;
}

/// Death-test matcher for the child's whole stderr, not a regex search in it.
::testing::Matcher<const std::string &> exactly(const std::string &S) {
  return ::testing::Matcher<const std::string &>(S);
}

/// Writes to stderr with write(2), so it interleaves with the runtime's own
/// unbuffered lines in program order.
void say(const std::string &S) {
  std::string Line = S + "\n";
  ssize_t W = write(2, Line.data(), Line.size());
  (void)W;
}

/// The body of every fresh-process test: sets ALIGNGUARD_OPTIONS (nullptr:
/// unset, whatever the environment running the tests says) before anything
/// can report, runs Body, and exits 0 unless Body dies first.
template <typename F> [[noreturn]] void inChild(const char *Options, F Body) {
  if (Options)
    setenv("ALIGNGUARD_OPTIONS", Options, 1);
  else
    unsetenv("ALIGNGUARD_OPTIONS");
  Body();
  _exit(0);
}

/// Every death test here starts with this: "threadsafe" re-executes the
/// binary, so the runtime's state is fresh, whatever the command line said.
/// (Not set from a static initializer: gtest's flag may not be built yet.)
void freshProcess() { GTEST_FLAG_SET(death_test_style, "threadsafe"); }

struct Recorder {
  std::atomic<int> Calls{0};
  std::string Last;
};

void record(const alignguard_report_info *Info, void *User) {
  auto *R = static_cast<Recorder *>(User);
  std::ostringstream OS;
  OS << std::hex << "pointer=0x" << Info->pointer << std::dec
     << " alignment=" << Info->alignment << " offset=" << Info->offset
     << " misalignment=" << Info->misalignment << " fatal=" << Info->fatal
     << " fallback=" << Info->fallback << " actual=" << Info->actual_alignment
     << " promised="
     << (Info->site->promise_file ? Info->site->promise_file : "(none)") << ":"
     << Info->site->promise_line << ":" << Info->site->promise_column
     << " message=" << Info->message;
  R->Last = OS.str();
  R->Calls.fetch_add(1);
}

void sayHandler(const alignguard_report_info *Info, void *) {
  say(std::string("handler: fatal=") + std::to_string(Info->fatal) + " " +
      Info->message);
}

//===-- alignguard_format_report ------------------------------------------===//

struct FormatCase {
  const char *Name;
  const alignguard_site *Site;
  bool NullSite;
  uint64_t Pointer;
  uint64_t Alignment;
  int64_t Offset;
  const char *Expected;
};

/// gtest prints a failing case by name rather than as a byte dump.
void PrintTo(const FormatCase &C, std::ostream *OS) { *OS << C.Name; }

/// A descriptor of another version: only `version` may be read, so its
/// strings are offsets far outside it, which crash the test if followed.
const alignguard_site *otherVersion(uint32_t Version) {
  sites::Fields F;
  F.Version = Version;
  F.Kind = 99;
  const alignguard_site *S = sites::block({F});
  auto *Poisoned = const_cast<alignguard_site *>(S);
  Poisoned->function = Poisoned->subject = Poisoned->file =
      Poisoned->promise_file = 0x7ffffff0u;
  return S;
}

const FormatCase FormatCases[] = {
    {"Misaligned", makeSite("dot", "argument #1 'b'", "dot.c", 3, 7), false,
     0x1004, 16, 0,
     "alignguard: dot: argument #1 'b' = 0x1004 is 4-byte aligned, not 16-byte "
     "aligned "
     "(4 bytes past a boundary) at dot.c:3:7"},
    {"PositiveOffset", makeSite("dot", "argument #1 'b'", "dot.c", 3, 7), false,
     0x1014, 64, 16,
     "alignguard: dot: argument #1 'b' = 0x1014 - 16 is 4-byte aligned, not "
     "64-byte aligned "
     "(4 bytes past a boundary) at dot.c:3:7"},
    {"NegativeOffset", makeSite("dot", "p", "dot.c", 3, 7), false, 0x1000, 32,
     -8,
     "alignguard: dot: p = 0x1000 + 8 is 8-byte aligned, not 32-byte aligned "
     "(8 bytes past a boundary) at dot.c:3:7"},
    {"OffsetWrapsModulo2To64", makeSite("f", "p", nullptr, 0, 0), false, 0x4,
     16, 8,
     "alignguard: f: p = 0x4 - 8 is 4-byte aligned, not 16-byte aligned "
     "(12 bytes past a boundary)"},
    {"MostNegativeOffset", makeSite("f", "p", nullptr, 0, 0), false, 0x3, 16,
     INT64_MIN,
     "alignguard: f: p = 0x3 + 9223372036854775808 is 1-byte aligned, not "
     "16-byte aligned "
     "(3 bytes past a boundary)"},
    {"LargestValues", makeSite("f", "p", nullptr, 0, 0), false, UINT64_MAX,
     uint64_t{1} << 63, 0,
     "alignguard: f: p = 0xffffffffffffffff is 1-byte aligned, not "
     "9223372036854775808-byte aligned "
     "(9223372036854775807 bytes past a boundary)"},
    {"NullPointerHexIsZero", makeSite("f", "p", nullptr, 0, 0), false, 0, 8, 3,
     "alignguard: f: p = 0x0 - 3 is 1-byte aligned, not 8-byte aligned "
     "(5 bytes past a boundary)"},
    {"NotPowerOfTwo", makeSite("dot", "p", "dot.c", 3, 7), false, 0x30, 24, 0,
     "alignguard: dot: p = 0x30 is not null, as the alignment 24 (not a power "
     "of two) requires at dot.c:3:7"},
    {"NotPowerOfTwoIgnoresOffset", makeSite("dot", "p", nullptr, 0, 0), false,
     0x30, 24, 8,
     "alignguard: dot: p = 0x30 is not null, as the alignment 24 (not a power "
     "of two) requires"},
    {"ZeroAlignment", makeSite("dot", "p", "dot.c", 3, 7), false, 0xabc, 0, 0,
     "alignguard: dot: p = 0xabc is not null, as the alignment 0 (not a power "
     "of two) requires at dot.c:3:7"},
    {"NoFile", makeSite("dot", "p", nullptr, 3, 7), false, 0x1004, 16, 0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary)"},
    {"EmptyFile", makeSite("dot", "p", "", 3, 7), false, 0x1004, 16, 0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary)"},
    {"FileWithoutLine", makeSite("dot", "p", "dot.c", 0, 7), false, 0x1004, 16,
     0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c"},
    {"FileWithoutColumn", makeSite("dot", "p", "dot.c", 42, 0), false, 0x1004,
     16, 0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:42"},
    {"NullSubject", makeSite("dot", nullptr, "dot.c", 3, 7), false, 0x1004, 16,
     0,
     "alignguard: dot: ? = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:3:7"},
    {"NullFunction", makeSite(nullptr, "p", nullptr, 0, 0), false, 0x1004, 16,
     0,
     "alignguard: ?: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary)"},
    {"NullSite", makeSite(nullptr, nullptr, nullptr, 0, 0), true, 0x1004, 16, 0,
     "alignguard: ?: ? = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary)"},
    // A newline would split the report, ESC would reach the terminal: every
    // byte below 0x20, and 0x7f, is written as the audit table writes it.
    {"ControlBytesInNamesAreEscaped",
     makeSite("ker\nnel\x1b[31m", "argument #0 'a\tb\x7f'", "dir\r/f\x01.c", 3,
              7),
     false, 0x1004, 16, 0,
     "alignguard: ker\\x0anel\\x1b[31m: argument #0 'a\\x09b\\x7f' = 0x1004 "
     "is 4-byte aligned, not 16-byte aligned (4 bytes past a boundary) at "
     "dir\\x0d/f\\x01.c:3:7"},
    // Only control bytes: backslashes and UTF-8 are left as they are.
    {"BackslashAndUtf8AreKept",
     makeSite("ns\\f", "'\xc3\xa9t\xc3\xa9'", "C:\\k.c", 1, 0), false, 0x1004,
     16, 0,
     "alignguard: ns\\f: '\xc3\xa9t\xc3\xa9' = 0x1004 is 4-byte aligned, not "
     "16-byte aligned "
     "(4 bytes past a boundary) at C:\\k.c:1"},
    // Where the promise was written, after where it is checked; not said
    // twice when it is the same place.
    {"PromisedElsewhere",
     makePromisedSite("dot", "dot.c", 9, 3, "dot.h", 4, 10), false, 0x1004, 16,
     0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:9:3, promised at dot.h:4:10"},
    {"PromisedOnAnotherLine",
     makePromisedSite("dot", "dot.c", 9, 3, "dot.c", 3, 0), false, 0x1004, 16,
     0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:9:3, promised at dot.c:3"},
    {"PromisedWhereChecked",
     makePromisedSite("dot", "dot.c", 9, 3, "dot.c", 9, 3), false, 0x1004, 16,
     0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:9:3"},
    {"PromisedWithoutCheckLocation",
     makePromisedSite("dot", nullptr, 0, 0, "dot.h", 4, 10), false, 0x1004, 16,
     0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary), promised at dot.h:4:10"},
    {"EmptyPromiseFile", makePromisedSite("dot", "dot.c", 9, 3, "", 4, 10),
     false, 0x1004, 16, 0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:9:3"},
    {"PromiseFileEscaped",
     makePromisedSite("dot", "dot.c", 9, 3, "in\\nc\x1b.h", 4, 0), false,
     0x1004, 16, 0,
     "alignguard: dot: p = 0x1004 is 4-byte aligned, not 16-byte aligned "
     "(4 bytes past a boundary) at dot.c:9:3, promised at in\\nc\\x1b.h:4"},
    {"PromisedNotPowerOfTwo",
     makePromisedSite("dot", "dot.c", 9, 3, "dot.h", 4, 10), false, 0x30, 24, 0,
     "alignguard: dot: p = 0x30 is not null, as the alignment 24 (not a power "
     "of two) requires at dot.c:9:3, promised at dot.h:4:10"},
    // The actual alignment: the lowest set bit of `pointer - offset`.
    {"ActualAlignmentOfOneByte", makeSite("f", "p", nullptr, 0, 0), false,
     0x1001, 4096, 0,
     "alignguard: f: p = 0x1001 is 1-byte aligned, not 4096-byte aligned "
     "(1 bytes past a boundary)"},
    {"ActualAlignmentAfterOffset", makeSite("f", "p", nullptr, 0, 0), false,
     0x1030, 64, 16,
     "alignguard: f: p = 0x1030 - 16 is 32-byte aligned, not 64-byte aligned "
     "(32 bytes past a boundary)"},
    // alignguard_format_report called for an address that keeps the promise.
    {"NotMisaligned", makeSite("f", "p", nullptr, 0, 0), false, 0x1040, 64, 0,
     "alignguard: f: p = 0x1040 is 64-byte aligned (0 bytes past a boundary)"},
    {"ZeroAddressNotMisaligned", makeSite("f", "p", nullptr, 0, 0), false, 0x10,
     16, 16,
     "alignguard: f: p = 0x10 - 16 is 16-byte aligned (0 bytes past a "
     "boundary)"},
    // A descriptor of another version is said to be one, and not read.
    {"OtherVersion", otherVersion(2), false, 0x1004, 16, 0,
     "alignguard: report from a site descriptor of version 2, not 3 "
     "(pointer 0x1004)"},
    {"LaterVersion", otherVersion(4), false, 0x1004, 16, 0,
     "alignguard: report from a site descriptor of version 4, not 3 "
     "(pointer 0x1004)"},
    {"VersionZero", otherVersion(0), false, 0xdeadbeef, 0, 5,
     "alignguard: report from a site descriptor of version 0, not 3 "
     "(pointer 0xdeadbeef)"},
};

class RuntimeFormat : public ::testing::TestWithParam<FormatCase> {};

TEST_P(RuntimeFormat, ExactLine) {
  const FormatCase &C = GetParam();
  EXPECT_EQ(
      format(C.NullSite ? nullptr : C.Site, C.Pointer, C.Alignment, C.Offset),
      C.Expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, RuntimeFormat, ::testing::ValuesIn(FormatCases),
                         [](const ::testing::TestParamInfo<FormatCase> &I) {
                           return std::string(I.param.Name);
                         });

TEST(RuntimeFormatBuffer, EverySizeTruncatesAndReturnsFullLength) {
  const alignguard_site *Site = makeSite("dot", "p", "dot.c", 3, 7);
  const std::string Full = format(Site, 0x1004, 16, 0);
  for (size_t Size = 0; Size <= Full.size() + 2; ++Size) {
    SCOPED_TRACE("size " + std::to_string(Size));
    std::vector<char> Buf(Full.size() + 8, '#');
    EXPECT_EQ(alignguard_format_report(Buf.data(), Size, Site, 0x1004, 16, 0),
              Full.size());
    size_t Kept = Size == 0 ? 0 : std::min(Size - 1, Full.size());
    EXPECT_EQ(std::string(Buf.data(), Kept), Full.substr(0, Kept));
    if (Size > 0) {
      EXPECT_EQ(Buf[Kept], '\0');
    }
    for (size_t I = Size; I < Buf.size(); ++I)
      ASSERT_EQ(Buf[I], '#') << "byte " << I << " written past the buffer";
  }
}

/// Formats Site's report for 0x1001 at alignment 8 into 1024 bytes: the
/// result is Full's length, the text Full cut to 1023 characters, and nothing
/// is written past the 1024 bytes.
void expectCutTo1023(const alignguard_site *Site, const std::string &Full) {
  char Buf[1024 + 64];
  std::memset(Buf, '#', sizeof Buf);
  EXPECT_EQ(alignguard_format_report(Buf, 1024, Site, 0x1001, 8, 0),
            Full.size());
  EXPECT_EQ(std::string(Buf), Full.substr(0, 1023));
  for (size_t I = 1024; I < sizeof Buf; ++I)
    ASSERT_EQ(Buf[I], '#') << "byte " << I << " written past the buffer";
}

TEST(RuntimeFormatBuffer, LongSubjectIsCutWithoutOverflow) {
  const std::string Subject(2000, 's');
  const alignguard_site *Site = makeSite("f", Subject.c_str(), "a.c", 1, 2);
  expectCutTo1023(
      Site,
      "alignguard: f: " + Subject +
          " = 0x1001 is 1-byte aligned, not 8-byte aligned (1 bytes past a "
          "boundary) at a.c:1:2");
}

// Each control byte takes four characters: counted in the full length, and
// cut like any other text.
TEST(RuntimeFormatBuffer, EscapesCountInTheFullLengthAndAreCut) {
  const std::string Name(600, '\x1b');
  const alignguard_site *Site = makeSite(Name.c_str(), "p", nullptr, 0, 0);
  std::string Escaped;
  for (size_t I = 0; I < Name.size(); ++I)
    Escaped += "\\x1b";
  expectCutTo1023(
      Site,
      "alignguard: " + Escaped +
          ": p = 0x1001 is 1-byte aligned, not 8-byte aligned (1 bytes past "
          "a boundary)");
}

TEST(RuntimeFormatBuffer, SizeZeroWritesNothing) {
  const alignguard_site *Site = makeSite("f", "p", nullptr, 0, 0);
  const size_t Full =
      std::strlen("alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte "
                  "aligned (1 bytes past a boundary)");
  EXPECT_EQ(alignguard_format_report(nullptr, 0, Site, 0x1001, 8, 0), Full);
  char Byte = '#';
  EXPECT_EQ(alignguard_format_report(&Byte, 0, Site, 0x1001, 8, 0), Full);
  EXPECT_EQ(Byte, '#');
}

TEST(RuntimeFormatBuffer, SizeOneWritesOnlyTheTerminator) {
  const alignguard_site *Site = makeSite("f", "p", nullptr, 0, 0);
  char Buf[2] = {'#', '#'};
  EXPECT_EQ(
      alignguard_format_report(Buf, 1, Site, 0x1001, 8, 0),
      std::strlen(
          "alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte aligned (1 "
          "bytes past a boundary)"));
  EXPECT_EQ(Buf[0], '\0');
  EXPECT_EQ(Buf[1], '#');
}

//===-- Handlers and deduplication ----------------------------------------===//

void handlerA(const alignguard_report_info *, void *) {}
void handlerB(const alignguard_report_info *, void *) {}

TEST(RuntimeHandler, SetHandlerReturnsThePreviousOne) {
  // No reports here, so this runs in-process.
  alignguard_handler Before = alignguard_set_handler(handlerA, nullptr);
  EXPECT_EQ(Before, nullptr);
  EXPECT_EQ(alignguard_set_handler(handlerB, nullptr), &handlerA);
  EXPECT_EQ(alignguard_set_handler(nullptr, nullptr), &handlerB);
  EXPECT_EQ(alignguard_set_handler(nullptr, nullptr), nullptr);
}

const alignguard_site *OnceSites[1] = {makeSite("dot", "p", "dot.c", 3, 7)};

TEST(RuntimeHandler, SameSiteTwiceCallsHandlerOnceCountsTwice) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    uint64_t Before = alignguard_violation_count();
    __alignguard_report(OnceSites[0], 0x1004, 16, 0);
    __alignguard_report(OnceSites[0], 0x2008, 16, 0);
    say("calls=" + std::to_string(R.Calls.load()) +
        " counted=" + std::to_string(alignguard_violation_count() - Before));
    say(R.Last);
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly("calls=1 counted=2\n"
              "pointer=0x1004 alignment=16 offset=0 misalignment=4 "
              "fatal=0 fallback=0 actual=4 promised=(none):0:0 "
              "message=alignguard: dot: p = 0x1004 is 4-byte aligned, not "
              "16-byte aligned (4 bytes past a boundary) at "
              "dot.c:3:7\n"));
}

const alignguard_site *TwoSites[2] = {makeSite("f", "p", nullptr, 0, 0),
                                      makeSite("g", "q", nullptr, 0, 0)};

TEST(RuntimeHandler, TwoSitesCallHandlerTwice) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    uint64_t Before = alignguard_violation_count();
    __alignguard_report(TwoSites[0], 0x1001, 8, 0);
    __alignguard_report(TwoSites[1], 0x1000, 64, -4);
    __alignguard_report(TwoSites[0], 0x1001, 8, 0);
    say("calls=" + std::to_string(R.Calls.load()) +
        " counted=" + std::to_string(alignguard_violation_count() - Before));
    say(R.Last);
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly("calls=2 counted=3\n"
              "pointer=0x1000 alignment=64 offset=-4 misalignment=4 "
              "fatal=0 fallback=0 actual=4 promised=(none):0:0 "
              "message=alignguard: g: q = 0x1000 + 4 is 4-byte aligned, not "
              "64-byte aligned (4 bytes past a boundary)\n"));
}

const alignguard_site *NotPow2Site[1] = {makeSite("f", "p", nullptr, 0, 0)};

TEST(RuntimeHandler, MisalignmentIsZeroWithoutPowerOfTwo) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    __alignguard_report(NotPow2Site[0], 0x33, 12, 1);
    say(R.Last);
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("pointer=0x33 alignment=12 offset=1 misalignment=0 "
                      "fatal=0 fallback=0 actual=1 promised=(none):0:0 "
                      "message=alignguard: f: p = 0x33 is not null, "
                      "as the alignment 12 (not a power of two) requires\n"));
}

// A site that says where its promise was made, and one that does not.
const alignguard_site *PromiseSites[2] = {
    makePromisedSite("k", "k.c", 9, 3, "k.h", 4, 10),
    makeSite("f", "p", "f.c", 1, 2)};

TEST(RuntimeHandler, InfoSaysActualAlignmentAndWhereThePromiseWasMade) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    __alignguard_report(PromiseSites[0], 0x1018, 64, 0);
    say(R.Last);
    __alignguard_report(PromiseSites[1], 0x1002, 8, 0);
    say(R.Last);
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly("pointer=0x1018 alignment=64 offset=0 misalignment=24 "
              "fatal=0 fallback=0 actual=8 promised=k.h:4:10 "
              "message=alignguard: k: p = 0x1018 is 8-byte aligned, not "
              "64-byte aligned (24 bytes past a boundary) at k.c:9:3, "
              "promised at k.h:4:10\n"
              "pointer=0x1002 alignment=8 offset=0 misalignment=2 "
              "fatal=0 fallback=0 actual=2 promised=(none):0:0 "
              "message=alignguard: f: p = 0x1002 is 2-byte aligned, not "
              "8-byte aligned (2 bytes past a boundary) at f.c:1:2\n"));
}

const alignguard_site *RestoreSites[2] = {makeSite("f", "p", nullptr, 0, 0),
                                          makeSite("g", "q", "g.c", 9, 0)};

TEST(RuntimeHandler, RemovingTheHandlerRestoresTheDefaultLine) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(sayHandler, nullptr);
    __alignguard_report(RestoreSites[0], 0x1001, 2, 0);
    alignguard_set_handler(nullptr, nullptr);
    __alignguard_report(RestoreSites[1], 0x1001, 4, 0);
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly(
          "handler: fatal=0 alignguard: f: p = 0x1001 is 1-byte aligned, not "
          "2-byte aligned (1 bytes past a boundary)\n"
          "alignguard: g: q = 0x1001 is 1-byte aligned, not 4-byte aligned (1 "
          "bytes past a boundary) at g.c:9\n"));
}

const alignguard_site *ThrowSite[1] = {makeSite("f", "p", nullptr, 0, 0)};

TEST(RuntimeHandler, HandlerMayThrowThroughTheHook) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(
        [](const alignguard_report_info *Info, void *) {
          throw std::runtime_error(Info->message);
        },
        nullptr);
    try {
      __alignguard_report(ThrowSite[0], 0x1001, 2, 0);
      say("not thrown");
    } catch (const std::runtime_error &E) {
      say(std::string("caught: ") + E.what());
    }
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly("caught: alignguard: f: p = 0x1001 is 1-byte aligned, not 2-byte "
              "aligned (1 bytes past a boundary)\n"));
}

TEST(RuntimeDefault, NullSiteIsReportedOnce) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(nullptr, 0x1001, 2, 0);
    __alignguard_report(nullptr, 0x1003, 4, 0);
    say("counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly(
          "alignguard: ?: ? = 0x1001 is 1-byte aligned, not 2-byte aligned (1 "
          "bytes past a boundary)\n"
          "counted=2\n"));
}

const alignguard_site *ControlSite[1] = {makeSite(
    "k\nernel\x1b]0;pwned\x07", "argument #0 '\x1b[2Jp'", "k\n.c", 4, 2)};
const char ControlLine[] =
    "alignguard: k\\x0aernel\\x1b]0;pwned\\x07: argument #0 '\\x1b[2Jp' = "
    "0x1001 is 1-byte aligned, not 8-byte aligned (1 bytes past a boundary) at "
    "k\\x0a.c:4:2";

TEST(RuntimeDefault, ControlBytesInNamesLeaveOneLine) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(ControlSite[0], 0x1001, 8, 0);
    say(std::string("last: ") + alignguard_last_error());
    alignguard_set_handler(sayHandler, nullptr);
    __alignguard_report_abort(ControlSite[0], 0x1001, 8, 0);
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::KilledBySignal(SIGABRT),
              exactly(std::string(ControlLine) + "\nlast: " + ControlLine +
                      "\nhandler: fatal=1 " + ControlLine + "\n"));
}

const alignguard_site *ManySites[300];

TEST(RuntimeDedup, TableOverflowReportsOnly256Sites) {
  freshProcess();
  auto Body = [] {
    for (const alignguard_site *&S : ManySites)
      S = makeSite("f", "p", nullptr, 0, 0);
    Recorder R;
    alignguard_set_handler(record, &R);
    for (int Round = 0; Round < 2; ++Round)
      for (const alignguard_site *&S : ManySites)
        __alignguard_report(S, 0x1001, 16, 0);
    say("calls=" + std::to_string(R.Calls.load()) +
        " counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("alignguard: too many distinct failing sites; further "
                      "new sites are counted, not reported\n"
                      "calls=256 counted=600\n"));
}

const alignguard_site *ThreadSites[64];

struct PerSite {
  std::atomic<int> Calls[64] = {};
  std::atomic<int> Total{0};
};

TEST(RuntimeDedup, EightThreadsReportEachOf64SitesOnce) {
  freshProcess();
  auto Body = [] {
    for (const alignguard_site *&S : ThreadSites)
      S = makeSite("f", "p", nullptr, 0, 0);
    static PerSite Seen;
    alignguard_set_handler(
        [](const alignguard_report_info *Info, void *User) {
          auto *P = static_cast<PerSite *>(User);
          P->Calls[std::find(ThreadSites, ThreadSites + 64,
                             Info->site->descriptor) -
                   ThreadSites]
              .fetch_add(1);
          P->Total.fetch_add(1);
        },
        &Seen);
    uint64_t Before = alignguard_violation_count();
    std::atomic<bool> Go{false};
    std::vector<std::thread> Threads;
    for (int T = 0; T < 8; ++T)
      Threads.emplace_back([&Go] {
        while (!Go.load())
          std::this_thread::yield();
        // All threads walk the sites in step, so first claims collide.
        for (int I = 0; I < 10000; ++I)
          __alignguard_report(ThreadSites[I % 64], 0x1001, 16, 0);
      });
    Go.store(true);
    for (std::thread &Th : Threads)
      Th.join();
    int Once = 0;
    for (const std::atomic<int> &C : Seen.Calls)
      Once += C.load() == 1;
    say("calls=" + std::to_string(Seen.Total.load()) +
        " sites seen once=" + std::to_string(Once) +
        " counted=" + std::to_string(alignguard_violation_count() - Before));
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("calls=64 sites seen once=64 counted=80000\n"));
}

const alignguard_site *RaceSites[256];

TEST(RuntimeDedup, EightThreadsRaceForEveryFirstClaim) {
  freshProcess();
  auto Body = [] {
    for (const alignguard_site *&S : RaceSites)
      S = makeSite("f", "p", nullptr, 0, 0);
    static std::atomic<int> Calls{0};
    alignguard_set_handler(
        [](const alignguard_report_info *, void *) { Calls.fetch_add(1); },
        nullptr);
    // A barrier before each site: all eight threads make that site's first
    // report together, so a claim that is not one atomic step shows up.
    std::atomic<int> Arrived{0};
    std::vector<std::thread> Threads;
    for (int T = 0; T < 8; ++T)
      Threads.emplace_back([&Arrived] {
        for (int K = 0; K < 256; ++K) {
          Arrived.fetch_add(1);
          // Spin, then yield: a machine with fewer cores than threads must
          // still make progress.
          for (int Spin = 0; Arrived.load() < 8 * (K + 1); ++Spin)
            if (Spin > 1000)
              std::this_thread::yield();
          __alignguard_report(RaceSites[K], 0x1001, 16, 0);
        }
      });
    for (std::thread &Th : Threads)
      Th.join();
    say("calls=" + std::to_string(Calls.load()) +
        " counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("calls=256 counted=2048\n"));
}

//===-- The table hooks (a place of 2 to 4 pointers) ----------------------===//

/// A place's table: out (64), in (32, offset 16), w (16), in check order.
sites::Fields tableSite(const char *Subject, uint64_t Alignment,
                        int64_t Offset) {
  sites::Fields F = siteFields("k", Subject, "k.c", 4, 2);
  F.Alignment = Alignment;
  F.Offset = Offset;
  return F;
}
const alignguard_site *const PlaceTable = sites::block(
    {tableSite("out", 64, 0), tableSite("in", 32, 16), tableSite("w", 16, 0)});

TEST(RuntimeTable, ReportsTheFirstMisalignedPointerWithItsDescriptor) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    // out aligned; in 8 bytes past (in - 16) % 32; w misaligned too: in.
    __alignguard_report_first(0x1000, 0x2018, 0x3004, 0, PlaceTable, 3);
    say(R.Last);
    // All three misaligned: out, the first.
    __alignguard_report_first(0x1020, 0x2018, 0x3004, 0, PlaceTable, 3);
    say(R.Last);
    // in again: deduplicated by its element's address.
    __alignguard_report_first(0x1000, 0x2000, 0x3000, 0, PlaceTable, 3);
    say("calls=" + std::to_string(R.Calls.load()) +
        " counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly("pointer=0x2018 alignment=32 offset=16 misalignment=8 "
              "fatal=0 fallback=0 actual=8 promised=(none):0:0 "
              "message=alignguard: k: in = 0x2018 - 16 is 8-byte aligned, "
              "not 32-byte aligned (8 bytes past a boundary) at k.c:4:2\n"
              "pointer=0x1020 alignment=64 offset=0 misalignment=32 "
              "fatal=0 fallback=0 actual=32 promised=(none):0:0 "
              "message=alignguard: k: out = 0x1020 is 32-byte aligned, not "
              "64-byte aligned (32 bytes past a boundary) at k.c:4:2\n"
              "calls=2 counted=3\n"));
}

TEST(RuntimeTable, NoneMisalignedReportsTheLast) {
  // The place's branch said one fails; the runtime trusts it for the last
  // of `count` (2 here: w, past the count, is not looked at).
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    __alignguard_report_first(0x1000, 0x2010, 0x3004, 0, PlaceTable, 2);
    say(R.Last);
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("pointer=0x2010 alignment=32 offset=16 misalignment=0 "
                      "fatal=0 fallback=0 actual=32 promised=(none):0:0 "
                      "message=alignguard: k: in = 0x2010 - 16 is 32-byte "
                      "aligned (0 bytes past a boundary) at k.c:4:2\n"));
}

TEST(RuntimeTable, AbortReportsTheFirstAndAborts) {
  freshProcess();
  EXPECT_EXIT(inChild(nullptr,
                      [] {
                        __alignguard_report_first_abort(0x1000, 0x2010, 0x3008,
                                                        0, PlaceTable, 3);
                      }),
              ::testing::KilledBySignal(SIGABRT),
              exactly("alignguard: k: w = 0x3008 is 8-byte aligned, not "
                      "16-byte aligned (8 bytes past a boundary) at "
                      "k.c:4:2\n"));
}

TEST(RuntimeTable, FallbackCountsAndReportsTheFirst) {
  freshProcess();
  auto Body = [] {
    __alignguard_fallback_first(0x1004, 0x2000, 0x3000, 0, PlaceTable, 3);
    say("fallbacks=" + std::to_string(alignguard_fallback_count()) +
        " violations=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(inChild("report_fallback=1", Body), ::testing::ExitedWithCode(0),
              exactly("alignguard: k: out = 0x1004 is 4-byte aligned, not "
                      "64-byte aligned (4 bytes past a boundary) at k.c:4:2; "
                      "running the unaligned fallback\n"
                      "fallbacks=1 violations=0\n"));
}

/// The same place, w's promise written at k.c:1.
const alignguard_site *makePromisedPlace() {
  sites::Fields W = tableSite("w", 16, 0);
  W.PromiseFile = "k.c";
  W.PromiseLine = 1;
  return sites::block({tableSite("out", 64, 0), tableSite("in", 32, 16), W});
}
const alignguard_site *const PromisedPlace = makePromisedPlace();

/// What a handler sees of the site: its fields with pointers, and the
/// descriptor itself (which element of PromisedPlace).
void recordSite(const alignguard_report_info *Info, void *User) {
  record(Info, User);
  auto *R = static_cast<Recorder *>(User);
  const alignguard_site_view *S = Info->site;
  std::ptrdiff_t Bytes = reinterpret_cast<const char *>(S->descriptor) -
                         reinterpret_cast<const char *>(PromisedPlace);
  R->Last += " | element " + std::to_string(Bytes / 56) +
             (Bytes % 56 ? " (not at a descriptor)" : "");
  R->Last += std::string(" | site: version=") + std::to_string(S->version) +
             " kind=" + std::to_string(S->kind) + " " + S->function + " " +
             S->subject + " " + (S->file ? S->file : "(null)") + ":" +
             std::to_string(S->line) + ":" + std::to_string(S->column) +
             " alignment=" + std::to_string(S->alignment) +
             " offset=" + std::to_string(S->offset) +
             " promised=" + (S->promise_file ? S->promise_file : "(null)") +
             ":" + std::to_string(S->promise_line);
}

/// What recordSite records for PromisedPlace's second element, in, at
/// 0x2018.
const std::string PromisedInReport =
    "pointer=0x2018 alignment=32 offset=16 misalignment=8 "
    "fatal=0 fallback=0 actual=8 promised=(none):0:0 "
    "message=alignguard: k: in = 0x2018 - 16 is 8-byte aligned, "
    "not 32-byte aligned (8 bytes past a boundary) at k.c:4:2"
    " | element 1 | site: version=3 kind=2 k in k.c:4:2 alignment=32 "
    "offset=16 promised=(null):0\n";

TEST(RuntimeTable, HandlerSeesTheFirstMisalignedWithItsStrings) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(recordSite, &R);
    // out aligned; in 8 bytes past (in - 16) % 32; w misaligned too: in.
    __alignguard_report_first(0x1000, 0x2018, 0x3004, 0, PromisedPlace, 3);
    say(R.Last);
    // Only w: its promise is elsewhere.
    __alignguard_report_first(0x1000, 0x2010, 0x3004, 0, PromisedPlace, 3);
    say(R.Last);
    // in again: deduplicated by its element's address.
    __alignguard_report_first(0x1000, 0x2038, 0x3000, 0, PromisedPlace, 3);
    say("calls=" + std::to_string(R.Calls.load()) +
        " counted=" + std::to_string(alignguard_violation_count()) +
        " last=" + alignguard_last_error());
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly(PromisedInReport +
              "pointer=0x3004 alignment=16 offset=0 misalignment=4 "
              "fatal=0 fallback=0 actual=4 promised=k.c:1:0 "
              "message=alignguard: k: w = 0x3004 is 4-byte aligned, not "
              "16-byte aligned (4 bytes past a boundary) at k.c:4:2, "
              "promised at k.c:1"
              " | element 2 | site: version=3 kind=2 k w k.c:4:2 alignment=16 "
              "offset=0 promised=k.c:1\n"
              "calls=2 counted=3 last=alignguard: k: in = 0x2038 - 16 is "
              "8-byte aligned, not 32-byte aligned (8 bytes past a "
              "boundary) at k.c:4:2\n"));
}

TEST(RuntimeTable, HandlerSeesTheFallbackWithTheFirstElement) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(recordSite, &R);
    __alignguard_fallback_first(0x1004, 0x2018, 0x3004, 0, PromisedPlace, 3);
    say(R.Last);
    say("fallbacks=" + std::to_string(alignguard_fallback_count()) +
        " violations=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(
      inChild("report_fallback=1", Body), ::testing::ExitedWithCode(0),
      exactly("pointer=0x1004 alignment=64 offset=0 misalignment=4 "
              "fatal=0 fallback=1 actual=4 promised=(none):0:0 "
              "message=alignguard: k: out = 0x1004 is 4-byte aligned, not "
              "64-byte aligned (4 bytes past a boundary) at k.c:4:2; "
              "running the unaligned fallback | element 0 | site: version=3 "
              "kind=2 k out k.c:4:2 alignment=64 offset=0 promised=(null):0\n"
              "fallbacks=1 violations=0\n"));
}

TEST(RuntimeTable, AbortsWithTheFirstOfAPromisedPlace) {
  freshProcess();
  EXPECT_EXIT(inChild(nullptr,
                      [] {
                        __alignguard_report_first_abort(0x1040, 0x2018, 0x3008,
                                                        0, PromisedPlace, 3);
                      }),
              ::testing::KilledBySignal(SIGABRT),
              exactly("alignguard: k: in = 0x2018 - 16 is 8-byte aligned, "
                      "not 32-byte aligned (8 bytes past a boundary) at "
                      "k.c:4:2\n"));
}

TEST(RuntimeTable, TableOfAnotherVersionIsSaidToBeOne) {
  // Nothing of it is read but its first descriptor's version.
  freshProcess();
  auto Body = [] {
    sites::Fields Old = tableSite("out", 64, 0);
    Old.Version = 2;
    __alignguard_report_first(0x1000, 0x2018, 0, 0, sites::block({Old, Old}),
                              2);
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("alignguard: report from a site descriptor of version "
                      "2, not 3 (pointer 0x1000)\n"));
}

//===-- The abort hook ----------------------------------------------------===//

const alignguard_site *AbortSite[1] = {
    makeSite("kernel", "argument #0 'dst'", "k.c", 12, 5)};

TEST(RuntimeAbort, WritesTheExactLineAndAborts) {
  freshProcess();
  EXPECT_EXIT(
      inChild(nullptr,
              [] { __alignguard_report_abort(AbortSite[0], 0x1008, 32, 0); }),
      ::testing::KilledBySignal(SIGABRT),
      exactly("alignguard: kernel: argument #0 'dst' = 0x1008 is 8-byte "
              "aligned, not "
              "32-byte aligned (8 bytes past a boundary) at "
              "k.c:12:5\n"));
}

TEST(RuntimeAbort, DoesNotDeduplicate) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(AbortSite[0], 0x1008, 32, 0);
    __alignguard_report(AbortSite[0], 0x1008, 32, 0);
    __alignguard_report_abort(AbortSite[0], 0x1010, 32, 0);
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::KilledBySignal(SIGABRT),
              exactly("alignguard: kernel: argument #0 'dst' = 0x1008 is "
                      "8-byte aligned, not "
                      "32-byte aligned (8 bytes past a boundary) at "
                      "k.c:12:5\n"
                      "alignguard: kernel: argument #0 'dst' = 0x1010 is "
                      "16-byte aligned, not "
                      "32-byte aligned (16 bytes past a boundary) at "
                      "k.c:12:5\n"));
}

TEST(RuntimeAbort, HandlerRunsInsteadOfTheLineThenAborts) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(
        [](const alignguard_report_info *Info, void *) {
          sayHandler(Info, nullptr);
          say("counted=" + std::to_string(alignguard_violation_count()));
        },
        nullptr);
    __alignguard_report_abort(AbortSite[0], 0x1001, 2, 0);
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::KilledBySignal(SIGABRT),
              exactly("handler: fatal=1 alignguard: kernel: argument #0 "
                      "'dst' = 0x1001 is 1-byte aligned, not 2-byte aligned (1 "
                      "bytes past a "
                      "boundary) at k.c:12:5\n"
                      "counted=1\n"));
}

//===-- ALIGNGUARD_OPTIONS ------------------------------------------------===//

const alignguard_site *OptionSites[3] = {makeSite("f", "p", "f.c", 1, 2),
                                         makeSite("g", "q", nullptr, 0, 0),
                                         makeSite("h", "r", nullptr, 0, 0)};

const char LineF[] =
    "alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte aligned (1 "
    "bytes past a boundary) at f.c:1:2";
const char LineG[] =
    "alignguard: g: q = 0x1020 - 1 is 1-byte aligned, not 64-byte aligned "
    "(31 bytes past a boundary)";

/// A log file path that the parent and the re-executed child agree on: the
/// parent makes it and hands it down in the environment.
std::string sharedTempPath(const char *Var) {
  if (const char *Inherited = getenv(Var))
    return Inherited;
  char Template[] = "/tmp/alignguard-rt-test-XXXXXX";
  int FD = mkstemp(Template);
  EXPECT_GE(FD, 0) << std::strerror(errno);
  close(FD);
  setenv(Var, Template, 1);
  return Template;
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

TEST(RuntimeOptions, LogPathAppendsReportsToTheFile) {
  freshProcess();
  const std::string Path = sharedTempPath("ALIGNGUARD_RT_TEST_LOG");
  const std::string Options = "log_path=" + Path;
  auto Body = [&] {
    std::ofstream(Path, std::ios::trunc) << "earlier line\n";
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
    __alignguard_report(OptionSites[1], 0x1020, 64, 1);
  };
  // Nothing on stderr: a runtime that ignored log_path would print there.
  EXPECT_EXIT(inChild(Options.c_str(), Body), ::testing::ExitedWithCode(0),
              exactly(""));
  EXPECT_EQ(slurp(Path),
            "earlier line\n" + std::string(LineF) + "\n" + LineG + "\n");
  unlink(Path.c_str());
  unsetenv("ALIGNGUARD_RT_TEST_LOG");
}

TEST(RuntimeOptions, LogPathStderrIsStderr) {
  freshProcess();
  EXPECT_EXIT(
      inChild("log_path=stderr",
              [] { __alignguard_report(OptionSites[0], 0x1001, 8, 0); }),
      ::testing::ExitedWithCode(0), exactly(std::string(LineF) + "\n"));
}

TEST(RuntimeOptions, UnopenableLogPathFallsBackToStderr) {
  freshProcess();
  auto Body = [] {
    // The failed open() sets errno; the program must not see that.
    errno = EDOM;
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
    say("errno kept: " + std::to_string(errno == EDOM));
    __alignguard_report(OptionSites[1], 0x1020, 64, 1);
  };
  EXPECT_EXIT(inChild("log_path=/nonexistent-alignguard-dir/r.log", Body),
              ::testing::ExitedWithCode(0),
              exactly("alignguard: cannot open log_path "
                      "'/nonexistent-alignguard-dir/r.log' (ENOENT); reporting "
                      "to stderr\n" +
                      std::string(LineF) + "\nerrno kept: 1\n" + LineG + "\n"));
}

TEST(RuntimeOptions, QuietSuppressesTheLineButCounts) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
    // Options are read once: turning quiet off now changes nothing.
    setenv("ALIGNGUARD_OPTIONS", "quiet=0", 1);
    __alignguard_report(OptionSites[1], 0x1020, 64, 1);
    __alignguard_report(OptionSites[1], 0x1020, 64, 1);
    say("counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(inChild("quiet=1", Body), ::testing::ExitedWithCode(0),
              exactly("counted=3\n"));
}

TEST(RuntimeOptions, QuietAbortIsSilentButAborts) {
  freshProcess();
  EXPECT_EXIT(
      inChild("quiet=1",
              [] { __alignguard_report_abort(OptionSites[0], 0x1001, 8, 0); }),
      ::testing::KilledBySignal(SIGABRT), exactly(""));
}

TEST(RuntimeOptions, QuietDoesNotSilenceTheHandler) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(sayHandler, nullptr);
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
  };
  EXPECT_EXIT(inChild("quiet=1", Body), ::testing::ExitedWithCode(0),
              exactly("handler: fatal=0 " + std::string(LineF) + "\n"));
}

TEST(RuntimeOptions, UnknownKeyIsReportedOnceAndIgnored) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
    __alignguard_report(OptionSites[1], 0x1020, 64, 1);
  };
  EXPECT_EXIT(inChild("verbosity=3::log_path=stderr:", Body),
              ::testing::ExitedWithCode(0),
              exactly("alignguard: unknown ALIGNGUARD_OPTIONS key "
                      "'verbosity'\n" +
                      std::string(LineF) + "\n" + LineG + "\n"));
}

TEST(RuntimeOptions, BadReportFallbackValueIsReportedAndIgnored) {
  freshProcess();
  auto Body = [] {
    __alignguard_fallback(OptionSites[0], 0x1001, 8, 0);
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
  };
  EXPECT_EXIT(inChild("report_fallback=yes", Body),
              ::testing::ExitedWithCode(0),
              exactly("alignguard: invalid ALIGNGUARD_OPTIONS value "
                      "'report_fallback=yes' (expected 0 or 1)\n" +
                      std::string(LineF) + "\n"));
}

/// In a fresh process with Options, one report at OptionSites[0]: stderr
/// must be exactly the line Complaint, then the report.
void expectComplaintThenReport(const char *Options,
                               const std::string &Complaint) {
  freshProcess();
  EXPECT_EXIT(
      inChild(Options,
              [] { __alignguard_report(OptionSites[0], 0x1001, 8, 0); }),
      ::testing::ExitedWithCode(0), exactly(Complaint + "\n" + LineF + "\n"));
}

TEST(RuntimeOptions, BadQuietValueIsReportedAndIgnored) {
  expectComplaintThenReport("quiet=yes",
                            "alignguard: invalid ALIGNGUARD_OPTIONS value "
                            "'quiet=yes' (expected 0 or 1)");
}

// Text from the environment is escaped as names from the IR are: a key
// holding a newline or ESC still gives one plain line.
TEST(RuntimeOptions, ControlBytesInAnUnknownKeyAreEscaped) {
  expectComplaintThenReport("ver\nbo\x1b[2Jse=1:log_path=stderr",
                            "alignguard: unknown ALIGNGUARD_OPTIONS key "
                            "'ver\\x0abo\\x1b[2Jse'");
}

TEST(RuntimeOptions, ControlBytesInABadValueAreEscaped) {
  expectComplaintThenReport("quiet=\r\x07\x7f",
                            "alignguard: invalid ALIGNGUARD_OPTIONS value "
                            "'quiet=\\x0d\\x07\\x7f' (expected 0 or 1)");
}

TEST(RuntimeOptions, ControlBytesInAnUnopenableLogPathAreEscaped) {
  expectComplaintThenReport("log_path=/nonexistent-alignguard-dir/a\nb\x1b",
                            "alignguard: cannot open log_path "
                            "'/nonexistent-alignguard-dir/a\\x0ab\\x1b' "
                            "(ENOENT); reporting to stderr");
}

/// /dev/full opens, and every write to it fails with ENOSPC.
bool haveDevFull() { return access("/dev/full", W_OK) == 0; }
const std::string CannotWrite = "alignguard: cannot write to log_path "
                                "'/dev/full' (ENOSPC); reporting to stderr\n";

TEST(RuntimeOptions, UnwritableLogPathFallsBackToStderr) {
  if (!haveDevFull())
    GTEST_SKIP() << "no writable /dev/full to make write(2) fail";
  freshProcess();
  auto Body = [] {
    __alignguard_report(OptionSites[0], 0x1001, 8, 0);
    __alignguard_report(OptionSites[1], 0x1020, 64, 1);
  };
  // One line says why, once; no report is lost.
  EXPECT_EXIT(inChild("log_path=/dev/full", Body), ::testing::ExitedWithCode(0),
              exactly(CannotWrite + LineF + "\n" + LineG + "\n"));
}

TEST(RuntimeOptions, UnwritableLogPathStillShowsTheFatalReport) {
  if (!haveDevFull())
    GTEST_SKIP() << "no writable /dev/full to make write(2) fail";
  freshProcess();
  EXPECT_EXIT(
      inChild("log_path=/dev/full",
              [] { __alignguard_report_abort(OptionSites[0], 0x1001, 8, 0); }),
      ::testing::KilledBySignal(SIGABRT), exactly(CannotWrite + LineF + "\n"));
}

const alignguard_site *FullLogSites[8];

/// Matches whole lines in any order: the reason once, each thread's report
/// once, nothing else (a torn or doubled line fails).
class OneWhyEightReports
    : public ::testing::MatcherInterface<const std::string &> {
public:
  bool MatchAndExplain(const std::string &Err,
                       ::testing::MatchResultListener *) const override {
    const std::string Why = CannotWrite.substr(0, CannotWrite.size() - 1);
    const std::string Report =
        "alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte "
        "aligned (1 bytes past a boundary)";
    std::istringstream In(Err);
    int Whys = 0, Reports = 0, Others = 0;
    for (std::string Line; std::getline(In, Line);)
      ++(Line == Why ? Whys : Line == Report ? Reports : Others);
    return !Err.empty() && Err.back() == '\n' && Whys == 1 && Reports == 8 &&
           Others == 0;
  }
  void DescribeTo(std::ostream *OS) const override {
    *OS << "one 'cannot write to log_path' line and 8 report lines";
  }
};

TEST(RuntimeOptions, UnwritableLogPathSaysWhyOnceFromEightThreads) {
  if (!haveDevFull())
    GTEST_SKIP() << "no writable /dev/full to make write(2) fail";
  freshProcess();
  auto Body = [] {
    for (const alignguard_site *&S : FullLogSites)
      S = makeSite("f", "p", nullptr, 0, 0);
    std::atomic<bool> Go{false};
    std::vector<std::thread> Threads;
    for (const alignguard_site *&S : FullLogSites)
      Threads.emplace_back([&Go, &S] {
        while (!Go.load())
          std::this_thread::yield();
        __alignguard_report(S, 0x1001, 8, 0);
      });
    Go.store(true);
    for (std::thread &Th : Threads)
      Th.join();
  };
  EXPECT_EXIT(inChild("log_path=/dev/full", Body), ::testing::ExitedWithCode(0),
              ::testing::MakeMatcher(new OneWhyEightReports));
}

//===-- The per-thread last error -----------------------------------------===//

/// Waits until Counter reaches Target: a barrier for a handful of threads
/// that still makes progress on a machine with fewer cores than threads.
void waitFor(const std::atomic<int> &Counter, int Target) {
  for (int Spin = 0; Counter.load() < Target; ++Spin)
    if (Spin > 1000)
      std::this_thread::yield();
}

TEST(RuntimeLastError, EmptyOnANewThread) {
  // No report: in-process.
  std::string Seen = "unset";
  std::thread([&Seen] { Seen = alignguard_last_error(); }).join();
  EXPECT_EQ(Seen, "");
}

const alignguard_site *LastSites[2] = {makeSite("f", "p", "f.c", 1, 2),
                                       makeSite("g", "q", nullptr, 0, 0)};

TEST(RuntimeLastError, EveryViolationEvenDeduplicatedOrQuiet) {
  freshProcess();
  auto Body = [] {
    say("[" + std::string(alignguard_last_error()) + "]");
    __alignguard_report(LastSites[0], 0x1001, 8, 0);
    say(alignguard_last_error());
    // Deduplicated: not reported again, but it is the last error now.
    __alignguard_report(LastSites[0], 0x2002, 8, 0);
    say(alignguard_last_error());
    __alignguard_report(LastSites[1], 0x1020, 64, 1);
    say(alignguard_last_error());
    alignguard_clear_last_error();
    say("[" + std::string(alignguard_last_error()) + "]");
    __alignguard_report(LastSites[1], 0x1041, 64, 0);
    say(alignguard_last_error());
  };
  EXPECT_EXIT(
      inChild("quiet=1", Body), ::testing::ExitedWithCode(0),
      exactly(
          "[]\n"
          "alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte aligned (1 "
          "bytes past a boundary) at f.c:1:2\n"
          "alignguard: f: p = 0x2002 is 2-byte aligned, not 8-byte aligned (2 "
          "bytes past a boundary) at f.c:1:2\n"
          "alignguard: g: q = 0x1020 - 1 is 1-byte aligned, not 64-byte "
          "aligned "
          "(31 bytes past a boundary)\n"
          "[]\n"
          "alignguard: g: q = 0x1041 is 1-byte aligned, not 64-byte aligned (1 "
          "bytes past a boundary)\n"));
}

TEST(RuntimeLastError, HandlerAlreadySeesItsOwnReport) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(
        [](const alignguard_report_info *Info, void *) {
          say(std::string("same=") +
              std::to_string(
                  std::strcmp(Info->message, alignguard_last_error()) == 0) +
              " " + alignguard_last_error());
        },
        nullptr);
    __alignguard_report(LastSites[1], 0x1001, 2, 0);
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::ExitedWithCode(0),
      exactly("same=1 alignguard: g: q = 0x1001 is 1-byte aligned, not 2-byte "
              "aligned (1 bytes past a boundary)\n"));
}

const alignguard_site *LastAbortSite[1] = {
    makeSite("kernel", "argument #0 'dst'", "k.c", 12, 5)};

TEST(RuntimeLastError, AbortRecordsItBeforeTheHandlerAndAbort) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(LastSites[0], 0x1001, 8, 0);
    alignguard_set_handler(
        [](const alignguard_report_info *, void *) {
          say(std::string("last: ") + alignguard_last_error());
        },
        nullptr);
    __alignguard_report_abort(LastAbortSite[0], 0x1008, 32, 0);
  };
  EXPECT_EXIT(
      inChild(nullptr, Body), ::testing::KilledBySignal(SIGABRT),
      exactly(
          "alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte aligned (1 "
          "bytes past a boundary) at f.c:1:2\n"
          "last: alignguard: kernel: argument #0 'dst' = 0x1008 "
          "is 8-byte aligned, not 32-byte aligned (8 bytes past a boundary) at "
          "k.c:12:5\n"));
}

TEST(RuntimeLastError, EachThreadSeesItsOwn) {
  freshProcess();
  auto Body = [] {
    // A reports, then B, then both read; then A clears, and B still has its
    // own. One shared buffer would show B's line to A.
    std::atomic<int> Reported{0}, Read{0}, Cleared{0};
    std::string SeenA, SeenB, AfterClearA, AfterClearB;
    std::thread A([&] {
      __alignguard_report(LastSites[0], 0x1001, 8, 0);
      Reported.fetch_add(1);
      waitFor(Reported, 2);
      SeenA = alignguard_last_error();
      Read.fetch_add(1);
      waitFor(Read, 2);
      alignguard_clear_last_error();
      AfterClearA = alignguard_last_error();
      Cleared.store(1);
    });
    std::thread B([&] {
      waitFor(Reported, 1);
      __alignguard_report(LastSites[1], 0x1020, 64, 1);
      Reported.fetch_add(1);
      SeenB = alignguard_last_error();
      Read.fetch_add(1);
      waitFor(Cleared, 1);
      AfterClearB = alignguard_last_error();
    });
    A.join();
    B.join();
    say("A: " + SeenA);
    say("B: " + SeenB);
    say("A after clear: [" + AfterClearA + "]");
    say("B after A cleared: " + AfterClearB);
    say("main: [" + std::string(alignguard_last_error()) + "]");
  };
  EXPECT_EXIT(
      inChild("quiet=1", Body), ::testing::ExitedWithCode(0),
      exactly("A: alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte "
              "aligned (1 "
              "bytes past a boundary) at f.c:1:2\n"
              "B: alignguard: g: q = 0x1020 - 1 is 1-byte aligned, not 64-byte "
              "aligned (31 bytes past a boundary)\n"
              "A after clear: []\n"
              "B after A cleared: alignguard: g: q = 0x1020 - 1 is 1-byte "
              "aligned, not 64-byte aligned (31 bytes past a boundary)\n"
              "main: []\n"));
}

TEST(RuntimeLastError, EightThreadsNeverSeeAnotherThreadsLine) {
  freshProcess();
  auto Body = [] {
    static const alignguard_site *Site = makeSite("f", "p", nullptr, 0, 0);
    std::atomic<int> Wrong{0};
    std::vector<std::thread> Threads;
    for (int T = 0; T < 8; ++T)
      Threads.emplace_back([T, &Wrong] {
        // Thread T's pointers are T+1 bytes past a 16-byte boundary.
        for (int I = 0; I < 2000; ++I) {
          uint64_t P = 0x10000 + 16 * static_cast<uint64_t>(I) + T + 1;
          __alignguard_report(Site, P, 16, 0);
          if (format(Site, P, 16, 0) != alignguard_last_error())
            Wrong.fetch_add(1);
        }
      });
    for (std::thread &Th : Threads)
      Th.join();
    say("wrong=" + std::to_string(Wrong.load()) +
        " counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(inChild("quiet=1", Body), ::testing::ExitedWithCode(0),
              exactly("wrong=0 counted=16000\n"));
}

TEST(RuntimeLastError, LongLineIsCutTo1023Characters) {
  freshProcess();
  auto Body = [] {
    static const std::string Subject(2000, 's');
    static const alignguard_site *Site =
        makeSite("f", Subject.c_str(), "a.c", 1, 2);
    __alignguard_report(Site, 0x1001, 8, 0);
    const std::string Full =
        "alignguard: f: " + Subject +
        " = 0x1001 is 1-byte aligned, not 8-byte aligned (1 bytes past "
        "a boundary) at a.c:1:2";
    say("length=" + std::to_string(std::strlen(alignguard_last_error())) +
        " prefix=" +
        std::to_string(Full.compare(0, 1023, alignguard_last_error()) == 0));
  };
  EXPECT_EXIT(inChild("quiet=1", Body), ::testing::ExitedWithCode(0),
              exactly("length=1023 prefix=1\n"));
}

//===-- The fallback hook -------------------------------------------------===//

const alignguard_site *FallbackSites[2] = {makeSite("f", "p", "f.c", 1, 2),
                                           makeSite("g", "q", nullptr, 0, 0)};

const char FallbackLineF[] =
    "alignguard: f: p = 0x1001 is 1-byte aligned, not 8-byte "
    "aligned (1 bytes past a boundary) at f.c:1:2";
const char FallbackLineG[] =
    "alignguard: g: q = 0x1020 - 1 is 1-byte aligned, not 64-byte "
    "aligned (31 bytes past a boundary)";
const char Suffix[] = "; running the unaligned fallback";

std::string counts() {
  return "fallbacks=" + std::to_string(alignguard_fallback_count()) +
         " violations=" + std::to_string(alignguard_violation_count());
}

TEST(RuntimeFallback, CountedSilentlyAndNotAViolationByDefault) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[1], 0x1020, 64, 1);
    say(counts() + " handler calls=" + std::to_string(R.Calls.load()));
    say(std::string("last: ") + alignguard_last_error());
    // A violation is still a violation, and leaves the fallbacks alone.
    __alignguard_report(FallbackSites[0], 0x1001, 8, 0);
    say(counts() + " handler calls=" + std::to_string(R.Calls.load()));
  };
  EXPECT_EXIT(inChild(nullptr, Body), ::testing::ExitedWithCode(0),
              exactly("fallbacks=3 violations=0 handler calls=0\n"
                      "last: " +
                      std::string(FallbackLineG) +
                      "\n"
                      "fallbacks=3 violations=1 handler calls=1\n"));
}

TEST(RuntimeFallback, ReportFallbackPrintsTheFirstAtEachSite) {
  freshProcess();
  auto Body = [] {
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[0], 0x1003, 8, 0);
    __alignguard_fallback(FallbackSites[1], 0x1020, 64, 1);
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    say(counts());
    // The last error is the plain line: no suffix.
    say(std::string("last: ") + alignguard_last_error());
  };
  EXPECT_EXIT(inChild("report_fallback=1", Body), ::testing::ExitedWithCode(0),
              exactly(std::string(FallbackLineF) + Suffix + "\n" +
                      FallbackLineG + Suffix +
                      "\n"
                      "fallbacks=4 violations=0\n"
                      "last: " +
                      FallbackLineF + "\n"));
}

TEST(RuntimeFallback, KeepsErrnoWhenTheLogCannotBeOpened) {
  freshProcess();
  auto Body = [] {
    // The failed open() of the log sets errno; the program must not see it.
    errno = EDOM;
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    say("errno kept: " + std::to_string(errno == EDOM));
  };
  EXPECT_EXIT(
      inChild("report_fallback=1:log_path=/nonexistent-alignguard-dir/r.log",
              Body),
      ::testing::ExitedWithCode(0),
      exactly("alignguard: cannot open log_path "
              "'/nonexistent-alignguard-dir/r.log' (ENOENT); reporting to "
              "stderr\n" +
              std::string(FallbackLineF) + Suffix + "\nerrno kept: 1\n"));
}

TEST(RuntimeErrno, KeptWhenTheWriteFails) {
  if (!haveDevFull())
    GTEST_SKIP() << "no writable /dev/full to make write(2) fail";
  freshProcess();
  auto Body = [] {
    errno = EDOM;
    __alignguard_report(FallbackSites[0], 0x1001, 8, 0);
    say("errno kept after a report: " + std::to_string(errno == EDOM));
    __alignguard_fallback(FallbackSites[1], 0x1020, 64, 1);
    say("errno kept after a fallback: " + std::to_string(errno == EDOM));
  };
  EXPECT_EXIT(inChild("report_fallback=1:log_path=/dev/full", Body),
              ::testing::ExitedWithCode(0),
              exactly(CannotWrite + FallbackLineF +
                      "\nerrno kept after a report: 1\n" + FallbackLineG +
                      Suffix + "\nerrno kept after a fallback: 1\n"));
}

/// Says whether the handler sees the errno the program had (EDOM), though
/// the runtime's own open() of the log just failed.
void sayErrnoInHandler(const alignguard_report_info *Info, void *) {
  say("handler sees the program's errno: " + std::to_string(errno == EDOM) +
      " fallback=" + std::to_string(Info->fallback));
}

const char CannotOpen[] = "alignguard: cannot open log_path "
                          "'/nonexistent-alignguard-dir/r.log' (ENOENT); "
                          "reporting to stderr\n";

TEST(RuntimeErrno, HandlerSeesTheProgramsErrnoOnAViolation) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(sayErrnoInHandler, nullptr);
    errno = EDOM;
    __alignguard_report(FallbackSites[0], 0x1001, 8, 0);
  };
  EXPECT_EXIT(inChild("log_path=/nonexistent-alignguard-dir/r.log", Body),
              ::testing::ExitedWithCode(0),
              exactly(std::string(CannotOpen) +
                      "handler sees the program's errno: 1 fallback=0\n"));
}

TEST(RuntimeErrno, HandlerSeesTheProgramsErrnoOnAFallback) {
  freshProcess();
  auto Body = [] {
    alignguard_set_handler(sayErrnoInHandler, nullptr);
    errno = EDOM;
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
  };
  EXPECT_EXIT(
      inChild("report_fallback=1:log_path=/nonexistent-alignguard-dir/r.log",
              Body),
      ::testing::ExitedWithCode(0),
      exactly(std::string(CannotOpen) +
              "handler sees the program's errno: 1 fallback=1\n"));
}

TEST(RuntimeFallback, ReportFallbackZeroIsTheDefault) {
  freshProcess();
  auto Body = [] {
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    say(counts());
  };
  EXPECT_EXIT(inChild("report_fallback=1:report_fallback=0", Body),
              ::testing::ExitedWithCode(0),
              exactly("fallbacks=1 violations=0\n"));
}

TEST(RuntimeFallback, TablesOfViolationsAndFallbacksAreSeparate) {
  freshProcess();
  auto Body = [] {
    __alignguard_report(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_report(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[1], 0x1020, 64, 1);
    __alignguard_report(FallbackSites[1], 0x1020, 64, 1);
    say(counts());
  };
  EXPECT_EXIT(inChild("report_fallback=1", Body), ::testing::ExitedWithCode(0),
              exactly(std::string(FallbackLineF) + "\n" + FallbackLineF +
                      Suffix + "\n" + FallbackLineG + Suffix + "\n" +
                      FallbackLineG +
                      "\n"
                      "fallbacks=3 violations=3\n"));
}

TEST(RuntimeFallback, HandlerGetsFallbackOneAndTheSuffixedLine) {
  freshProcess();
  auto Body = [] {
    Recorder R;
    alignguard_set_handler(record, &R);
    __alignguard_fallback(FallbackSites[1], 0x1020, 64, 1);
    __alignguard_fallback(FallbackSites[1], 0x1020, 64, 1);
    say("calls=" + std::to_string(R.Calls.load()));
    say(R.Last);
  };
  // quiet=1 silences the default output, never a handler.
  EXPECT_EXIT(inChild("report_fallback=1:quiet=1", Body),
              ::testing::ExitedWithCode(0),
              exactly("calls=1\n"
                      "pointer=0x1020 alignment=64 offset=1 misalignment=31 "
                      "fatal=0 fallback=1 actual=1 promised=(none):0:0 "
                      "message=" +
                      std::string(FallbackLineG) + Suffix + "\n"));
}

TEST(RuntimeFallback, QuietSilencesTheLine) {
  freshProcess();
  auto Body = [] {
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    say(counts());
  };
  EXPECT_EXIT(inChild("quiet=1:report_fallback=1", Body),
              ::testing::ExitedWithCode(0),
              exactly("fallbacks=1 violations=0\n"));
}

TEST(RuntimeFallback, GoesToLogPath) {
  freshProcess();
  const std::string Path = sharedTempPath("ALIGNGUARD_RT_TEST_FALLBACK_LOG");
  const std::string Options = "report_fallback=1:log_path=" + Path;
  auto Body = [] {
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
    __alignguard_fallback(FallbackSites[0], 0x1001, 8, 0);
  };
  EXPECT_EXIT(inChild(Options.c_str(), Body), ::testing::ExitedWithCode(0),
              exactly(""));
  EXPECT_EQ(slurp(Path), std::string(FallbackLineF) + Suffix + "\n");
  unlink(Path.c_str());
  unsetenv("ALIGNGUARD_RT_TEST_FALLBACK_LOG");
}

const alignguard_site *ManyFallbackSites[300];

TEST(RuntimeFallback, TableOverflowReportsOnly256Sites) {
  freshProcess();
  auto Body = [] {
    for (const alignguard_site *&S : ManyFallbackSites)
      S = makeSite("f", "p", nullptr, 0, 0);
    Recorder R;
    alignguard_set_handler(record, &R);
    for (int Round = 0; Round < 2; ++Round)
      for (const alignguard_site *&S : ManyFallbackSites)
        __alignguard_fallback(S, 0x1001, 16, 0);
    // The violation table is untouched: this one is still reported.
    __alignguard_report(ManyFallbackSites[299], 0x1001, 16, 0);
    say("calls=" + std::to_string(R.Calls.load()) + " " + counts());
  };
  EXPECT_EXIT(inChild("report_fallback=1", Body), ::testing::ExitedWithCode(0),
              exactly("alignguard: too many distinct sites running the "
                      "unaligned fallback; further new sites are counted, "
                      "not reported\n"
                      "calls=257 fallbacks=600 violations=1\n"));
}

const alignguard_site *FallbackThreadSites[64];

TEST(RuntimeFallback, EightThreadsReportEachOf64SitesOnce) {
  freshProcess();
  auto Body = [] {
    for (const alignguard_site *&S : FallbackThreadSites)
      S = makeSite("f", "p", nullptr, 0, 0);
    static PerSite Seen;
    alignguard_set_handler(
        [](const alignguard_report_info *Info, void *User) {
          auto *P = static_cast<PerSite *>(User);
          P->Calls[std::find(FallbackThreadSites, FallbackThreadSites + 64,
                             Info->site->descriptor) -
                   FallbackThreadSites]
              .fetch_add(1);
          P->Total.fetch_add(Info->fallback);
        },
        &Seen);
    std::atomic<int> Ready{0};
    std::vector<std::thread> Threads;
    for (int T = 0; T < 8; ++T)
      Threads.emplace_back([&Ready] {
        Ready.fetch_add(1);
        waitFor(Ready, 8);
        for (int I = 0; I < 10000; ++I)
          __alignguard_fallback(FallbackThreadSites[I % 64], 0x1001, 16, 0);
      });
    for (std::thread &Th : Threads)
      Th.join();
    int Once = 0;
    for (const std::atomic<int> &C : Seen.Calls)
      Once += C.load() == 1;
    say("fallback calls=" + std::to_string(Seen.Total.load()) +
        " sites seen once=" + std::to_string(Once) + " " + counts());
  };
  EXPECT_EXIT(inChild("report_fallback=1", Body), ::testing::ExitedWithCode(0),
              exactly("fallback calls=64 sites seen once=64 fallbacks=80000 "
                      "violations=0\n"));
}

} // namespace
