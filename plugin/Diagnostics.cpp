//===- Diagnostics.cpp - Problems found in IR, told through LLVM ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Diagnostics.h"

#include "llvm/IR/DiagnosticPrinter.h"

using namespace llvm;

namespace alignguard {

/// One diagnostic kind for the whole plugin, allocated on first use.
static int alignGuardDiagnosticKind() {
  static const int Kind = getNextAvailablePluginDiagnosticKind();
  return Kind;
}

AlignGuardDiagnostic::AlignGuardDiagnostic(const Twine &Message,
                                           DiagnosticSeverity Severity)
    : DiagnosticInfo(alignGuardDiagnosticKind(), Severity),
      Message(Message.str()) {}

void AlignGuardDiagnostic::print(DiagnosticPrinter &DP) const { DP << Message; }

AlignGuardLocatedDiagnostic::AlignGuardLocatedDiagnostic(
    const Function &F, const DiagnosticLocation &Loc, const Twine &Message,
    DiagnosticSeverity Severity)
    : DiagnosticInfoWithLocationBase(
          static_cast<DiagnosticKind>(alignGuardDiagnosticKind()), Severity, F,
          Loc),
      Message(Message.str()) {}

void AlignGuardLocatedDiagnostic::print(DiagnosticPrinter &DP) const {
  DP << "align-guard: ";
  if (isLocationAvailable())
    DP << getLocationStr() << ": ";
  DP << Message;
}

void warnAt(const Function &F, const DebugLoc &Loc, const Twine &Message) {
  F.getContext().diagnose(AlignGuardLocatedDiagnostic(
      F, Loc ? DiagnosticLocation(Loc) : DiagnosticLocation(), Message,
      DS_Warning));
}

void diagnose(LLVMContext &Ctx, const Twine &Message,
              DiagnosticSeverity Severity) {
  Ctx.diagnose(AlignGuardDiagnostic(Message, Severity));
}

} // namespace alignguard
