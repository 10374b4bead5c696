//===- AlignGuardAuditPass.cpp - List alignment promises and their checks -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See AlignGuardAuditPass.h. Collect every promise (Promises.h), decide
// its status from the facts each function establishes (AlignmentFacts.h),
// following internal calls for `implied`, then write the report
// (AuditReport.h) and one optimisation remark per finding.
//
//===----------------------------------------------------------------------===//
#include "AlignGuardAuditPass.h"

#include "AlignmentFacts.h"
#include "AuditReport.h"
#include "CheckPlanner.h"
#include "CheckPreparation.h"
#include "Diagnostics.h"
#include "EntryPoints.h"
#include "GuardMetadata.h"
#include "InlinedCopy.h"
#include "LazyAnalysis.h"
#include "PointerOrigins.h"
#include "PromiseDescription.h"
#include "Promises.h"
#include "SubjectNames.h"
#include "Suppressions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <map>
#include <memory>

using namespace llvm;

#define DEBUG_TYPE "align-guard-audit"

namespace alignguard {
namespace {

struct Verdict {
  AuditStatus Status;
  std::string Reason; ///< empty: none
  /// The promise only repeats an unchecked assume's (the optimiser's
  /// alignment of an access made from it).
  bool Derived = false;
  /// Guarded by a check of its own (not one that covers it).
  bool OwnCheck = false;
};

/// The audit's word for the best fact that covers a promise; Unchecked with
/// no reason when there is none.
Verdict factVerdict(const std::optional<AlignmentFact> &Fact) {
  if (!Fact)
    return {AuditStatus::Unchecked, ""};
  FactReading Reading = readFact(*Fact);
  switch (Reading.Verdict) {
  case FactVerdict::Checked:
    return {AuditStatus::Checked, ""};
  case FactVerdict::Guarded:
    return {AuditStatus::Guarded, ""};
  case FactVerdict::None:
    break;
  }
  // The audit asks before any check is planned: no fact of a planned check.
  return {AuditStatus::Unchecked, Reading.Why, /*Derived=*/true};
}

class Auditor {
public:
  Auditor(Module &M, FunctionAnalysisManager &FAM, const AuditOptions &Opts,
          const Suppressions &Suppressed)
      : M(M), FAM(FAM), Opts(Opts), Suppressed(Suppressed),
        Entries(M, Opts.Guard) {}

  /// Which of the promises findings() lists: all, or (for an inlined copy)
  /// one kind's that no other promise accounts for.
  struct Selection {
    /// The functions left out; none when null.
    function_ref<bool(const Function &)> Skip = nullptr;
    std::optional<PromiseKind> Kind;
    /// Only the promises no other accounts for: none that repeats an
    /// unchecked assume, or that a check of another promise covers.
    bool Unaccounted = false;
  };
  /// The findings of the promises Scope collects that Only selects.
  std::vector<AuditFinding> findings(const CollectScope &Scope,
                                     const Selection &Only);
  const EntryPoints &entries() const { return Entries; }

private:
  /// F's ScalarEvolution, made when a question needs it.
  LazyScalarEvolution &evolutionOf(Function &F);
  AlignmentFacts &factsFor(Function &F);
  SubjectNamer &namerFor(Function &F);
  Verdict classify(const AlignmentPromise &A);
  /// Whether Ptr is known to be Alignment-aligned at At.
  Verdict pointerVerdict(Value *Ptr, uint64_t Alignment, Instruction *At);
  /// Whether every caller of Arg's function passes an aligned pointer.
  Verdict paramVerdict(Argument &Arg, uint64_t Alignment);
  AuditFinding describe(const AlignmentPromise &A, const Verdict &V);
  /// What align-guard with the plan's options does with each of Promises,
  /// F's promises collected with Scope (Opts.Plan).
  std::vector<PromisePlan> plan(Function &F,
                                ArrayRef<AlignmentPromise> Promises,
                                const CollectScope &Scope);
  void remark(const AlignmentPromise &A, const AuditFinding &F);

