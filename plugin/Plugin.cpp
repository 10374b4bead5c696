//===- Plugin.cpp - Registers AlignGuard's passes with the PassBuilder ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place where AlignGuard meets LLVM's pass manager:
//   - `align-guard<...>` in any -passes= pipeline (opt);
//   - at the pipeline-start extension point, at every -O level including
//     -O0, the pipeline in -alignguard-pipeline=TEXT (a plugin cl::opt:
//     `clang -mllvm`, `opt` on 15+), else in $ALIGNGUARD_PIPELINE, else
//     `align-guard`, so `clang -fpass-plugin=AlignGuard.so` instruments
//     before anything can use or drop an assumption. The command line wins
//     over the environment. Clang parses -mllvm after loading -fpass-plugin
//     plugins from LLVM 22 on; before 22 only after loading -fplugin ones, so
//     there the same file is also given as -fplugin=AlignGuard.so (loaded
//     once, it registers the option; it registers no frontend plugin). The
//     wrappers (scripts/alignguard-clang) and alignguard_instrument() write
//     the right flags for their plugin's major.
//   - at the scalar-optimizer-late extension point, the end of the
//     function simplification pipeline that the inliner's call graph walk
//     runs on each function once it has inlined into it, before the
//     function is inlined into its callers, every
//     align-guard of that pipeline as `align-guard-inlined-accesses`
//     (InlinedAccessesPass.h): with `accesses` it checks the accesses the
//     inliner brought into an entry point, so copies inlined into callers
//     in the same file carry the check; without, it warns about them.
//   - after the inliners (Compat.h, registerAfterInliningEPCallback),
//     every `align-guard<accesses>` of that pipeline once more as
//     `align-guard<...;accesses-only>`: the aligned accesses of always-inline
//     wrappers (_mm256_load_ps, Highway's Load, xsimd's load_aligned) reach
//     the entry points only then. What pipeline start checked is guarded
//     there and gets no second check.
//     These runs are deferred (`align-guard<deferred>`, DeferredPlaces.h):
//     abort, trap and recover places get one marker call each, which the
//     optimiser carries at almost no cost.
//   - at the optimizer-last extension point, `align-guard-expand`
//     (DeferredPlaces.h): each marker becomes its branch; then
//     `align-guard-cold-exits` (ColdExitsPass.h): the failing sides that
//     leave the function do so by a tail call, so that the aligned path sets
//     up no frame for them; then `align-guard-outline-body`
//     (OutlineBodyPass.h): a function whose entry is only a check gets its
//     body in a function of its own, compiled as the unchecked one.
//
//   opt -load-pass-plugin=AlignGuard.so -passes='align-guard<recover>' in.ll
//   ALIGNGUARD_PIPELINE='align-guard<trap>' clang -O2 -fpass-plugin=... k.c
//   clang-22 -O2 -fpass-plugin=P -mllvm -alignguard-pipeline='...'
//   clang-14 -O2 -fplugin=P -fpass-plugin=P -mllvm -alignguard-pipeline='...'
//
//===----------------------------------------------------------------------===//
#include "AlignGuardAuditPass.h"
#include "AlignGuardPass.h"
#include "ColdExitsPass.h"
#include "Compat.h"
#include "Diagnostics.h"
#include "ExpandPass.h"
#include "InlinedAccessesPass.h"
#include "Options.h"
#include "OutlineBodyPass.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include ALIGNGUARD_PASS_PLUGIN_H

#include <cstdlib>

using namespace llvm;
using namespace alignguard;

/// Which LLVM this plugin is for, kept in the file for the wrappers and the
/// driver to read (they check it against the clang or opt they run).
extern "C" LLVM_ATTRIBUTE_USED const char AlignGuardLLVMMajorTag[] =
    ALIGNGUARD_LLVM_MAJOR_TAG;

