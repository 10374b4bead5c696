//===- HookNames.cpp - The runtime's hooks, by name
//-------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "HookNames.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace alignguard {

static constexpr const char *OneCheckCType =
    "void(const alignguard_site *, uint64_t, uint64_t, int64_t)";
static constexpr const char *TableCType =
    "void(uint64_t, uint64_t, uint64_t, uint64_t, const alignguard_site *, "
    "uint64_t)";
/// In the order align-guard-cold-exits makes their thunks.
static const HookEntry Hooks[] = {
    {ReportAbortHookName, HookKind::Abort, HookShape::OneCheck, OneCheckCType},
    {ReportHookName, HookKind::Report, HookShape::OneCheck, OneCheckCType},
    {FallbackHookName, HookKind::Fallback, HookShape::OneCheck, OneCheckCType},
    {"__alignguard_report_first_abort", HookKind::Abort, HookShape::Table,
     TableCType},
    {"__alignguard_report_first", HookKind::Report, HookShape::Table,
     TableCType},
    {"__alignguard_fallback_first", HookKind::Fallback, HookShape::Table,
     TableCType},
};
static const HookEntry *findHook(StringRef Name) {
  for (const HookEntry &H : Hooks)
    if (H.Name == Name)
      return &H;
  return nullptr;
}

StringRef hookName(HookKind Kind, HookShape Shape) {
  for (const HookEntry &H : Hooks)
    if (H.Kind == Kind && H.Shape == Shape)
      return H.Name;
  llvm_unreachable("every kind has a hook of each shape");
}

ArrayRef<StringRef> hookNames() {
  static const SmallVector<StringRef, 6> Names = [] {
    SmallVector<StringRef, 6> N;
    for (const HookEntry &H : Hooks)
      N.push_back(H.Name);
    return N;
  }();
  return Names;
}

bool isHookName(StringRef Name) { return findHook(Name); }

bool isAbortHookName(StringRef Name) {
  const HookEntry *H = findHook(Name);
  return H && H->Kind == HookKind::Abort;
}

bool isFallbackHookName(StringRef Name) {
  const HookEntry *H = findHook(Name);
  return H && H->Kind == HookKind::Fallback;
}

ArrayRef<HookEntry> hooks() { return Hooks; }

} // namespace alignguard