  Module &M;
  FunctionAnalysisManager &FAM;
  const AuditOptions &Opts;
  const Suppressions &Suppressed;
  EntryPoints Entries;
  DenseMap<Function *, std::unique_ptr<LazyScalarEvolution>> Evolutions;
  DenseMap<Function *, std::unique_ptr<AlignmentFacts>> Facts;
  DenseMap<Function *, std::unique_ptr<SubjectNamer>> Namers;
  /// paramVerdict results by (argument, alignment); an entry without a
  /// verdict yet is a query in progress (recursion: assumed to hold).
  std::map<std::pair<Argument *, uint64_t>, std::optional<Verdict>> Params;
};

LazyScalarEvolution &Auditor::evolutionOf(Function &F) {
  std::unique_ptr<LazyScalarEvolution> &Slot = Evolutions[&F];
  if (!Slot)
    Slot = std::make_unique<LazyScalarEvolution>(
        lazily<ScalarEvolutionAnalysis>(FAM, F));
  return *Slot;
}

AlignmentFacts &Auditor::factsFor(Function &F) {
  std::unique_ptr<AlignmentFacts> &Slot = Facts[&F];
  if (!Slot)
    Slot = std::make_unique<AlignmentFacts>(
        F, FAM.getResult<DominatorTreeAnalysis>(F), &evolutionOf(F));
  return *Slot;
}

SubjectNamer &Auditor::namerFor(Function &F) {
  std::unique_ptr<SubjectNamer> &Slot = Namers[&F];
  if (!Slot)
    Slot = std::make_unique<SubjectNamer>(F);
  return *Slot;
}

Verdict Auditor::pointerVerdict(Value *Ptr, uint64_t Alignment,
                                Instruction *At) {
  Function &F = *At->getFunction();
  AddressQuery Q;
  Q.Pointer = Ptr;
  Q.Alignment = Alignment;
  if (Verdict V = factVerdict(factsFor(F).find(Q, At, /*Ignore=*/At));
      V.Status != AuditStatus::Unchecked || !V.Reason.empty())
    return V;
  // A parameter plus a constant multiple of the alignment (seen through
  // casts and spill slots): as aligned as the callers make it.
  const DataLayout &DL = M.getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  auto *Arg = dyn_cast<Argument>(const_cast<Value *>(
      sameAddress(Ptr->stripAndAccumulateConstantOffsets(DL, Off, true))));
  if (!Arg || Off.urem(Alignment) != 0)
    return {AuditStatus::Unchecked, "nothing checks it"};
  MaybeAlign Promised = F.getParamAlign(Arg->getArgNo());
  if (!F.hasLocalLinkage() && (!Promised || Promised->value() < Alignment))
    return {AuditStatus::Unchecked, "nothing checks it"};
  Verdict V = paramVerdict(*Arg, Alignment);
  if (isVerified(V.Status))
    return {AuditStatus::Implied, ""};
  return V;
}

Verdict Auditor::paramVerdict(Argument &Arg, uint64_t Alignment) {
  Function &F = *Arg.getParent();
  std::string Name = demangle(F.getName().str());
  if (!F.hasLocalLinkage()) {
    if (Entries.isEntry(F))
      return {AuditStatus::Unchecked,
              "promised by the callers of entry point '" + Name + "'"};
    return {AuditStatus::Unchecked,
            "'" + Name +
                "' is externally visible: its callers are not all "
                "in this module"};
  }
  auto Key = std::make_pair(&Arg, Alignment);
  auto It = Params.find(Key);
  if (It != Params.end())
    return It->second ? *It->second : Verdict{AuditStatus::Implied, ""};
  Params[Key] = std::nullopt; // in progress: a recursive call assumes it

  Verdict Result{AuditStatus::Implied, ""};
  unsigned Calls = 0;
  for (Use &U : F.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || Arg.getArgNo() >= CB->arg_size()) {
      Result = {AuditStatus::Unchecked,
                "the address of '" + Name +
                    "' is taken: not every caller is known"};
      break;
    }
    ++Calls;
    Verdict AtCall =
        pointerVerdict(CB->getArgOperand(Arg.getArgNo()), Alignment, CB);
    if (!isVerified(AtCall.Status)) {
      Function &Caller = *CB->getFunction();
      Result = {
          AuditStatus::Unchecked,
          "the call in '" + demangle(Caller.getName().str()) + "'" +
              describeLocation(CB->getDebugLoc()) + " passes " +
              namerFor(Caller).describe(CB->getArgOperand(Arg.getArgNo())) +
              ", which is " + auditStatusName(AtCall.Status).str() +
              (AtCall.Reason.empty() ? "" : " (" + AtCall.Reason + ")")};
      break;
    }
  }
  if (isVerified(Result.Status) && Calls == 0)
    Result.Reason = "no call in this module";
  Params[Key] = Result;
  return Result;
}

Verdict Auditor::classify(const AlignmentPromise &A) {
  Function &F = *A.F;
  if (!A.isSupported())
    return {AuditStatus::Unsupported, A.Unsupported};
  if (A.TypeImplied && !Opts.Guard.TypeAlignment)
    return {AuditStatus::Type, TypeAlignmentWhy};
  if (A.Guarded)
    return {AuditStatus::Guarded, "", /*Derived=*/false, /*OwnCheck=*/true};
  PromiseDescription D = describePromise(A, namerFor(F));
  std::optional<uint64_t> Align = D.Alignment;
  std::optional<int64_t> Offset = D.Offset;
  if (Align && *Align == 1)
    return {AuditStatus::Checked, "alignment 1 holds for every pointer"};
  if (!Align || !Offset)
    return {AuditStatus::Unchecked,
            "known only at run time, and nothing checks it"};
  if (!isPowerOf2_64(*Align))
    return {AuditStatus::Unchecked,
            "alignment " + std::to_string(*Align) +
                " is not a power of two (the pointer must be null), and "
                "nothing checks it"};

  switch (A.Kind) {
  case PromiseKind::ParamAttr:
    return paramVerdict(*A.Param, *Align);
  case PromiseKind::ReturnAttr:
    if (auto *CB = dyn_cast<CallBase>(A.Inst)) {
      // The C library's promise, not the kernel's (describe() marks it
      // system): align-guard leaves it alone for the same reason.
      if (isLibraryAlignedAllocator(*CB))
        return {AuditStatus::Unchecked, libraryAllocatorGuarantee(*CB)};
      Function *Callee = CB->getCalledFunction();
      return {AuditStatus::Unchecked,
              "promised by " +
                  (Callee ? "'" + demangle(Callee->getName().str()) + "'"
                          : std::string("an indirect callee")) +
                  "; nothing checks the returned pointer"};
    }
    // F's own promise: every pointer it returns must be aligned.
    for (BasicBlock &BB : F)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
        Verdict V = pointerVerdict(Ret->getReturnValue(), *Align, Ret);
        if (!isVerified(V.Status))
          return V;
      }
    return {AuditStatus::Checked, ""};
  case PromiseKind::LoadMetadata:
    return {AuditStatus::Unchecked,
            "promised by the load's !align; nothing checks the loaded "
            "pointer"};
  case PromiseKind::AssumeBundle:
  case PromiseKind::AssumeICmp:
  case PromiseKind::Access: {
    if (*Offset == 0)
      return pointerVerdict(A.Pointer, *Align, A.Inst);
    AddressQuery Q;
    Q.Pointer = A.Pointer;
    Q.Alignment = *Align;
    Q.Offset = *Offset;
    Verdict V = factVerdict(factsFor(F).find(Q, A.Inst, A.Inst));
    if (V.Status == AuditStatus::Unchecked)
      V.Reason = "nothing checks it";
    return V;
  }
  }
  llvm_unreachable("unknown assumption kind");
}

