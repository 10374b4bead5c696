//===- Suppressions.h - Which functions a user opted out, and by what ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function's promises are suppressed (not checked by align-guard, listed
// as `suppressed` by the audit) when
//
//  - the ignorelist (`ignorelist=FILE`: LLVM's special-case-list format, the
//    file clang's -fsanitize-ignorelist reads) has a `fun:` entry matching
//    its name, mangled or demangled, or a `src:` entry matching its source
//    file, in an `[alignment]` section or unsectioned:
//
//      [alignment]
//      fun:main
//      fun:_ZN4blur*
//      src:*/third_party/*
//
//  - or its source says so: `__attribute__((annotate("no_align_guard")))`,
//    which clang writes into @llvm.global.annotations.
//
//   Expected<Suppressions> S = Suppressions::load(M, Opts.Ignorelist);
//   if (std::optional<Suppression> Why = S->of(F)) ... Why->Rule
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_SUPPRESSIONS_H
#define ALIGNGUARD_SUPPRESSIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SpecialCaseList.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace alignguard {

/// The annotation that opts a function out in source.
inline constexpr const char *NoAlignGuardAnnotation = "no_align_guard";

/// Why a function's promises are not checked.
struct Suppression {
  /// Where the opt-out is written: the ignorelist (SARIF kind `external`)
  /// or the function's own source (`inSource`).
  enum SourceKind { External, InSource } Kind;
  /// `fun:main at ubsan.txt:2`, `annotate("no_align_guard") at k.c:3`.
  std::string Rule;
};

class Suppressions {
public:
  /// Reads File (none when empty) and M's annotations. The error is one
  /// line naming the file, and the line when the file is malformed.
  static llvm::Expected<Suppressions> load(const llvm::Module &M,
                                           llvm::StringRef File);

  /// Why F is suppressed, or nothing when it is not.
  std::optional<Suppression> of(const llvm::Function &F) const;

private:
  /// The rule on Line of the file, as `TEXT at FILE:LINE`.
  std::string rule(unsigned Line) const;

  std::string File;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::unique_ptr<llvm::SpecialCaseList> List;
  /// Annotated functions, with where the annotation is.
  llvm::DenseMap<const llvm::Function *, std::string> Annotated;
};

} // namespace alignguard

#endif // ALIGNGUARD_SUPPRESSIONS_H
