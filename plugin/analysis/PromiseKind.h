//===- PromiseKind.h - The kinds of alignment promise -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a promise is written as, and the name the docs, the audit, the marks
// (GuardMetadata.h) and the runtime use for it.
//
//===----------------------------------------------------------------------===//

#ifndef ALIGNGUARD_PROMISEKIND_H
#define ALIGNGUARD_PROMISEKIND_H

#include "llvm/ADT/StringRef.h"

namespace alignguard {

/// The values are the runtime's enum alignguard_kind.
enum class PromiseKind {
  AssumeBundle,
  AssumeICmp,
  ParamAttr,
  ReturnAttr,
  Access,
  LoadMetadata
};

/// `assume-bundle`, `assume-icmp`, `param-attr`, `return-attr`, `access`,
/// `load-metadata`:
/// the names the docs, the audit and the runtime use.
llvm::StringRef promiseKindName(PromiseKind Kind);

} // namespace alignguard

#endif // ALIGNGUARD_PROMISEKIND_H