AuditFinding Auditor::describe(const AlignmentPromise &A, const Verdict &V) {
  AuditFinding Out;
  Out.Promise = describePromise(A, namerFor(*A.F));
  Out.Status = V.Status;
  Out.Reason = V.Reason;
  if (A.Kind == PromiseKind::ReturnAttr)
    if (auto *CB = dyn_cast<CallBase>(A.Inst))
      Out.LibraryPromise = isLibraryAlignedAllocator(*CB);
  // What align-guard recorded on the promise: an access check's placement,
  // why the requested action could not be used.
  if (A.Guarded && A.Inst)
    if (std::optional<GuardNote> Note = readGuardNote(*A.Inst)) {
      if (Note->Placement)
        Out.Placement = checkPlacementName(*Note->Placement).str();
      if (!Note->Downgrade.empty())
        Out.Reason = Note->Downgrade;
    }
  return Out;
}

std::vector<PromisePlan> Auditor::plan(Function &F,
                                       ArrayRef<AlignmentPromise> Promises,
                                       const CollectScope &Scope) {
  if (isOptedOut(F))
    return std::vector<PromisePlan>(
        Promises.size(),
        PromisePlan{false, std::nullopt, "", "",
                    "the function opts out with \"no-align-guard\""});
  bool IsEntry = Entries.isEntry(F);
  PlanRequest Request =
      planRequest(Opts.Guard, moduleAction(M, Opts.Guard), IsEntry, F);
  if (std::optional<Suppression> Why = Suppressed.of(F))
    Request.SuppressedBy = Why->Rule;
  auto PlanOn = [&](Function &G, ArrayRef<AlignmentPromise> Of) {
    // (G may be a prepared copy, gone after: nothing of it is kept.)
    LazyLoopInfo LoopsOfG = lazily<LoopAnalysis>(FAM, G);
    LazyScalarEvolution EvolutionOfG = lazily<ScalarEvolutionAnalysis>(FAM, G);
    CheckPlan Plan = planChecks(
        G, Of, Request,
        {FAM.getResult<DominatorTreeAnalysis>(G), LoopsOfG, EvolutionOfG});
    std::vector<PromisePlan> Out;
    for (const AlignmentPromise &A : Of)
      Out.push_back(Plan.planOf(&A));
    return Out;
  };
  // Without accesses, loads or an assume in a loop align-guard plans on F
  // as it is; with them, on F with loop preheaders, disjoint ors and
  // promoted allocas (CheckPreparation.h): plan on such a copy. Its
  // promises are F's, in F's order (preparation adds none).
  std::vector<PromisePlan> Out;
  LazyLoopInfo Loops = lazily<LoopAnalysis>(FAM, F);
  if (Opts.Guard.Accesses || Opts.Guard.Loads ||
      hasAssumeInLoop(Promises, Loops))
    withPreparedCopy(F, IsEntry, Opts.Guard.Accesses, Opts.Guard.Loads, FAM,
                     [&](Function &Copy) {
                       std::vector<AlignmentPromise> Of =
                           collectAlignmentPromises(Copy, IsEntry, Scope);
                       bool Same = Of.size() == Promises.size();
                       for (size_t I = 0; Same && I != Of.size(); ++I)
                         Same = Of[I].Kind == Promises[I].Kind;
                       if (Same)
                         Out = PlanOn(Copy, Of);
                     });
  if (Out.empty())
    Out = PlanOn(F, Promises);
  return Out;
}

