//===- Diagnostics.cpp - Problems found in IR, told through LLVM ---------===//
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

void AlignGuardDiagnostic::print(DiagnosticPrinter &DP) const {
  DP << Message;
}

void diagnose(LLVMContext &Ctx, const Twine &Message,
              DiagnosticSeverity Severity) {
  Ctx.diagnose(AlignGuardDiagnostic(Message, Severity));
}

} // namespace alignguard
