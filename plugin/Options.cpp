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
  }
  llvm_unreachable("unknown failure action");
}

static Error invalidParameter(StringRef Param, const Twine &Why) {
  return make_error<StringError>("invalid align-guard pass parameter '" +
                                     Param + "': " + Why,
                                 inconvertibleErrorCode());
}

/// Returns the action a bare word names, or false when it names none.
static bool parseActionWord(StringRef Word, FailureAction &Action) {
  for (FailureAction A :
       {FailureAction::Abort, FailureAction::Trap, FailureAction::Recover})
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
    if (parseActionWord(Param, Action)) {
      if (!ActionWord.empty() && ActionWord != Param)
        return invalidParameter(Param, "conflicts with '" + ActionWord +
                                           "'; give one failure action");
      ActionWord = Param;
      Opts.Action = Action;
      continue;
    }

    StringRef Key, Value;
    std::tie(Key, Value) = Param.split('=');
    if (Key == "entry" || Key == "exclude") {
      if (Value.empty())
        return invalidParameter(Param, "expected " + Key + "=GLOB");
      Expected<GlobPattern> Glob = GlobPattern::create(Value);
      if (!Glob)
        return invalidParameter(Param, toString(Glob.takeError()));
      (Key == "entry" ? Opts.EntryGlobs : Opts.ExcludeGlobs)
          .push_back(Value.str());
      continue;
    }
    return invalidParameter(
        Param, "expected abort, trap, recover, entry=GLOB or exclude=GLOB");
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
