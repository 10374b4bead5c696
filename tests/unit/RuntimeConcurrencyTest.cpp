//===- tests/unit/RuntimeConcurrencyTest.cpp - The runtime from many threads =//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reports come from many threads at once: kernels of a thread pool fail
// together, each thread's first report may be the process's first, so each
// may parse ALIGNGUARD_OPTIONS and open the log. These tests make threads
// meet at the runtime's racy moments (the options parse and the log's
// open, the first report at each site of both tables, the table hooks, a
// handler changed while others report) and check what came out: the log
// opened once (a loser's descriptor closed), one complaint about a bad
// option, each site's line once and whole, exact counts, and each thread's
// own last error. Built into alignguard_unit_tests, and with the runtime's
// other tests into the ThreadSanitizer build (tests/sanitize/run.sh), which
// fails on any data race among them.
//
// As in RuntimeTest.cpp, the runtime's state is per process, so each test
// runs in a fresh one (a "threadsafe" death test) that writes a summary of
// what it saw to stderr for the parent to compare.
//
//===----------------------------------------------------------------------===//

#include "SiteBlocks.h"

#include "alignguard/alignguard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

constexpr int Threads = 8;

/// The child's summary line, in one write(2).
void tell(const std::string &S) {
  std::string Line = S + "\n";
  ssize_t W = write(2, Line.data(), Line.size());
  (void)W;
}

/// Runs Body in a fresh process with ALIGNGUARD_OPTIONS unset (Body sets
/// it), and exits 0 unless Body dies first.
template <typename F> [[noreturn]] void fresh(F Body) {
  unsetenv("ALIGNGUARD_OPTIONS");
  Body();
  _exit(0);
}

/// A log file of the child's own, named in ALIGNGUARD_OPTIONS with Extra
/// after it; the path is returned.
std::string logTo(const std::string &Extra) {
  char Template[] = "/tmp/alignguard-rt-concurrency-XXXXXX";
  int FD = mkstemp(Template);
  if (FD < 0) {
    tell("mkstemp failed");
    _exit(3);
  }
  close(FD);
  std::string Options = std::string("log_path=") + Template + Extra;
  setenv("ALIGNGUARD_OPTIONS", Options.c_str(), 1);
  return Template;
}

/// Text's lines, counted by text; Whole says it ends in a newline.
std::map<std::string, int> countLines(const std::string &Text, bool &Whole) {
  Whole = Text.empty() || Text.back() == '\n';
  std::map<std::string, int> Lines;
  std::istringstream Split(Text);
  for (std::string Line; std::getline(Split, Line);)
    ++Lines[Line];
  return Lines;
}

/// The log's lines, counted by text; the file is removed.
std::map<std::string, int> linesOf(const std::string &Path, bool &Whole) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  unlink(Path.c_str());
  return countLines(SS.str(), Whole);
}

int openDescriptors() {
  int N = 0;
  if (DIR *D = opendir("/proc/self/fd")) {
    while (dirent *E = readdir(D))
      N += E->d_name[0] != '.';
    closedir(D);
  }
  return N;
}

/// Starts N threads running Fn(thread index) together, and joins them.
template <typename F> void together(int N, F Fn) {
  std::atomic<int> Ready{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < N; ++T)
    Pool.emplace_back([&Ready, &Fn, N, T] {
      Ready.fetch_add(1);
      while (Ready.load() < N)
        std::this_thread::yield();
      Fn(T);
    });
  for (std::thread &Th : Pool)
    Th.join();
}

sites::Fields fieldsNamed(const char *Subject) {
  sites::Fields F;
  F.Kind = ALIGNGUARD_KIND_ASSUME_BUNDLE;
  F.Function = "pool";
  F.Subject = Subject;
  F.Alignment = 16;
  return F;
}

const alignguard_site *siteNamed(const char *Subject) {
  return sites::block({fieldsNamed(Subject)});
}

const char *const Subjects[Threads] = {"a", "b", "c", "d", "e", "f", "g", "h"};

