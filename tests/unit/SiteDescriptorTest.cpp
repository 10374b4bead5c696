//===- SiteDescriptorTest.cpp - The IR descriptor is the C alignguard_site ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pass builds each site descriptor in IR (plugin/transform/RuntimeABI.cpp)
// and the runtime reads it as `struct alignguard_site`
// (alignguard/alignguard.h). Nothing but these tests ties the two together,
// so:
//
//   * the bytes of a descriptor SiteDescriptors::create or createTable emits,
//     read as the C struct on this host (the native target's byte order and
//     layout, as clang would use them), hold every value it was given in the
//     field the runtime reads it from, with its strings after the
//     descriptors, named by their offsets, and field 0 is SiteVersion, which
//     is ALIGNGUARD_SITE_VERSION; the runtime formats the report of them;
//   * the bytes follow the target's byte order;
//   * PromiseKind, cast to unsigned as the pass writes it, is the runtime's
//     enum alignguard_kind, kind by kind.
//
// Reordering a field on either side fails one of these.
//
//===----------------------------------------------------------------------===//
#include "Compat.h"
#include "RuntimeABI.h"

#include "alignguard/alignguard.h" // has its own extern "C"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include ALIGNGUARD_HOST_H // sys::getProcessTriple (Compat.h)

#include "gtest/gtest.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace alignguard;
using namespace llvm;