namespace {

/// The pipeline on the command line. Seen by `opt` 15+ and by `clang -mllvm`
/// (before LLVM 22 with -fplugin=AlignGuard.so; opt 14 parses its options
/// before it loads the plugin).
cl::opt<std::string>
    PipelineOpt("alignguard-pipeline",
                cl::desc("AlignGuard's pipeline at pipeline start (wins over "
                         "$ALIGNGUARD_PIPELINE); empty: none"),
                cl::value_desc("pipeline"));

/// Stands in for a pass whose parameters or pipeline text were bad: it fails
/// the run with one error diagnostic (opt and clang print it and exit
/// non-zero) instead of killing the host process from inside the parser.
/// It prints as the text it stands in for, which parses back to itself.
class ReportErrorPass : public PassInfoMixin<ReportErrorPass> {
public:
  ReportErrorPass(StringRef Text, std::string Message)
      : Text(Text.str()), Message(std::move(Message)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    diagnose(M.getContext(), Message, DS_Error);
    return PreservedAnalyses::all();
  }
  /// In a function pipeline: once, at the first function.
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    if (!Reported)
      diagnose(F.getContext(), Message, DS_Error);
    Reported = true;
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
  void printPipeline(raw_ostream &OS,
                     function_ref<StringRef(StringRef)> /*MapClassName*/) {
    OS << Text;
  }

private:
  std::string Text;
  std::string Message;
  bool Reported = false;
};

/// Adds PassT built from the parsed parameters of Text (the pipeline's
/// element), or the error in their place.
template <typename PassT, typename PassManagerT, typename OptionsT>
void addPass(PassManagerT &PM, StringRef Text, Expected<OptionsT> Opts) {
  if (!Opts)
    PM.addPass(ReportErrorPass(Text, toString(Opts.takeError())));
  else
    PM.addPass(PassT(std::move(*Opts)));
}

/// True while the configured pipeline (-alignguard-pipeline or
/// $ALIGNGUARD_PIPELINE) is parsed. A text that itself builds a default
/// pipeline would call back into the extension points forever: they do
/// nothing then.
thread_local bool ParsingEnv = false;

/// An `align-guard<accesses>` of the configured pipeline runs again after the
/// inliners, for the accesses only; one that is accesses-only already runs
/// once, as written.
bool runsAfterInlining(const AlignGuardOptions &Opts) {
  return Opts.Accesses && !Opts.AccessesOnly;
}

/// The configured pipeline's align-guard runs deferred: their places get a
/// marker, expanded at the optimizer-last extension point
/// (DeferredPlaces.h), so the optimiser works on one call per place.
Expected<AlignGuardOptions>
deferredWhileParsingEnv(Expected<AlignGuardOptions> Opts) {
  if (Opts && ParsingEnv)
    Opts->Deferred = true;
  return Opts;
}

/// What a build of Guard adds to the inliner's pipeline, as the audit's copy
/// of the module runs it (InlinedCopy.h): its accesses, checked as each
/// function is simplified, reporting nothing (the audit lists them).
void addBuildExtensions(PassBuilder &PB, const AlignGuardOptions &Guard) {
  if (!Guard.Accesses || Guard.AccessesOnly)
    return;
  AlignGuardOptions Opts = Guard;
  Opts.Deferred = true;
  PB.registerScalarOptimizerLateEPCallback(
      [Opts](FunctionPassManager &FPM, auto /*OptimizationLevel*/) {
        FPM.addPass(InlinedAccessesPass(Opts, /*Report=*/false));
      });
}

bool parseModulePass(StringRef Name, ModulePassManager &MPM) {
  StringRef Params;
  if (matchPassName(Name, "align-guard", Params)) {
    addPass<AlignGuardPass>(
        MPM, Name, deferredWhileParsingEnv(parseAlignGuardOptions(Params)));
    return true;
  }
  if (Name == "align-guard-cold-exits") {
    MPM.addPass(ColdExitsPass());
    return true;
  }
  if (Name == "align-guard-outline-body") {
    MPM.addPass(OutlineBodyPass());
    return true;
  }
  if (Name == "align-guard-expand") {
    MPM.addPass(ExpandPass());
    return true;
  }
  if (matchPassName(Name, "align-guard-audit", Params)) {
    Expected<AuditOptions> Opts = parseAuditOptions(Params);
    if (!Opts) {
      MPM.addPass(ReportErrorPass(Name, toString(Opts.takeError())));
      return true;
    }
    AlignGuardOptions Guard = Opts->Guard;
    MPM.addPass(AlignGuardAuditPass(std::move(*Opts), [Guard](PassBuilder &PB) {
      addBuildExtensions(PB, Guard);
    }));
    return true;
  }
  return false;
}

bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM) {
  StringRef Params;
  if (!matchPassName(Name, "align-guard-inlined-accesses", Params))
    return false;
  addPass<InlinedAccessesPass>(FPM, Name, parseAlignGuardOptions(Params));
  return true;
}

