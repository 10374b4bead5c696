//===- SiteDescriptorTest.cpp - The IR descriptor is the C alignguard_site ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pass builds each site descriptor in IR (plugin/transform/RuntimeABI.cpp) and the
// runtime reads it as `struct alignguard_site` (alignguard/alignguard.h).
// Nothing but these tests ties the two together, so:
//
//   * the IR struct, laid out with the host's DataLayout (taken from the
//     native target, as clang would use it), has the C struct's field count,
//     field offsets, field sizes and total size (offsetof/sizeof on the same
//     host);
//   * every value SiteDescriptors::create is given lands in the field the C
//     struct reads it from (the layout alone cannot tell `line` from
//     `column`: both are i32), and field 0 is SiteVersion, which is
//     ALIGNGUARD_SITE_VERSION;
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

/// Field I of Init as an integer; fails the test when it is not one.
uint64_t intField(const ConstantStruct *Init, unsigned I) {
  auto *CI = dyn_cast<ConstantInt>(Init->getOperand(I));
  EXPECT_TRUE(CI) << "field " << I << " is not an integer constant";
  return CI ? CI->getZExtValue() : ~uint64_t(0);
}

/// Field I of Init as the text of the string it points to; "<null>" for a
/// null pointer.
std::string stringField(const ConstantStruct *Init, unsigned I) {
  Constant *Op = Init->getOperand(I);
  EXPECT_TRUE(Op->getType()->isPointerTy()) << "field " << I;
  if (isa<ConstantPointerNull>(Op))
    return "<null>";
  auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts());
  EXPECT_TRUE(GV) << "field " << I << " does not point to a global";
  if (!GV || !GV->hasInitializer())
    return "<not a global>";
  EXPECT_TRUE(GV->isConstant()) << "field " << I;
  EXPECT_TRUE(GV->hasPrivateLinkage()) << "field " << I;
  auto *Data = dyn_cast<ConstantDataArray>(GV->getInitializer());
  EXPECT_TRUE(Data && Data->isCString())
      << "field " << I << " is not a NUL-terminated string";
  return Data && Data->isCString() ? Data->getAsCString().str()
                                   : "<not a string>";
}

// The size of a member of the C struct.
#define MEMBER_SIZE(Field)                                                     \
  sizeof(static_cast<alignguard_site *>(nullptr)->Field)