/// One site a thread: subjects a to h.
void nameSites(const alignguard_site *(&Sites)[Threads]) {
  for (int T = 0; T < Threads; ++T)
    Sites[T] = siteNamed(Subjects[T]);
}

std::string expectedLine(const char *Subject, const char *Tail = "") {
  return std::string("alignguard: pool: ") + Subject +
         " = 0x1004 is 4-byte aligned, not 16-byte aligned (4 bytes past a "
         "boundary)" +
         Tail;
}

} // namespace

const alignguard_site *FirstSites[Threads];

TEST(RuntimeConcurrency, FirstReportsRaceToParseTheOptionsAndOpenTheLog) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto Body = [] {
    nameSites(FirstSites);
    // The log is a FIFO: opening it for writing waits for a reader, so each
    // thread's first report (the process's first: none has published the
    // options yet) parses the options and waits in open() until the reader
    // comes, 200 ms later. Then all the opens return at once and race to
    // publish theirs; every loser must close its own.
    char Dir[] = "/tmp/alignguard-rt-concurrency-XXXXXX";
    if (!mkdtemp(Dir) || mkfifo((std::string(Dir) + "/log").c_str(), 0600)) {
      tell("cannot make the FIFO");
      _exit(3);
    }
    std::string Fifo = std::string(Dir) + "/log";
    std::string Options = "log_path=" + Fifo + ":no_such_key=1";
    setenv("ALIGNGUARD_OPTIONS", Options.c_str(), 1);
    int Before = openDescriptors();
    std::string Text;
    std::thread Reader([&Fifo, &Text] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      int FD = open(Fifo.c_str(), O_RDONLY | O_CLOEXEC);
      char Buf[4096];
      ssize_t N;
      while (std::count(Text.begin(), Text.end(), '\n') < Threads &&
             (N = read(FD, Buf, sizeof Buf)) > 0)
        Text.append(Buf, size_t(N));
      close(FD);
    });
    together(Threads,
             [](int T) { __alignguard_report(FirstSites[T], 0x1004, 16, 0); });
    Reader.join();
    unlink(Fifo.c_str());
    rmdir(Dir);
    bool Whole = false;
    std::map<std::string, int> Lines = countLines(Text, Whole);
    int Once = 0;
    for (int T = 0; T < Threads; ++T)
      Once += Lines[expectedLine(Subjects[T])] == 1;
    tell("whole=" + std::to_string(Whole) + " lines=" +
         std::to_string(Lines.size()) + " each once=" + std::to_string(Once) +
         " new descriptors=" + std::to_string(openDescriptors() - Before) +
         " counted=" + std::to_string(alignguard_violation_count()));
  };
  EXPECT_EXIT(fresh(Body), ::testing::ExitedWithCode(0),
              ::testing::Eq("alignguard: unknown ALIGNGUARD_OPTIONS key "
                            "'no_such_key'\n"
                            "whole=1 lines=8 each once=8 new descriptors=1 "
                            "counted=8\n"));
}

/// One place's table of two descriptors (both 16-byte, "p0", "p1").
const alignguard_site *const MixedTable =
    sites::block({fieldsNamed("p0"), fieldsNamed("p1")});
const alignguard_site *MixedSites[Threads];

