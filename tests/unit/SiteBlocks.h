//===- tests/unit/SiteBlocks.h - Site descriptors built by hand -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime's tests build their descriptors as the header
// (alignguard/alignguard.h) describes them, independently of the pass: one
// block of consecutive alignguard_site, then their NUL-terminated strings,
// each named by its offset from the descriptor that names it (0: none).
//
//===----------------------------------------------------------------------===//
#ifndef ALIGNGUARD_TESTS_SITEBLOCKS_H
#define ALIGNGUARD_TESTS_SITEBLOCKS_H

#include "alignguard/alignguard.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace sites {

/// One descriptor's fields; a null string is none (offset 0).
struct Fields {
  const char *Function = nullptr;
  const char *Subject = nullptr;
  const char *File = nullptr;
  uint32_t Line = 0;
  uint32_t Column = 0;
  uint64_t Alignment = 16;
  int64_t Offset = 0;
  const char *PromiseFile = nullptr;
  uint32_t PromiseLine = 0;
  uint32_t PromiseColumn = 0;
  uint32_t Kind = ALIGNGUARD_KIND_PARAM_ATTR;
  uint32_t Version = ALIGNGUARD_SITE_VERSION;
};

/// A block of Sites' descriptors and their strings that lives until the
/// process ends (reachable: leak checkers stay quiet); its first descriptor.
inline const alignguard_site *block(const std::vector<Fields> &Sites) {
  static auto *Arena = new std::vector<std::unique_ptr<uint64_t[]>>;
  size_t Head = Sites.size() * sizeof(alignguard_site);
  std::string Strings;
  std::vector<alignguard_site> Descriptors(Sites.size());
  for (size_t I = 0; I != Sites.size(); ++I) {
    const Fields &F = Sites[I];
    size_t At = I * sizeof(alignguard_site);
    auto String = [&](const char *S) -> uint32_t {
      if (!S)
        return 0;
      uint32_t Offset = uint32_t(Head + Strings.size() - At);
      Strings.append(S, std::strlen(S) + 1);
      return Offset;
    };
    alignguard_site &D = Descriptors[I];
    D.version = F.Version;
    D.kind = F.Kind;
    D.function = String(F.Function);
    D.subject = String(F.Subject);
    D.file = String(F.File);
    D.line = F.Line;
    D.column = F.Column;
    D.promise_file = String(F.PromiseFile);
    D.alignment = F.Alignment;
    D.offset = uint64_t(F.Offset);
    D.promise_line = F.PromiseLine;
    D.promise_column = F.PromiseColumn;
  }
  size_t Size = Head + Strings.size();
  Arena->emplace_back(new uint64_t[Size / 8 + 1]());
  char *Bytes = reinterpret_cast<char *>(Arena->back().get());
  std::memcpy(Bytes, Descriptors.data(), Head);
  std::memcpy(Bytes + Head, Strings.data(), Strings.size());
  return reinterpret_cast<const alignguard_site *>(Bytes);
}

} // namespace sites

#endif // ALIGNGUARD_TESTS_SITEBLOCKS_H