namespace {

/// The process triple, passed to Target::createTargetMachine as a string
/// (LLVM 14-20) or as a Triple (LLVM 21 on): each signature takes exactly one
/// of these conversions.
struct HostTriple {
  Triple T{sys::getProcessTriple()};
  operator const Triple &() const { return T; }
  operator StringRef() const { return T.str(); }
};

/// The DataLayout the host's compiler uses, from the native target. Fails
/// the calling test (with why) when this LLVM cannot target the host: the
/// layout checks below compare against offsetof/sizeof on this host, so a
/// layout of another target would prove nothing.
std::optional<DataLayout> hostDataLayout() {
  HostTriple Host;
  if (InitializeNativeTarget()) {
    ADD_FAILURE() << "unsupported host: the LLVM the tests link has no "
                     "native target for '"
                  << Host.T.str() << "'";
    return std::nullopt;
  }
  std::string Error;
  // By triple (an empty architecture name): the one overload LLVM 14 to 22
  // all have undeprecated.
  const Target *Tgt =
      TargetRegistry::lookupTarget(/*ArchName=*/"", Host.T, Error);
  if (!Tgt) {
    ADD_FAILURE() << "unsupported host '" << Host.T.str()
                  << "': no LLVM target (" << Error << ")";
    return std::nullopt;
  }
  std::unique_ptr<TargetMachine> TM(Tgt->createTargetMachine(
      Host, /*CPU=*/"generic", /*Features=*/"", TargetOptions(),
      /*RM=*/{}));
  if (!TM) {
    ADD_FAILURE() << "unsupported host '" << Host.T.str()
                  << "': LLVM cannot create a target machine for it";
    return std::nullopt;
  }
  return TM->createDataLayout();
}

/// The module holds the descriptors SiteDescriptors emits; its DataLayout
/// is the host's.
struct HostModule {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = std::make_unique<Module>("sites", Ctx);
  bool Ok = false;
  HostModule() {
    if (std::optional<DataLayout> DL = hostDataLayout()) {
      M->setDataLayout(*DL);
      Ok = true;
    }
  }
};

/// The global a descriptor pointer from SiteDescriptors::create points to.
GlobalVariable *descriptorGlobal(Constant *Desc) {
  return dyn_cast<GlobalVariable>(Desc->stripPointerCasts());
}

/// A block's bytes as the runtime sees them in memory: its descriptors,
/// then its strings (the struct's second part starts where the first ends:
/// both are byte arrays), in storage aligned as the global is.
struct TableBytes {
  std::vector<uint64_t> Storage;
  const alignguard_site *site(unsigned I) const {
    return reinterpret_cast<const alignguard_site *>(Storage.data()) + I;
  }
  /// The string site(I) names at Offset from itself; "<none>" for 0.
  std::string string(unsigned I, uint32_t Offset) const {
    if (!Offset)
      return "<none>";
    return reinterpret_cast<const char *>(site(I)) + Offset;
  }
};

TableBytes tableBytes(const GlobalVariable &GV, const DataLayout &DL) {
  auto *Init = cast<ConstantStruct>(GV.getInitializer());
  const StructLayout *SL = DL.getStructLayout(Init->getType());
  std::string Bytes;
  for (unsigned I = 0; I != 2; ++I) {
    EXPECT_EQ(SL->getElementOffset(I), Bytes.size()) << "part " << I;
    auto *Part = dyn_cast<ConstantDataArray>(Init->getOperand(I));
    EXPECT_TRUE(Part && Part->isString()) << "part " << I;
    if (Part)
      Bytes += Part->getRawDataValues().str();
  }
  TableBytes T;
  T.Storage.resize(Bytes.size() / 8 + 1);
  memcpy(T.Storage.data(), Bytes.data(), Bytes.size());
  return T;
}

TEST(SiteDescriptorTest, OneCheckDescriptorIsTheRuntimesStruct) {
  HostModule HM;
  ASSERT_TRUE(HM.Ok);
  const DataLayout &DL = HM.M->getDataLayout();
  EXPECT_EQ(sizeof(alignguard_site), size_t(SiteSize));
  EXPECT_EQ(SiteVersion, ALIGNGUARD_SITE_VERSION);

  SiteDescriptors Sites(*HM.M);
  SiteInfo Info;
  Info.Kind = PromiseKind::ParamAttr;
  Info.Function = "kernel";
  Info.Subject = "argument #1 'b'";
  Info.File = "kernel.c";
  Info.Line = 12;
  Info.Column = 3;
  Info.Alignment = 64;
  Info.Offset = 16;
  Info.PromiseFile = "kernel.h";
  Info.PromiseLine = 4;
  Info.PromiseColumn = 10;
  Constant *Desc = Sites.create(Info);
  ASSERT_TRUE(Desc);

  GlobalVariable *GV = HM.M->getNamedGlobal("__alignguard_site");
  ASSERT_TRUE(GV) << "no global named __alignguard_site";
  EXPECT_EQ(GV, descriptorGlobal(Desc));
  EXPECT_TRUE(GV->isConstant());
  EXPECT_TRUE(GV->hasPrivateLinkage());
  EXPECT_FALSE(GV->hasGlobalUnnamedAddr()) << "reports dedupe by address";
  EXPECT_GE(GV->getAlignment(), alignof(alignguard_site));
  ASSERT_TRUE(GV->hasInitializer());
  EXPECT_FALSE(siteTable(GV)) << "one descriptor is not a table";

  // Values: each one is in the field the runtime reads it from.
  TableBytes T = tableBytes(*GV, DL);
  const alignguard_site *P = T.site(0);
  EXPECT_EQ(P->version, ALIGNGUARD_SITE_VERSION);
  EXPECT_EQ(P->kind, unsigned(ALIGNGUARD_KIND_PARAM_ATTR));
  EXPECT_EQ(T.string(0, P->function), "kernel");
  EXPECT_EQ(T.string(0, P->subject), "argument #1 'b'");
  EXPECT_EQ(T.string(0, P->file), "kernel.c");
  EXPECT_EQ(P->line, 12u);
  EXPECT_EQ(P->column, 3u);
  EXPECT_EQ(P->alignment, 64u);
  EXPECT_EQ(P->offset, 16u);
  EXPECT_EQ(T.string(0, P->promise_file), "kernel.h");
  EXPECT_EQ(P->promise_line, 4u);
  EXPECT_EQ(P->promise_column, 10u);
  // Its strings, each once, right after it.
  auto *Strings = cast<ConstantDataArray>(
      cast<ConstantStruct>(GV->getInitializer())->getOperand(1));
  EXPECT_EQ(Strings->getNumElements(),
            strlen("kernel") + 1 + strlen("argument #1 'b'") + 1 +
                strlen("kernel.c") + 1 + strlen("kernel.h") + 1);

  // The runtime reads the pass's bytes.
  char Line[256];
  alignguard_format_report(Line, sizeof Line, P, 0x1018, 64, 16);
  EXPECT_STREQ(Line, "alignguard: kernel: argument #1 'b' = 0x1018 - 16 is "
                     "8-byte aligned, not 64-byte aligned (8 bytes past a "
                     "boundary) at kernel.c:12:3, promised at kernel.h:4:10");
}

TEST(SiteDescriptorTest, NoFileIsNoOffset) {
  // The header: `file` and `promise_file` are 0 without debug info.
  HostModule HM;
  ASSERT_TRUE(HM.Ok);
  SiteDescriptors Sites(*HM.M);
  SiteInfo Info;
  Info.Kind = PromiseKind::AssumeBundle;
  Info.Function = "f";
  Info.Subject = "pointer %p";
  GlobalVariable *GV = descriptorGlobal(Sites.create(Info));
  ASSERT_TRUE(GV && GV->hasInitializer());
  TableBytes T = tableBytes(*GV, HM.M->getDataLayout());
  const alignguard_site *P = T.site(0);
  EXPECT_EQ(T.string(0, P->function), "f");
  EXPECT_EQ(T.string(0, P->subject), "pointer %p");
  EXPECT_EQ(P->file, 0u);
  EXPECT_EQ(P->line, 0u);
  EXPECT_EQ(P->column, 0u);
  EXPECT_EQ(P->promise_file, 0u) << "promise_file";
  EXPECT_EQ(P->promise_line, 0u);
  EXPECT_EQ(P->promise_column, 0u);
}

TEST(SiteDescriptorTest, TableIsTheRuntimesStruct) {
  HostModule HM;
  ASSERT_TRUE(HM.Ok);
  const DataLayout &DL = HM.M->getDataLayout();

  // Distinct values in every field, strings shared and not, a site without
  // debug info and a negative offset.
  std::vector<SiteInfo> Infos(3);
  const char *Subjects[] = {"argument #0 'out'", "argument #1 'in'",
                            "argument #2 'w'"};
  for (unsigned I = 0; I != 3; ++I) {
    SiteInfo &S = Infos[I];
    S.Kind = I == 2 ? PromiseKind::AssumeBundle : PromiseKind::ParamAttr;
    S.Function = "kernel";
    S.Subject = Subjects[I];
    S.Alignment = 64u >> I;
    S.Offset = I == 1 ? -16 : int64_t(I) * 8;
    if (I != 2) {
      S.File = "kernel.c";
      S.Line = 10 + I;
      S.Column = 20 + I;
      S.PromiseFile = I ? "kernel.h" : "kernel.c";
      S.PromiseLine = 30 + I;
      S.PromiseColumn = 40 + I;
    }
  }
  SiteDescriptors Sites(*HM.M);
  GlobalVariable *GV = Sites.createTable(Infos);
  ASSERT_TRUE(GV && GV->hasInitializer());
  EXPECT_TRUE(GV->isConstant());
  EXPECT_TRUE(GV->hasPrivateLinkage());
  EXPECT_FALSE(GV->hasGlobalUnnamedAddr()) << "reports dedupe by address";
  EXPECT_GE(GV->getAlignment(), alignof(alignguard_site));
  ASSERT_EQ(siteTable(GV), GV);
  EXPECT_EQ(tableSize(*GV), 3u);

  TableBytes T = tableBytes(*GV, DL);
  for (unsigned I = 0; I != 3; ++I) {
    const alignguard_site *P = T.site(I);
    const SiteInfo &S = Infos[I];
    EXPECT_EQ(P->version, ALIGNGUARD_SITE_VERSION) << I;
    EXPECT_EQ(P->kind, unsigned(S.Kind)) << I;
    EXPECT_EQ(T.string(I, P->function), "kernel") << I;
    EXPECT_EQ(T.string(I, P->subject), S.Subject) << I;
    EXPECT_EQ(T.string(I, P->file), I == 2 ? "<none>" : S.File) << I;
    EXPECT_EQ(P->line, S.Line) << I;
    EXPECT_EQ(P->column, S.Column) << I;
    EXPECT_EQ(P->alignment, S.Alignment) << I;
    EXPECT_EQ(int64_t(P->offset), S.Offset) << I;
    EXPECT_EQ(T.string(I, P->promise_file), I == 2 ? "<none>" : S.PromiseFile)
        << I;
    EXPECT_EQ(P->promise_line, S.PromiseLine) << I;
    EXPECT_EQ(P->promise_column, S.PromiseColumn) << I;
    std::optional<TableElement> E = tableElement(*GV, I);
    ASSERT_TRUE(E) << I;
    EXPECT_EQ(E->Alignment, S.Alignment) << I;
    EXPECT_EQ(E->Offset, S.Offset) << I;
  }
  EXPECT_FALSE(tableElement(*GV, 3));
  // Each string once: "kernel", three subjects, two files.
  auto *Strings = cast<ConstantDataArray>(
      cast<ConstantStruct>(GV->getInitializer())->getOperand(1));
  EXPECT_EQ(Strings->getNumElements(),
            strlen("kernel") + 1 + strlen(Subjects[0]) + 1 +
                strlen(Subjects[1]) + 1 + strlen(Subjects[2]) + 1 +
                strlen("kernel.c") + 1 + strlen("kernel.h") + 1);

  // The runtime reads the pass's bytes: the second element's report.
  char Line[256];
  alignguard_format_report(Line, sizeof Line, T.site(1), 0x2008, 32, -16);
  EXPECT_STREQ(Line, "alignguard: kernel: argument #1 'in' = 0x2008 + 16 is "
                     "8-byte aligned, not 32-byte aligned (24 bytes past a "
                     "boundary) at kernel.c:11:21, promised at "
                     "kernel.h:31:41");
}

TEST(SiteDescriptorTest, BytesFollowTheTargetsByteOrder) {
  for (bool Big : {false, true}) {
    LLVMContext Ctx;
    Module M("sites", Ctx);
    M.setDataLayout(Big ? "E-m:e-i64:64-n32:64" : "e-m:e-i64:64-n32:64");
    SiteDescriptors Sites(M);
    std::vector<SiteInfo> Infos(2);
    for (unsigned I = 0; I != 2; ++I) {
      Infos[I].Function = "f";
      Infos[I].Subject = I ? "b" : "a";
      Infos[I].Alignment = 0x1000u << I;
      Infos[I].Offset = -int64_t(I + 1);
    }
    GlobalVariable *GV = Sites.createTable(Infos);
    ASSERT_EQ(siteTable(GV), GV) << Big;
    StringRef Raw =
        cast<ConstantDataArray>(
            cast<ConstantStruct>(GV->getInitializer())->getOperand(0))
            ->getRawDataValues();
    EXPECT_EQ(Raw.take_front(4),
              Big ? StringRef("\0\0\0\3", 4) : StringRef("\3\0\0\0", 4))
        << "version, big-endian " << Big;
    // Descriptor 0's alignment (0x1000) and offset (-1), byte by byte.
    EXPECT_EQ(Raw.substr(32, 8), Big ? StringRef("\0\0\0\0\0\0\x10\0", 8)
                                     : StringRef("\0\x10\0\0\0\0\0\0", 8))
        << "alignment, big-endian " << Big;
    EXPECT_EQ(Raw.substr(40, 8),
              StringRef("\xff\xff\xff\xff\xff\xff\xff\xff", 8))
        << "offset, big-endian " << Big;
    for (unsigned I = 0; I != 2; ++I) {
      std::optional<TableElement> E = tableElement(*GV, I);
      ASSERT_TRUE(E) << Big;
      EXPECT_EQ(E->Alignment, Infos[I].Alignment) << Big;
      EXPECT_EQ(E->Offset, Infos[I].Offset) << Big;
    }
  }
}

TEST(SiteDescriptorTest, KindsAreTheRuntimesEnum) {
  struct KindPair {
    PromiseKind Pass;
    unsigned Runtime;
    const char *Name;
  };
  const KindPair Kinds[] = {
      {PromiseKind::AssumeBundle, ALIGNGUARD_KIND_ASSUME_BUNDLE,
       "ALIGNGUARD_KIND_ASSUME_BUNDLE"},
      {PromiseKind::AssumeICmp, ALIGNGUARD_KIND_ASSUME_ICMP,
       "ALIGNGUARD_KIND_ASSUME_ICMP"},
      {PromiseKind::ParamAttr, ALIGNGUARD_KIND_PARAM_ATTR,
       "ALIGNGUARD_KIND_PARAM_ATTR"},
      {PromiseKind::ReturnAttr, ALIGNGUARD_KIND_RETURN_ATTR,
       "ALIGNGUARD_KIND_RETURN_ATTR"},
      {PromiseKind::Access, ALIGNGUARD_KIND_ACCESS, "ALIGNGUARD_KIND_ACCESS"},
  };
  // What the enums say...
  for (const KindPair &K : Kinds)
    EXPECT_EQ(static_cast<unsigned>(K.Pass), K.Runtime) << K.Name;

  // ...and what the pass actually writes into a descriptor's kind field.
  LLVMContext Ctx;
  Module M("kinds", Ctx);
  SiteDescriptors Sites(M);
  for (const KindPair &K : Kinds) {
    SiteInfo Info;
    Info.Kind = K.Pass;
    Info.Function = "f";
    Info.Subject = "s";
    GlobalVariable *GV = descriptorGlobal(Sites.create(Info));
    ASSERT_TRUE(GV && GV->hasInitializer()) << K.Name;
    StringRef Raw =
        cast<ConstantDataArray>(
            cast<ConstantStruct>(GV->getInitializer())->getOperand(0))
            ->getRawDataValues();
    ASSERT_EQ(Raw.size(), size_t(SiteSize)) << K.Name;
    // The module's default layout is little-endian.
    EXPECT_EQ(support::endian::read32le(Raw.data() +
                                        offsetof(alignguard_site, kind)),
              K.Runtime)
        << K.Name;
  }
}

} // namespace
