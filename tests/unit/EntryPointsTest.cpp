//===- EntryPointsTest.cpp - Which definitions are entry points -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "EntryPoints.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <set>

using namespace alignguard;

namespace {

/// The names of M's entry points under Params.
std::set<std::string> entries(const char *IR, const char *Params = "") {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Err, Ctx);
  EXPECT_TRUE(M) << Err.getMessage().str();
  if (!M)
    return {};
  llvm::Expected<AlignGuardOptions> Opts = parseAlignGuardOptions(Params);
  EXPECT_TRUE(static_cast<bool>(Opts));
  EntryPoints EP(*M, *Opts);
  std::set<std::string> Names;
  for (llvm::Function &F : *M)
    if (EP.isEntry(F))
      Names.insert(F.getName().str());
  return Names;
}

using Names = std::set<std::string>;

const char *Plain = R"(
define void @ext() { ret void }
define internal void @int() { ret void }
define private void @priv() { ret void }
define linkonce_odr void @lodr() { ret void }
define weak_odr void @wodr() { ret void }
define weak void @weak() { ret void }
define available_externally void @ae() { ret void }
define void @optout() "no-align-guard" { ret void }
declare void @decl()
)";

TEST(EntryPoints, DefaultRuleTakesExternallyVisibleDefinitions) {
  EXPECT_EQ(entries(Plain), (Names{"ext", "weak"}));
}

TEST(EntryPoints, ExcludeNarrowsTheDefaultRule) {
  EXPECT_EQ(entries(Plain, "exclude=we*"), (Names{"ext"}));
}

TEST(EntryPoints, EntryGlobReplacesTheDefaultRule) {
  EXPECT_EQ(entries(Plain, "entry=*int*"), (Names{"int"}));
  EXPECT_EQ(entries(Plain, "entry=*o*;exclude=l*"),
            (Names{"wodr"})); // optout stays out; lodr excluded
}

TEST(EntryPoints, GPUCallingConventionsAreMarkers) {
  const char *IR = R"(
define ptx_kernel void @ptx() { ret void }
define amdgpu_kernel void @amd() { ret void }
define spir_kernel void @spir() { ret void }
define void @host() { ret void }
)";
  EXPECT_EQ(entries(IR), (Names{"ptx", "amd", "spir"}));
  EXPECT_EQ(entries(IR, "entry=host"), (Names{"ptx", "amd", "spir", "host"}));
}

TEST(EntryPoints, NVVMAnnotationsAreMarkers) {
  const char *IR = R"(
define void @kern() { ret void }
define void @off() { ret void }
define void @dev() { ret void }
!nvvm.annotations = !{!0, !1, !2}
!0 = !{void ()* @kern, !"kernel", i32 1}
!1 = !{void ()* @off, !"kernel", i32 0}
!2 = !{void ()* @dev, !"maxntidx", i32 1}
)";
  EXPECT_EQ(entries(IR), (Names{"kern"}));
}

TEST(EntryPoints, AttributeAndAnnotationAreMarkers) {
  const char *IR = R"(
@.str = private unnamed_addr constant [17 x i8] c"alignguard_entry\00", section "llvm.metadata"
@.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"k.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { i8*, i8*, i8*, i32, i8* }] [
  { i8*, i8*, i8*, i32, i8* } { i8* bitcast (void ()* @annotated to i8*), i8* getelementptr inbounds ([17 x i8], [17 x i8]* @.str, i32 0, i32 0), i8* getelementptr inbounds ([4 x i8], [4 x i8]* @.file, i32 0, i32 0), i32 3, i8* null },
  { i8*, i8*, i8*, i32, i8* } { i8* bitcast (void ()* @other to i8*), i8* getelementptr inbounds ([6 x i8], [6 x i8]* @.other, i32 0, i32 0), i8* getelementptr inbounds ([4 x i8], [4 x i8]* @.file, i32 0, i32 0), i32 4, i8* null }
], section "llvm.metadata"
define void @annotated() { ret void }
define void @other() { ret void }
define internal void @attributed() "alignguard-entry" { ret void }
define void @plain() { ret void }
define void @both_but_optout() "alignguard-entry" "no-align-guard" { ret void }
)";
  EXPECT_EQ(entries(IR), (Names{"annotated", "attributed"}));
}

} // namespace
