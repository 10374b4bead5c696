//===- PromiseKind.cpp - The kinds of alignment promise
//--------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "PromiseKind.h"

#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace alignguard {

StringRef promiseKindName(PromiseKind Kind) {
  switch (Kind) {
  case PromiseKind::AssumeBundle:
    return "assume-bundle";
  case PromiseKind::AssumeICmp:
    return "assume-icmp";
  case PromiseKind::ParamAttr:
    return "param-attr";
  case PromiseKind::ReturnAttr:
    return "return-attr";
  case PromiseKind::Access:
    return "access";
  case PromiseKind::LoadMetadata:
    return "load-metadata";
  }
  llvm_unreachable("unknown assumption kind");
}

} // namespace alignguard
