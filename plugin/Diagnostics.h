//===- Diagnostics.h - Problems found in IR, told through LLVM --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// AlignGuard reports problems with a user's IR or options through
// LLVMContext::diagnose, so opt and clang print them with their own
// `warning:`/`error:` prefixes and an error fails the run (LLVM 14 has no
// DiagnosticInfoGeneric; this is the same thing on every version).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_DIAGNOSTICS_H
#define ALIGNGUARD_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"

#include <string>

namespace alignguard {

class AlignGuardDiagnostic : public llvm::DiagnosticInfo {
public:
  AlignGuardDiagnostic(const llvm::Twine &Message,
                       llvm::DiagnosticSeverity Severity);
  void print(llvm::DiagnosticPrinter &DP) const override;

private:
  std::string Message;
};

/// A problem at a place in a function's source: the location travels in the
/// diagnostic (DiagnosticInfoWithLocationBase), printed as
/// `align-guard: file:line:col: Message` when there is debug info.
class AlignGuardLocatedDiagnostic
    : public llvm::DiagnosticInfoWithLocationBase {
public:
  AlignGuardLocatedDiagnostic(const llvm::Function &F,
                              const llvm::DiagnosticLocation &Loc,
                              const llvm::Twine &Message,
                              llvm::DiagnosticSeverity Severity);
  void print(llvm::DiagnosticPrinter &DP) const override;

private:
  std::string Message;
};

/// Emits Message at the given severity; the text says which pass speaks.
void diagnose(llvm::LLVMContext &Ctx, const llvm::Twine &Message,
              llvm::DiagnosticSeverity Severity);

/// Emits a warning about F at Loc (which may be empty): `align-guard: `,
/// the location when known, then Message.
void warnAt(const llvm::Function &F, const llvm::DebugLoc &Loc,
            const llvm::Twine &Message);

} // namespace alignguard

#endif // ALIGNGUARD_DIAGNOSTICS_H