void Auditor::remark(const AlignmentPromise &A, const AuditFinding &F) {
  OptimizationRemarkEmitter ORE(A.F);
  std::string Name = auditStatusName(F.Status).str();
  Name[0] = toupper(Name[0]);
  auto Fill = [&](auto R) {
    R << promiseKindName(F.Promise.Kind) << " on " << F.Promise.Subject << " ("
      << (F.Promise.Alignment ? std::to_string(*F.Promise.Alignment)
                              : std::string("run-time"))
      << "-byte): " << auditStatusName(F.Status);
    if (!F.Reason.empty())
      R << ": " << F.Reason;
    return R;
  };
  DiagnosticLocation Loc;
  if (DISubprogram *SP = A.F->getSubprogram())
    Loc = DiagnosticLocation(SP);
  const BasicBlock *Region =
      A.Inst ? A.Inst->getParent() : &A.F->getEntryBlock();
  if (A.Inst && A.Inst->getDebugLoc())
    Loc = DiagnosticLocation(A.Inst->getDebugLoc());
  if (!needsAttention(F.Status))
    ORE.emit([&] {
      return Fill(OptimizationRemarkAnalysis(DEBUG_TYPE, Name, Loc, Region));
    });
  else
    ORE.emit([&] {
      return Fill(OptimizationRemarkMissed(DEBUG_TYPE, Name, Loc, Region));
    });
}

