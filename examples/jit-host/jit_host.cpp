//===- jit_host.cpp - A JIT host that instruments with AlignGuard --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What TVM, Halide's JIT and MLIR's ExecutionEngine do inside their own
// process, reduced to one file: read a kernel module, load AlignGuard.so with
// PassPlugin::Load, let it register `align-guard` with the host's
// PassBuilder, run `align-guard<ACTION>` (then, with --O2, the default -O2
// pipeline), JIT-compile the module with ORC's LLJIT and call
//   int vadd(float *out, const float *a, const float *b, int n)
// on aligned buffers, or with `a` one float past a 64-byte boundary.
//
// The host links the shared libLLVM that the plugin's undefined LLVM symbols
// resolve against (as opt does; the plugin links no LLVM of its own), and the
// AlignGuard runtime whole and with its symbols exported, so the JIT'd code
// finds __alignguard_report* through the process's own symbol table.
//
//   clang -O2 -Xclang -disable-llvm-passes -g -S -emit-llvm kernel.c -o k.ll
//   jit-host --plugin=build-14/AlignGuard.so --action=recover --O2 k.ll 1
//
// Options: --plugin=PATH | --no-plugin, --action=ACTION (default abort),
// --O2, --handler (report through alignguard_set_handler and read the
// message back with alignguard_last_error, as a host that returns error
// codes would). Arguments: the kernel (IR or bitcode) and the offset of `a`
// in floats.
//
//===----------------------------------------------------------------------===//
#include <alignguard/alignguard.h>

#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

//===- The LLVM version differences of this host, all of them -------------===//
// PassPlugin.h moved to llvm/Plugins/ in LLVM 22; LLJIT::lookup returns an
// ExecutorAddr from LLVM 15 on, a JITEvaluatedSymbol before.
#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

template <typename FnT>
static llvm::Expected<FnT *> lookupFunction(llvm::orc::LLJIT &J,
                                            llvm::StringRef Name) {
  auto Sym = J.lookup(Name);
  if (!Sym)
    return Sym.takeError();
#if LLVM_VERSION_MAJOR >= 15
  return Sym->template toPtr<FnT *>();
#else
  return llvm::jitTargetAddressToPointer<FnT *>(Sym->getAddress());
#endif
}
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace llvm;

namespace {

struct HostOptions {
  std::string Plugin; // --plugin=PATH
  bool NoPlugin = false;
  std::string Action = "abort";
  bool O2 = false;
  bool Handler = false;
  std::string Kernel;
  int Offset = 0;
};

[[noreturn]] void usage(const char *Why) {
  errs() << "jit-host: " << Why
         << "\nusage: jit-host (--plugin=AlignGuard.so | --no-plugin) "
            "[--action=ACTION] [--O2] [--handler] KERNEL.ll OFFSET\n";
  std::exit(2);
}

HostOptions parseArgs(int Argc, char **Argv) {
  HostOptions Opts;
  int Positional = 0;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (Arg.consume_front("--plugin="))
      Opts.Plugin = Arg.str();
    else if (Arg == "--no-plugin")
      Opts.NoPlugin = true;
    else if (Arg.consume_front("--action="))
      Opts.Action = Arg.str();
    else if (Arg == "--O2")
      Opts.O2 = true;
    else if (Arg == "--handler")
      Opts.Handler = true;
    else if (Arg.take_front(2) == "--")
      usage(("unknown option " + Arg).str().c_str());
    else if (Positional++ == 0)
      Opts.Kernel = Arg.str();
    else
      Opts.Offset = std::atoi(Argv[I]);
  }
  if (Positional != 2)
    usage("expected KERNEL.ll and OFFSET");
  if (Opts.NoPlugin == !Opts.Plugin.empty())
    usage("give one of --plugin=PATH and --no-plugin");
  return Opts;
}

