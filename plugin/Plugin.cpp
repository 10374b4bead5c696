//===- Plugin.cpp - Registers AlignGuard's passes with the PassBuilder ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place where AlignGuard meets LLVM's pass manager:
//   - `align-guard<...>` in any -passes= pipeline (opt);
//   - at the pipeline-start extension point, at every -O level including
//     -O0, the pipeline in $ALIGNGUARD_PIPELINE (default `align-guard`), so
//     `clang -fpass-plugin=AlignGuard.so` instruments before anything can
//     use or drop an assumption. Plugin cl::opts do not reach plugins from
//     clang before LLVM 22; the environment variable works on every version.
//   - after the inliners (Compat.h, registerAfterInliningEPCallback),
//     every `align-guard<accesses>` of that pipeline once more as
//     `align-guard<...;accesses-only>`: the aligned accesses of always-inline
//     wrappers (_mm256_load_ps, Highway's Load, xsimd's load_aligned) reach
//     the entry points only then. What pipeline start checked is guarded
//     there and gets no second check.
//
//   opt -load-pass-plugin=AlignGuard.so -passes='align-guard<recover>' in.ll
//   ALIGNGUARD_PIPELINE='align-guard<trap>' clang -O2 -fpass-plugin=... k.c
//
//===----------------------------------------------------------------------===//
#include "AlignGuardAuditPass.h"
#include "AlignGuardPass.h"
#include "Compat.h"
#include "Diagnostics.h"
#include "Options.h"

#include "llvm/Passes/PassBuilder.h"
#include ALIGNGUARD_PASS_PLUGIN_H

#include <cstdlib>

using namespace llvm;
using namespace alignguard;

namespace {

/// Stands in for a pass whose parameters or pipeline text were bad: it fails
/// the run with one error diagnostic (opt and clang print it and exit
/// non-zero) instead of killing the host process from inside the parser.
class ReportErrorPass : public PassInfoMixin<ReportErrorPass> {
public:
  explicit ReportErrorPass(std::string Message) : Message(std::move(Message)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    diagnose(M.getContext(), Message, DS_Error);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }

private:
  std::string Message;
};

/// Adds PassT built from the parsed parameters, or the error in their place.
template <typename PassT, typename OptionsT>
void addPass(ModulePassManager &MPM, Expected<OptionsT> Opts) {
  if (!Opts)
    MPM.addPass(ReportErrorPass(toString(Opts.takeError())));
  else
    MPM.addPass(PassT(std::move(*Opts)));
}

/// True while the text of $ALIGNGUARD_PIPELINE is parsed. A text that itself
/// builds a default pipeline would call back into the extension points forever:
/// they do nothing then.
thread_local bool ParsingEnv = false;

/// An `align-guard<accesses>` of $ALIGNGUARD_PIPELINE runs again after the
/// inliners, for the accesses only; one that is accesses-only already runs
/// once, as written.
bool runsAfterInlining(const AlignGuardOptions &Opts) {
  return Opts.Accesses && !Opts.AccessesOnly;
}

bool parseModulePass(StringRef Name, ModulePassManager &MPM) {
  StringRef Params;
  if (matchPassName(Name, "align-guard", Params)) {
    addPass<AlignGuardPass>(MPM, parseAlignGuardOptions(Params));
    return true;
  }
  if (matchPassName(Name, "align-guard-audit", Params)) {
    addPass<AlignGuardAuditPass>(MPM, parseAuditOptions(Params));
    return true;
  }
  return false;
}

constexpr const char *PipelineEnvVar = "ALIGNGUARD_PIPELINE";
constexpr const char *DefaultPipeline = "align-guard";

/// The text of $ALIGNGUARD_PIPELINE, or the default when it is unset.
std::string envPipeline() {
  const char *Env = std::getenv(PipelineEnvVar);
  return Env ? Env : DefaultPipeline;
}

/// At pipeline start: $ALIGNGUARD_PIPELINE.
void addAtPipelineStart(PassBuilder &PB, ModulePassManager &MPM) {
  std::string Text = envPipeline();
  if (ParsingEnv || Text.empty())
    return; // ALIGNGUARD_PIPELINE= (set, empty) turns the hooks off
  ParsingEnv = true;
  Error Err = PB.parsePassPipeline(MPM, Text);
  ParsingEnv = false;
  if (Err)
    MPM.addPass(ReportErrorPass(std::string(PipelineEnvVar) + "='" + Text +
                                "': " + toString(std::move(Err))));
}

/// The `align-guard<accesses>` passes of Text, in order, made accesses-only.
/// Text is read as PassBuilder reads a pipeline, a pass name between each
/// ',', '(' and ')', but not parsed by it: its parser calls parseModulePass
/// once more to ask whether a name is a module pass, and the rest of the
/// text has run at pipeline start (which reported any error in it).
std::vector<AlignGuardOptions> accessParts(StringRef Text) {
  std::vector<AlignGuardOptions> Parts;
  while (!Text.empty()) {
    size_t End = Text.find_first_of(",()");
    StringRef Name = Text.take_front(End).trim(), Params;
    Text = End == StringRef::npos ? StringRef() : Text.drop_front(End + 1);
    if (!matchPassName(Name, "align-guard", Params))
      continue;
    Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(Params);
    if (!Opts) {
      consumeError(Opts.takeError());
      continue;
    }
    if (!runsAfterInlining(*Opts))
      continue;
    Opts->AccessesOnly = true;
    Parts.push_back(std::move(*Opts));
  }
  return Parts;
}

/// After the inliners: the `align-guard<accesses>` passes of
/// $ALIGNGUARD_PIPELINE, for the accesses only.
void addAfterInlining(ModulePassManager &MPM) {
  std::string Text = envPipeline();
  if (ParsingEnv)
    return;
  for (AlignGuardOptions &Opts : accessParts(Text))
    MPM.addPass(AlignGuardPass(std::move(Opts)));
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePass(Name, MPM);
      });

  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        addAtPipelineStart(PB, MPM);
      });
  compat::registerAfterInliningEPCallback(
      PB, [](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        addAfterInlining(MPM);
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AlignGuard", ALIGNGUARD_VERSION,
          registerCallbacks};
}