std::vector<AuditFinding> Auditor::findings(const CollectScope &Scope,
                                            const Selection &Only) {
  std::vector<AuditFinding> Findings;
  for (Function &F : M) {
    if (F.isDeclaration() || isRecoverCopy(F) || (Only.Skip && Only.Skip(F)))
      continue;
    std::vector<AlignmentPromise> Promises =
        collectAlignmentPromises(F, Entries.isEntry(F), Scope);
    if (Only.Kind)
      llvm::erase_if(Promises, [&](const AlignmentPromise &A) {
        return A.Kind != *Only.Kind;
      });
    std::vector<PromisePlan> Planned;
    if (Opts.Plan && !Promises.empty())
      Planned = plan(F, Promises, Scope);
    std::optional<Suppression> Suppressing = Suppressed.of(F);
    for (size_t I = 0; I != Promises.size(); ++I) {
      const AlignmentPromise &A = Promises[I];
      // Alignment 1 promises nothing: not a finding, not counted.
      if (A.isTrivial())
        continue;
      Verdict V = classify(A);
      if (Only.Unaccounted &&
          (V.Derived || (isVerified(V.Status) && !V.OwnCheck)))
        continue;
      if (needsAttention(V.Status) && isOptedOut(F))
        V.Reason += std::string(V.Reason.empty() ? "" : "; ") +
                    "the function opts out with \"no-align-guard\"";
      // What nothing checks, the user opted out of: listed with the rule.
      // A type alignment stays `type`: not a promise to suppress.
      if ((V.Status == AuditStatus::Unchecked ||
           V.Status == AuditStatus::Unsupported) &&
          Suppressing)
        V = {AuditStatus::Suppressed, Suppressing->Rule};
      Findings.push_back(describe(A, V));
      if (V.Status == AuditStatus::Suppressed)
        Findings.back().SuppressionKind =
            Suppressing->Kind == Suppression::External ? "external"
                                                       : "inSource";
      if (Opts.Plan)
        Findings.back().Planned = Planned[I];
      remark(A, Findings.back());
    }
  }
  return Findings;
}

/// The plan's reason for an access that only inlining shows: align-guard
/// on the module does not look at it (tests/tools/agreement.py knows it).
constexpr const char *InlinedWhy =
    "an access of an inlinable callee: a build with `accesses` checks it "
    "once the inliner has put it here";

/// Every promise the audit lists.
CollectScope everyPromise() {
  CollectScope Scope;
  Scope.AllParams = true;
  Scope.GuardedAssumes = true;
  Scope.Returns = true;
  Scope.Accesses = true;
  Scope.Loads = true;
  return Scope;
}

/// The over-aligned accesses that LLVM's inliner brings into the entry
/// points of M that hold none of their own (InlinedCopy.h): in IR before
/// optimisation, a SIMD kernel's accesses are still in the wrappers it
/// calls. Findings holds M's own.
void addInlinedAccesses(Module &M, const AuditOptions &Opts,
                        const BuildExtensions &Extend,
                        const EntryPoints &Entries,
                        std::vector<AuditFinding> &Findings) {
  auto IsEntry = [&](const Function &F) { return Entries.isEntry(F); };
  if (!hasInlinableCalls(M, IsEntry))
    return;
  CollectScope Scope;
  Scope.EntryParams = false;
  Scope.Accesses = true;
  Scope.GuardedAssumes = true;
  StringSet<> WithAccesses;
  for (Function &F : M)
    if (!F.isDeclaration() && IsEntry(F) &&
        !collectAlignmentPromises(F, /*IsEntry=*/true, Scope).empty())
      WithAccesses.insert(F.getName());
  InlinedCopy Copy(M, Extend);
  Expected<Suppressions> Suppressed =
      Suppressions::load(Copy.module(), Opts.Guard.Ignorelist);
  if (!Suppressed) { // read once already: M's load reported it
    consumeError(Suppressed.takeError());
    return;
  }
  Auditor Inlined(Copy.module(), Copy.functionAnalyses(), Opts, *Suppressed);
  auto Skip = [&](const Function &G) {
    return !Inlined.entries().isEntry(G) || WithAccesses.count(G.getName());
  };
  // What the copy finds covered, or made from an assume, M's own findings
  // list already (the guard, assume or parameter that accounts for it).
  for (AuditFinding &F :
       Inlined.findings(Scope, {Skip, PromiseKind::Access, true})) {
    // align-guard on M does not see them; a build checks them once they
    // are inlined, with `accesses` (InlinedAccessesPass.h): the copy, made
    // with the audit's options, did (guarded) or did not (unchecked).
    if (F.Planned)
      F.Planned = PromisePlan{false, std::nullopt, "", "", InlinedWhy};
    Findings.push_back(std::move(F));
  }
}