/// Instruments M with `align-guard<ACTION>` from the plugin at Opts.Plugin
/// (nothing with --no-plugin), then runs the default -O2 pipeline with --O2.
void runPasses(Module &M, TargetMachine *TM, const HostOptions &Opts,
               ExitOnError &ExitOnErr) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM);
  // What loads AlignGuard into a host's pass pipeline: two calls.
  if (!Opts.NoPlugin) {
    PassPlugin Plugin = ExitOnErr(PassPlugin::Load(Opts.Plugin));
    Plugin.registerPassBuilderCallbacks(PB);
  }
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  if (!Opts.NoPlugin)
    ExitOnErr(PB.parsePassPipeline(MPM, "align-guard<" + Opts.Action + ">"));
  // The plugin also adds $ALIGNGUARD_PIPELINE (default `align-guard`) at the
  // start of every default pipeline, as it does under clang -fpass-plugin:
  // main() has set it empty, so the action above is the only one.
  if (Opts.O2)
    MPM.addPass(PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2));
  MPM.addPass(VerifierPass());
  MPM.run(M, MAM);
}

/// TVM style: the host takes the report instead of the default line on
/// stderr, and reads the message back with alignguard_last_error() when the
/// kernel returns its error code.
void hostHandler(const alignguard_report_info *Info, void *) {
  std::printf("host handler: a report from %s (fatal %d)\n",
              Info->site->function, Info->fatal);
}

using VAddFn = int(float *, const float *, const float *, int);

/// Calls the kernel with `a` Offset floats into an aligned array and prints
/// what it returned and computed.
int callKernel(VAddFn *VAdd, const HostOptions &Opts) {
  constexpr int N = 4096;
  auto *A = static_cast<float *>(std::aligned_alloc(64, (N + 16) * 4));
  auto *B = static_cast<float *>(std::aligned_alloc(64, N * 4));
  auto *Out = static_cast<float *>(std::aligned_alloc(64, N * 4));
  for (int I = 0; I < N + 16; ++I)
    A[I] = static_cast<float>(I);
  for (int I = 0; I < N; ++I)
    B[I] = 0.5f;
  if (Opts.Handler)
    alignguard_set_handler(hostHandler, nullptr);

  int Ret = VAdd(Out, A + Opts.Offset, B, N);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Out[I];
  if (Ret != 0)
    std::printf("vadd(a + %d) failed: returned %d: %s\n", Opts.Offset, Ret,
                alignguard_last_error());
  else
    std::printf("vadd(a + %d): returned 0, sum = %.1f, violations = %llu\n",
                Opts.Offset, Sum,
                static_cast<unsigned long long>(alignguard_violation_count()));
  std::free(A);
  std::free(B);
  std::free(Out);
  return Ret == 0 ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  ExitOnError ExitOnErr("jit-host: ");
  HostOptions Opts = parseArgs(Argc, Argv);
  // The plugin's pipeline-start hook would add $ALIGNGUARD_PIPELINE to the
  // -O2 pipeline; this host names its action explicitly. Set (empty) before
  // any thread starts.
  setenv("ALIGNGUARD_PIPELINE", "", 1);

  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  auto JTMB = ExitOnErr(orc::JITTargetMachineBuilder::detectHost());
  std::unique_ptr<TargetMachine> TM = ExitOnErr(JTMB.createTargetMachine());

  auto Ctx = std::make_unique<LLVMContext>();
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(Opts.Kernel, Diag, *Ctx);
  if (!M) {
    Diag.print("jit-host", errs());
    return 1;
  }
  M->setDataLayout(TM->createDataLayout());
  runPasses(*M, TM.get(), Opts, ExitOnErr);

  std::unique_ptr<orc::LLJIT> J = ExitOnErr(
      orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(JTMB)).create());
  // The runtime is linked into this executable and its symbols exported
  // (-rdynamic): the JIT'd code's calls to __alignguard_report* and libc
  // resolve against the process.
  J->getMainJITDylib().addGenerator(
      ExitOnErr(orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          J->getDataLayout().getGlobalPrefix())));
  ExitOnErr(J->addIRModule(orc::ThreadSafeModule(
      std::move(M), orc::ThreadSafeContext(std::move(Ctx)))));
  VAddFn *VAdd = ExitOnErr(lookupFunction<VAddFn>(*J, "vadd"));
  return callKernel(VAdd, Opts);
}