TEST(RuntimeConcurrency, ViolationsFallbacksAndTablesFromEveryThread) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto Body = [] {
    nameSites(MixedSites);
    std::string Log = logTo(":report_fallback=1");
    constexpr int Rounds = 200;
    std::atomic<int> OwnLastError{0};
    together(Threads, [&OwnLastError](int T) {
      const alignguard_site *Table = MixedTable;
      for (int R = 0; R < Rounds; ++R) {
        // Every thread walks every site, so first claims collide.
        const alignguard_site *S = MixedSites[(T + R) % Threads];
        __alignguard_report(S, 0x1004, 16, 0);
        __alignguard_fallback(S, 0x1004, 16, 0);
        __alignguard_report_first(0x1000, 0x2004, 0, 0, Table, 2);
        __alignguard_fallback_first(0x1004, 0x2000, 0, 0, Table, 2);
        // Last: a report with this thread's own address.
        __alignguard_report(S, 0x1004 + 0x100 * (uint64_t)T, 16, 0);
      }
      // The last error is this thread's, whatever the others reported.
      std::ostringstream Hex;
      Hex << " = 0x" << std::hex << (0x1004 + 0x100 * T) << " ";
      OwnLastError += std::string(alignguard_last_error()).find(Hex.str()) !=
                      std::string::npos;
    });
    bool Whole = false;
    std::map<std::string, int> Lines = linesOf(Log, Whole);
    int Once = 0;
    for (int T = 0; T < Threads; ++T)
      Once += Lines[expectedLine(Subjects[T])] == 1 &&
              Lines[expectedLine(Subjects[T],
                                 "; running the unaligned fallback")] == 1;
    Once += Lines["alignguard: pool: p1 = 0x2004 is 4-byte aligned, not "
                  "16-byte aligned (4 bytes past a boundary)"] == 1;
    Once += Lines["alignguard: pool: p0 = 0x1004 is 4-byte aligned, not "
                  "16-byte aligned (4 bytes past a boundary); running the "
                  "unaligned fallback"] == 1;
    tell("whole=" + std::to_string(Whole) + " lines=" +
         std::to_string(Lines.size()) + " each once=" + std::to_string(Once) +
         " violations=" + std::to_string(alignguard_violation_count()) +
         " fallbacks=" + std::to_string(alignguard_fallback_count()) +
         " own last error=" + std::to_string(OwnLastError.load()));
  };
  // 8 threads x 200 rounds: 3 violations and 2 fallbacks a round.
  EXPECT_EXIT(fresh(Body), ::testing::ExitedWithCode(0),
              ::testing::Eq("whole=1 lines=18 each once=10 violations=4800 "
                            "fallbacks=3200 own last error=8\n"));
}

constexpr int SwapSites = 64;
const alignguard_site *SwapSite[SwapSites];
std::atomic<int> CallsOfA{0}, CallsOfB{0}, WrongUser{0};
int UserA, UserB;

/// A handler that counts its calls in Calls, and in WrongUser those with a
/// user pointer nobody installed or without a message.
template <std::atomic<int> &Calls>
void countCalls(const alignguard_report_info *Info, void *User) {
  Calls.fetch_add(1);
  WrongUser += User != &UserA && User != &UserB && User != nullptr;
  WrongUser += Info->message == nullptr;
}

TEST(RuntimeConcurrency, HandlerChangedWhileThreadsReport) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto Body = [] {
    for (const alignguard_site *&S : SwapSite)
      S = siteNamed("s");
    std::string Log = logTo("");
    alignguard_handler A = countCalls<CallsOfA>, B = countCalls<CallsOfB>;
    // Thread 0 changes the handler (A, B, none) while the others report
    // each site once: every site reaches a handler or the log, once.
    together(Threads, [A, B](int T) {
      if (T == 0) {
        for (int I = 0; I < 300; ++I) {
          alignguard_set_handler(I % 3 == 0   ? A
                                 : I % 3 == 1 ? B
                                              : nullptr,
                                 I % 3 == 0   ? &UserA
                                 : I % 3 == 1 ? &UserB
                                              : nullptr);
          std::this_thread::yield();
        }
        return;
      }
      for (int I = T - 1; I < SwapSites; I += Threads - 1)
        __alignguard_report(SwapSite[I], 0x1004, 16, 0);
    });
    bool Whole = false;
    std::map<std::string, int> Lines = linesOf(Log, Whole);
    int Logged = Lines.empty() ? 0 : Lines.begin()->second;
    tell("whole=" + std::to_string(Whole) + " distinct lines=" +
         std::to_string(Lines.size() <= 1) + " delivered=" +
         std::to_string(CallsOfA.load() + CallsOfB.load() + Logged) +
         " wrong user=" + std::to_string(WrongUser.load()));
  };
  EXPECT_EXIT(fresh(Body), ::testing::ExitedWithCode(0),
              ::testing::Eq("whole=1 distinct lines=1 delivered=64 "
                            "wrong user=0\n"));
}