constexpr const char *PipelineEnvVar = "ALIGNGUARD_PIPELINE";
constexpr const char *DefaultPipeline = "align-guard";

/// The pipeline to run and where it came from: -alignguard-pipeline when
/// given (the command line wins), else $ALIGNGUARD_PIPELINE, else the default.
std::pair<std::string, std::string> configuredPipeline() {
  if (PipelineOpt.getNumOccurrences())
    return {PipelineOpt, "-alignguard-pipeline"};
  const char *Env = std::getenv(PipelineEnvVar);
  return {Env ? Env : DefaultPipeline, PipelineEnvVar};
}

/// At pipeline start: the configured pipeline.
void addAtPipelineStart(PassBuilder &PB, ModulePassManager &MPM) {
  auto [Text, Source] = configuredPipeline();
  if (ParsingEnv || Text.empty())
    return; // ALIGNGUARD_PIPELINE= (set, empty) turns the hooks off
  ParsingEnv = true;
  Error Err = PB.parsePassPipeline(MPM, Text);
  ParsingEnv = false;
  if (Err)
    MPM.addPass(ReportErrorPass(Text, Source + "='" + Text +
                                          "': " + toString(std::move(Err))));
}

/// Every `align-guard` of Text, in order, deferred. Text is read as
/// PassBuilder reads a pipeline, a pass name between each ',', '(' and ')',
/// but not parsed by it: its parser calls parseModulePass once more to ask
/// whether a name is a module pass, and the rest of the text has run at
/// pipeline start (which reported any error in it).
std::vector<AlignGuardOptions> guardParts(StringRef Text) {
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
    Opts->Deferred = true;
    Parts.push_back(std::move(*Opts));
  }
  return Parts;
}

/// The `align-guard<accesses>` passes of Text, in order, made accesses-only.
std::vector<AlignGuardOptions> accessParts(StringRef Text) {
  std::vector<AlignGuardOptions> Parts = guardParts(Text);
  llvm::erase_if(Parts, [](const AlignGuardOptions &Opts) {
    return !runsAfterInlining(Opts);
  });
  for (AlignGuardOptions &Opts : Parts)
    Opts.AccessesOnly = true;
  return Parts;
}

/// Once the inliner has run on a function and simplified it, before its
/// callers: every `align-guard` of the configured pipeline as
/// align-guard-inlined-accesses.
void addInlinedAccesses(FunctionPassManager &FPM) {
  if (ParsingEnv)
    return;
  for (AlignGuardOptions &Opts : guardParts(configuredPipeline().first))
    if (!Opts.AccessesOnly)
      FPM.addPass(InlinedAccessesPass(std::move(Opts)));
}

/// After the inliners: the `align-guard<accesses>` passes of the configured
/// pipeline, for the accesses only.
void addAfterInlining(ModulePassManager &MPM) {
  std::string Text = configuredPipeline().first;
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

  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseFunctionPass(Name, FPM);
      });

  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        addAtPipelineStart(PB, MPM);
      });
  PB.registerScalarOptimizerLateEPCallback(
      [](FunctionPassManager &FPM, auto /*OptimizationLevel*/) {
        addInlinedAccesses(FPM);
      });
  compat::registerAfterInliningEPCallback(
      PB, [](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        addAfterInlining(MPM);
      });
  // Last (registered after the accesses-only run, which LLVM 14 also
  // adds at optimizer-last): the deferred places become their branches
  // (DeferredPlaces.h), then the failing sides' calls become tail calls
  // (ColdExitsPass.h), then the bodies behind an entry's check go into
  // functions of their own (OutlineBodyPass.h). The callback's parameters
  // differ between LLVM majors.
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, auto &&...) {
    if (ParsingEnv)
      return;
    MPM.addPass(ExpandPass());
    MPM.addPass(ColdExitsPass());
    MPM.addPass(OutlineBodyPass());
  });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AlignGuard", ALIGNGUARD_VERSION,
          registerCallbacks};
}