TEST(SiteDescriptorTest, LayoutAndValuesMatchTheRuntimeStruct) {
  HostModule HM;
  ASSERT_TRUE(HM.Ok);
  const DataLayout &DL = HM.M->getDataLayout();
  // The host's compiler and the native target agree on pointers at least.
  ASSERT_EQ(DL.getPointerSize(), sizeof(void *));

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
  ASSERT_TRUE(GV->hasInitializer());
  auto *Init = dyn_cast<ConstantStruct>(GV->getInitializer());
  ASSERT_TRUE(Init) << "the descriptor's initializer is not a struct";
  StructType *ST = Init->getType();
  EXPECT_TRUE(ST->isLiteral()) << "expected an anonymous struct";
  EXPECT_FALSE(ST->isPacked());

  // Layout: the IR struct on this host is the C struct on this host.
  const StructLayout *SL = DL.getStructLayout(ST);
  struct Field {
    const char *Name;
    size_t Offset, Size;
  };
#define FIELD(F)                                                               \
  { #F, offsetof(alignguard_site, F), MEMBER_SIZE(F) }
  const Field Fields[] = {
      FIELD(version),      FIELD(kind),         FIELD(function),
      FIELD(subject),      FIELD(file),         FIELD(line),
      FIELD(column),       FIELD(alignment),    FIELD(offset),
      FIELD(promise_file), FIELD(promise_line), FIELD(promise_column)};
#undef FIELD
  constexpr unsigned NumFields = sizeof(Fields) / sizeof(Fields[0]);
  ASSERT_EQ(ST->getNumElements(), NumFields)
      << "the IR descriptor and struct alignguard_site have different field "
         "counts";
  for (unsigned I = 0; I != NumFields; ++I) {
    EXPECT_EQ(SL->getElementOffset(I), Fields[I].Offset)
        << "IR field " << I << " vs alignguard_site." << Fields[I].Name;
    EXPECT_EQ(DL.getTypeAllocSize(ST->getElementType(I)), Fields[I].Size)
        << "IR field " << I << " vs alignguard_site." << Fields[I].Name;
  }
  EXPECT_EQ(DL.getTypeAllocSize(ST), sizeof(alignguard_site));
  EXPECT_EQ(SL->getSizeInBytes(), sizeof(alignguard_site));
  EXPECT_LE(DL.getABITypeAlign(ST).value(), alignof(alignguard_site));

  // Values: each one is in the field the runtime reads it from.
  EXPECT_EQ(SiteVersion, ALIGNGUARD_SITE_VERSION);
  EXPECT_EQ(intField(Init, 0), SiteVersion) << "version";
  EXPECT_EQ(intField(Init, 0), ALIGNGUARD_SITE_VERSION) << "version";
  EXPECT_EQ(intField(Init, 1), unsigned(ALIGNGUARD_KIND_PARAM_ATTR)) << "kind";
  EXPECT_EQ(stringField(Init, 2), "kernel") << "function";
  EXPECT_EQ(stringField(Init, 3), "argument #1 'b'") << "subject";
  EXPECT_EQ(stringField(Init, 4), "kernel.c") << "file";
  EXPECT_EQ(intField(Init, 5), 12u) << "line";
  EXPECT_EQ(intField(Init, 6), 3u) << "column";
  EXPECT_EQ(intField(Init, 7), 64u) << "alignment";
  EXPECT_EQ(intField(Init, 8), 16u) << "offset";
  EXPECT_EQ(stringField(Init, 9), "kernel.h") << "promise_file";
  EXPECT_EQ(intField(Init, 10), 4u) << "promise_line";
  EXPECT_EQ(intField(Init, 11), 10u) << "promise_column";
}

TEST(SiteDescriptorTest, NoFileIsANullPointer) {
  // The header: `file` and `promise_file` are NULL without debug info.
  HostModule HM;
  ASSERT_TRUE(HM.Ok);
  SiteDescriptors Sites(*HM.M);
  SiteInfo Info;
  Info.Kind = PromiseKind::AssumeBundle;
  Info.Function = "f";
  Info.Subject = "pointer %p";
  GlobalVariable *GV = descriptorGlobal(Sites.create(Info));
  ASSERT_TRUE(GV && GV->hasInitializer());
  auto *Init = dyn_cast<ConstantStruct>(GV->getInitializer());
  ASSERT_TRUE(Init);
  ASSERT_EQ(Init->getNumOperands(), 12u);
  EXPECT_EQ(stringField(Init, 2), "f");
  EXPECT_EQ(stringField(Init, 3), "pointer %p");
  EXPECT_EQ(stringField(Init, 4), "<null>");
  EXPECT_EQ(intField(Init, 5), 0u);
  EXPECT_EQ(intField(Init, 6), 0u);
  EXPECT_EQ(stringField(Init, 9), "<null>") << "promise_file";
  EXPECT_EQ(intField(Init, 10), 0u);
  EXPECT_EQ(intField(Init, 11), 0u);
}

/// A table's bytes as the runtime sees them in memory: its descriptors,
/// then its strings (the struct's second part starts where the first ends:
/// both are byte arrays), in storage aligned as the global is.
struct TableBytes {
  std::vector<uint64_t> Storage;
  const alignguard_packed_site *site(unsigned I) const {
    return reinterpret_cast<const alignguard_packed_site *>(Storage.data()) + I;
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

TEST(SiteDescriptorTest, PackedTableIsTheRuntimesPackedStruct) {
  HostModule HM;
  ASSERT_TRUE(HM.Ok);
  const DataLayout &DL = HM.M->getDataLayout();
  EXPECT_EQ(sizeof(alignguard_packed_site), size_t(PackedSiteSize));
  EXPECT_EQ(PackedSiteVersion, ALIGNGUARD_PACKED_SITE_VERSION);

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
  EXPECT_GE(GV->getAlignment(), alignof(alignguard_packed_site));
  ASSERT_EQ(siteTable(GV), GV);
  EXPECT_EQ(tableSize(*GV), 3u);

  TableBytes T = tableBytes(*GV, DL);
  for (unsigned I = 0; I != 3; ++I) {
    const alignguard_packed_site *P = T.site(I);
    const SiteInfo &S = Infos[I];
    EXPECT_EQ(P->version, ALIGNGUARD_PACKED_SITE_VERSION) << I;
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
  alignguard_format_report(Line, sizeof Line,
                           reinterpret_cast<const alignguard_site *>(T.site(1)),
                           0x2008, 32, -16);
  EXPECT_STREQ(Line, "alignguard: kernel: argument #1 'in' = 0x2008 + 16 is "
                     "8-byte aligned, not 32-byte aligned (24 bytes past a "
                     "boundary) at kernel.c:11:21, promised at "
                     "kernel.h:31:41");
}

TEST(SiteDescriptorTest, PackedTableFollowsTheTargetsByteOrder) {
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
    auto *Init = dyn_cast<ConstantStruct>(GV->getInitializer());
    ASSERT_TRUE(Init) << K.Name;
    EXPECT_EQ(intField(Init, 1), K.Runtime) << K.Name;
  }
}

} // namespace
