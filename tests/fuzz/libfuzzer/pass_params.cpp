// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- tests/fuzz/libfuzzer/pass_params.cpp - Fuzz the pass parameters ----===//
//
// libFuzzer target for the parameter text of `align-guard<...>` and
// `align-guard-audit<...>` (plugin/Options.cpp): any bytes either parse or
// give an Error, never crash; and what parses prints back (Options.h) to
// text that parses to equal options, as the unit tests check for known
// strings. A difference aborts with both texts on stderr.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace llvm;

namespace {

[[noreturn]] void failRoundTrip(StringRef Pass, StringRef Input,
                                StringRef Printed, StringRef Why) {
  errs() << Pass << ": '" << Input << "' printed as '" << Printed
         << "': " << Why << "\n";
  abort();
}

template <typename PrintFn, typename OptsT>
std::string printed(PrintFn Print, const OptsT &Opts) {
  std::string Text;
  raw_string_ostream OS(Text);
  Print(OS, Opts);
  OS.flush();
  return Text;
}

/// Parses Input with Parse; when it parses, prints it with Print and checks
/// that the printed text parses to equal options (and prints the same).
template <typename ParseFn, typename PrintFn>
void roundTrip(StringRef Pass, StringRef Input, ParseFn Parse, PrintFn Print) {
  auto Opts = Parse(Input);
  if (!Opts) {
    consumeError(Opts.takeError());
    return;
  }
  std::string Printed = printed(Print, *Opts);
  auto Again = Parse(Printed);
  if (!Again)
    failRoundTrip(Pass, Input, Printed, toString(Again.takeError()));
  if (*Again != *Opts)
    failRoundTrip(Pass, Input, Printed, "parses to other options");
  std::string PrintedAgain = printed(Print, *Again);
  if (PrintedAgain != Printed)
    failRoundTrip(Pass, Input, Printed,
                  "prints as '" + PrintedAgain + "' next");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Input(reinterpret_cast<const char *>(Data), Size);
  roundTrip("align-guard", Input, alignguard::parseAlignGuardOptions,
            alignguard::printAlignGuardOptions);
  roundTrip("align-guard-audit", Input, alignguard::parseAuditOptions,
            alignguard::printAuditOptions);
  return 0;
}
