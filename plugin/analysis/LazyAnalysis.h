//===- LazyAnalysis.h - Analyses made when first asked for --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function's LoopInfo or ScalarEvolution, made at the first question.
// align-guard runs at the pipeline's start, on unoptimised bodies, and drops
// what it computed there once it has changed a function; most functions'
// promises are planned without one or the other: a promise in the entry
// block is in no loop (no edge enters that block), and a promise on one
// argument and a check of another need no ScalarEvolution to tell apart
// (AlignmentFacts::sameResidue). Making them anyway was the largest share of
// the pass's own work on modules full of small kernels (bench/README.md,
// compile time).
//
//   LazyScalarEvolution SE = lazily<ScalarEvolutionAnalysis>(FAM, F);
//   planChecks(F, Promises, Request, {DT, LI, SE}); // SE.made(): perhaps not
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_LAZYANALYSIS_H
#define ALIGNGUARD_LAZYANALYSIS_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/PassManager.h"

#include <functional>
#include <utility>

namespace alignguard {

template <typename ResultT> class LazyAnalysis {
public:
  /// Make is called once, at the first get().
  explicit LazyAnalysis(std::function<ResultT &()> Make)
      : Make(std::move(Make)) {}
  /// One made already.
  explicit LazyAnalysis(ResultT &Made) : Result(&Made) {}

  ResultT &get() {
    if (!Result)
      Result = &Make();
    return *Result;
  }
  /// Whether anything has asked for it yet.
  bool made() const { return Result != nullptr; }

private:
  std::function<ResultT &()> Make;
  ResultT *Result = nullptr;
};

using LazyLoopInfo = LazyAnalysis<llvm::LoopInfo>;
using LazyScalarEvolution = LazyAnalysis<llvm::ScalarEvolution>;

/// AnalysisT's result for F, asked of FAM at the first get(). FAM and F
/// must outlive it.
template <typename AnalysisT>
LazyAnalysis<typename AnalysisT::Result>
lazily(llvm::FunctionAnalysisManager &FAM, llvm::Function &F) {
  return LazyAnalysis<typename AnalysisT::Result>(
      [&FAM, &F]() ->
      typename AnalysisT::Result & { return FAM.getResult<AnalysisT>(F); });
}

/// The innermost loop BB is in. The entry block is in none, and takes no
/// LoopInfo to say so.
inline llvm::Loop *loopFor(LazyLoopInfo &LI, const llvm::BasicBlock *BB) {
  if (BB == &BB->getParent()->getEntryBlock())
    return nullptr;
  return LI.get().getLoopFor(BB);
}

} // namespace alignguard

#endif // ALIGNGUARD_LAZYANALYSIS_H
