//===- tests/fuzz/libfuzzer/ignorelist.cpp - Fuzz the ignorelist ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libFuzzer target for `ignorelist=FILE` (plugin/Suppressions.cpp): the
// input is the file (LLVM's special-case-list format, read by LLVM's
// SpecialCaseList), loaded for a small module and asked about each of its
// functions. Any bytes either load or give an "invalid ignorelist" error,
// never crash; a suppression names a `fun:` or `src:` line of the file by
// its number (`TEXT at FILE:LINE`), and that line must be one.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Suppressions.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;

namespace {

/// Functions by name, mangled and not, one opted out in its source, in a
/// module whose source file sits under a third_party directory.
const char *const ModuleText = R"(
source_filename = "/src/third_party/blur/k.c"
@text = private constant [15 x i8] c"no_align_guard\00"
@file = private constant [4 x i8] c"k.c\00"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }]
  [{ ptr, ptr, ptr, i32, ptr } { ptr @annotated, ptr @text, ptr @file,
   i32 3, ptr null }], section "llvm.metadata"
define void @main() { ret void }
define void @_ZN4blur3runEPf(ptr %p) { ret void }
define void @kernel(ptr align 16 %p) { ret void }
define void @annotated() { ret void }
)";

LLVMContext Context;
std::unique_ptr<Module> M;
std::string Path;
int FD = -1;

void fail(const Twine &Why) {
  errs() << "ignorelist fuzzer: " << Why << "\n";
  abort();
}

/// The Number-th line of Text (from 1), trimmed.
StringRef lineOf(StringRef Text, unsigned Number) {
  StringRef Line;
  for (unsigned I = 0; I != Number; ++I)
    std::tie(Line, Text) = Text.split('\n');
  return Line.trim();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  SMDiagnostic Err;
#if LLVM_VERSION_MAJOR < 15
  Context.enableOpaquePointers(); // the text uses ptr
#endif
  M = parseAssemblyString(ModuleText, Err, Context);
  if (!M) {
    Err.print("ignorelist fuzzer", errs());
    abort();
  }
  // The file lives in memory (a disk file rewritten at every run is slow).
  FD = memfd_create("ignorelist", 0);
  if (FD < 0)
    fail("memfd_create failed");
  Path = "/proc/self/fd/" + std::to_string(FD);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (ftruncate(FD, 0) != 0 ||
      pwrite(FD, Data, Size, 0) != static_cast<ssize_t>(Size))
    fail("cannot write " + Path);
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<alignguard::Suppressions> S =
      alignguard::Suppressions::load(*M, Path);
  if (!S) {
    std::string Why = toString(S.takeError());
    if (!alignguard::compat::startsWith(Why,
                                        "invalid ignorelist '" + Path + "': "))
      fail("unexpected error: " + Why);
    return 0;
  }
  for (const Function &F : *M) {
    std::optional<alignguard::Suppression> Why = S->of(F);
    if (!Why)
      continue;
    StringRef Rule = Why->Rule;
    if (Why->Kind == alignguard::Suppression::InSource) {
      if (F.getName() != "annotated" ||
          Rule != "annotate(\"no_align_guard\") at k.c:3")
        fail(F.getName() + ": in-source suppression '" + Rule + "'");
      continue;
    }
    // `TEXT at PATH:LINE`, TEXT the trimmed line LINE of the file.
    size_t At = Rule.rfind(" at " + Path + ":");
    unsigned Line = 0;
    if (At == StringRef::npos ||
        Rule.substr(At + 5 + Path.size()).getAsInteger(10, Line) || !Line)
      fail(F.getName() + ": rule '" + Rule + "' names no line");
    StringRef Entry = lineOf(Text, Line);
    if (Rule.substr(0, At) != Entry ||
        !(alignguard::compat::startsWith(Entry, "fun:") ||
          alignguard::compat::startsWith(Entry, "src:")))
      fail(F.getName() + ": rule '" + Rule + "', but line " + Twine(Line) +
           " is '" + Entry + "'");
  }
  return 0;
}
