//===- IRShapesTest.cpp - What counts as natural for an access
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//-------------===//
//
// Two questions with two answers (IRShapes.h): how much alignment an access
// of a type may state without promising anything (naturalAccessAlignment:
// beyond it the access is over-aligned, a finding), and how much it can
// count on without any promise (abiElementAlignment: what recover and the
// fallback copy lower an access to). They differ where a datalayout gives
// a scalar less ABI alignment than its size: LLVM's default layout (a
// module without `target datalayout`) gives i64 an ABI alignment of 4, and
// so does i386's.
//
//===----------------------------------------------------------------------===//
#include "IRShapes.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Type.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>

using namespace alignguard;
using namespace llvm;

namespace {

// LLVM's default layout (a module without `target datalayout`), x86-64's,
// and i386's (i64 and x86_fp80 aligned to 4).
const char *const DefaultLayout = "";
const char *const X86_64 = "e-m:e-i64:64-f80:128-n8:16:32:64-S128";
const char *const I386 = "e-m:e-p:32:32-f64:32:64-f80:32-n8:16:32-S128";

struct Case {
  const char *Layout;
  const char *What;
  std::function<Type *(LLVMContext &)> Make;
  uint64_t Natural; ///< naturalAccessAlignment
  uint64_t ABI;     ///< abiElementAlignment
};

Type *i32(LLVMContext &C) { return Type::getInt32Ty(C); }
Type *i64(LLVMContext &C) { return Type::getInt64Ty(C); }
Type *f80(LLVMContext &C) { return Type::getX86_FP80Ty(C); }
std::function<Type *(LLVMContext &)> vec(Type *(*Elem)(LLVMContext &),
                                         unsigned N) {
  return [=](LLVMContext &C) { return FixedVectorType::get(Elem(C), N); };
}

TEST(IRShapes, NaturalAndABIElementAlignment) {
  const Case Cases[] = {
      // No datalayout: i64's ABI alignment is 4, its store size 8. `align
      // 8` is natural, for i64 and <2 x i64> alike; without a promise an
      // access counts on 4 only.
      {DefaultLayout, "i64", i64, 8, 4},
      {DefaultLayout, "<2 x i64>", vec(i64, 2), 8, 4},
      // A vector is natural at its element, not its width: `align 16` on
      // <4 x i32> is over-aligned with any layout.
      {DefaultLayout, "<4 x i32>", vec(i32, 4), 4, 4},
      {X86_64, "<4 x i32>", vec(i32, 4), 4, 4},
      {X86_64, "i64", i64, 8, 8},
      // x86_fp80 is stored in 10 bytes: x86-64 aligns it to 16 (natural
      // 16); i386 to 4, where 8 is natural (no power of two between 8
      // and 10) and 16 is not.
      {X86_64, "x86_fp80", f80, 16, 16},
      {I386, "x86_fp80", f80, 8, 4},
      {I386, "i64", i64, 8, 4},
      // An aggregate is natural at its ABI alignment, whatever its size.
      {DefaultLayout, "{i32, i32}",
       [](LLVMContext &C) {
         return StructType::get(C, {i32(C), i32(C)});
       },
       4, 4},
  };
  for (const Case &C : Cases) {
    LLVMContext Ctx;
    DataLayout DL(C.Layout);
    Type *T = C.Make(Ctx);
    SCOPED_TRACE(std::string(C.What) + " in \"" + C.Layout + "\"");
    EXPECT_EQ(naturalAccessAlignment(T, DL).value(), C.Natural);
    EXPECT_EQ(abiElementAlignment(T, DL).value(), C.ABI);
  }
}

} // namespace