/// The module's source file name as one file name: `.` components
/// dropped, `..` ones written `up`, the rest joined with `_`
/// (/src/a/k.c -> src_a_k.c, ../k.c -> up_k.c).
std::string moduleFileName(const Module &M) {
  StringRef Source = M.getSourceFileName().empty() ? M.getModuleIdentifier()
                                                   : M.getSourceFileName();
  SmallVector<StringRef, 8> Parts;
  Source.split(Parts, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string Name;
  for (StringRef Part : Parts) {
    if (Part == ".")
      continue;
    if (!Name.empty())
      Name += '_';
    Name += Part == ".." ? StringRef("up") : Part;
  }
  return Name.empty() ? "module" : Name;
}

/// Output with `%m` replaced by moduleFileName, so one pattern gives each
/// translation unit of a build its own file.
std::string outputPath(StringRef Pattern, const Module &M) {
  std::string Name = moduleFileName(M);
  std::string Out;
  for (size_t I = 0; I < Pattern.size(); ++I) {
    if (Pattern[I] == '%' && I + 1 < Pattern.size() && Pattern[I + 1] == 'm') {
      Out += Name;
      ++I;
    } else {
      Out += Pattern[I];
    }
  }
  return Out;
}

} // namespace

PreservedAnalyses AlignGuardAuditPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  Expected<Suppressions> Suppressed =
      Suppressions::load(M, Opts.Guard.Ignorelist);
  if (!Suppressed) {
    diagnose(M.getContext(),
             "align-guard-audit: " + toString(Suppressed.takeError()),
             DS_Error);
    return PreservedAnalyses::all();
  }
  Auditor Audit(M, FAM, Opts, *Suppressed);
  std::vector<AuditFinding> Findings =
      Audit.findings(everyPromise(), Auditor::Selection());
  addInlinedAccesses(M, Opts, Extend, Audit.entries(), Findings);
  AuditReport Report =
      decideListing(M.getSourceFileName().empty() ? M.getModuleIdentifier()
                                                  : M.getSourceFileName(),
                    std::move(Findings), Opts.Listing);

  auto Write = [&](raw_ostream &OS) {
    switch (Opts.Format) {
    case AuditFormat::Table:
      writeAuditTable(OS, Report);
      break;
    case AuditFormat::JSON:
      writeAuditJSON(OS, Report);
      break;
    }
  };
  if (Opts.Output.empty()) {
    Write(Opts.Format == AuditFormat::Table ? errs() : outs());
  } else {
    std::string Path = outputPath(Opts.Output, M);
    // The directory of `output=audit/%m.json` is made as needed: a build
    // writes one file per translation unit into it.
    std::error_code EC;
    StringRef Dir = sys::path::parent_path(Path);
    if (!Dir.empty())
      EC = sys::fs::create_directories(Dir);
    std::optional<raw_fd_ostream> OS;
    if (!EC)
      OS.emplace(Path, EC, sys::fs::OF_Text);
    if (EC)
      diagnose(M.getContext(),
               "align-guard-audit: cannot write '" + Path +
                   "': " + EC.message(),
               DS_Error);
    else
      Write(*OS);
  }

  unsigned Unchecked = Report.Summary.Unchecked;
  if (Opts.FailOnUnchecked && Unchecked)
    diagnose(M.getContext(),
             "align-guard-audit: " + Twine(Unchecked) +
                 " unchecked alignment assumption" +
                 (Unchecked == 1 ? "" : "s") + " in '" + Report.Module + "'",
             DS_Error);
  return PreservedAnalyses::all();
}

} // namespace alignguard
