//===- Plugin.cpp - Registers AlignGuard's passes with the PassBuilder ---===//
//
// The one place where AlignGuard meets LLVM's pass manager:
//   - `align-guard<...>` in any -passes= pipeline (opt);
//   - at the pipeline-start extension point, at every -O level including
//     -O0, the pipeline in $ALIGNGUARD_PIPELINE (default `align-guard`), so
//     `clang -fpass-plugin=AlignGuard.so` instruments before anything can
//     use or drop an assumption. Plugin cl::opts do not reach plugins from
//     clang before LLVM 22; the environment variable works on every version.
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

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePass(Name, MPM);
      });

  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        // A pipeline text that itself builds a default pipeline would call back
        // here forever; the text is parsed with the hook disarmed.
        static thread_local bool Parsing = false;
        if (Parsing)
          return;
        const char *Env = std::getenv(PipelineEnvVar);
        std::string Text = Env ? Env : DefaultPipeline;
        if (Text.empty())
          return; // ALIGNGUARD_PIPELINE= (set, empty) turns the hook off
        Parsing = true;
        Error Err = PB.parsePassPipeline(MPM, Text);
        Parsing = false;
        if (Err)
          MPM.addPass(ReportErrorPass(std::string(PipelineEnvVar) + "='" +
                                      Text + "': " + toString(std::move(Err))));
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AlignGuard", ALIGNGUARD_VERSION,
          registerCallbacks};
}
