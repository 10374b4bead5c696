//===- tests/unit/DLPackTest.cpp - Tests of alignguard_check_dltensor -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The DLPack helper of the runtime: the exact return code and message for
// aligned and misaligned data (with and without byte_offset), NULL data with
// and without elements, compact, non-compact and NULL strides, size-1 and
// size-0 dimensions, scalars, invalid arguments, and messages cut to small
// buffers. The helper keeps no state and never reads the tensor's data, so
// everything runs in-process, and the data addresses are made up (a read of
// one would crash the test).
//
//===----------------------------------------------------------------------===//

#include "alignguard/dlpack.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace {

constexpr unsigned Compact = ALIGNGUARD_REQUIRE_COMPACT;
constexpr int OK = ALIGNGUARD_DLTENSOR_OK;
constexpr int Misaligned = ALIGNGUARD_DLTENSOR_MISALIGNED;
constexpr int NotCompact = ALIGNGUARD_DLTENSOR_NOT_COMPACT;
constexpr int Invalid = ALIGNGUARD_DLTENSOR_INVALID;

/// The codes are part of the API (hosts switch on them): pin their values.
static_assert(OK == 0 && Misaligned == 1 && NotCompact == 2 && Invalid == 3,
              "documented result codes");

/// A tensor that owns its shape and strides. shape is NULL for ndim 0.
struct Tensor {
  std::vector<int64_t> Shape;
  std::optional<std::vector<int64_t>> Strides;
  DLTensor T{};

  Tensor(uintptr_t Data, uint64_t ByteOffset, std::vector<int64_t> ShapeIn,
         std::optional<std::vector<int64_t>> StridesIn)
      : Shape(std::move(ShapeIn)), Strides(std::move(StridesIn)) {
    T.data = reinterpret_cast<void *>(Data);
    T.device = {kDLCPU, 0};
    T.ndim = static_cast<int>(Shape.size());
    T.dtype = {kDLFloat, 32, 1};
    T.shape = Shape.empty() ? nullptr : Shape.data();
    T.strides = Strides ? Strides->data() : nullptr;
    T.byte_offset = ByteOffset;
  }
};

/// Runs the check with a roomy buffer that starts full of '#', and checks
/// that the message is NUL-terminated and that its return is the code.
std::string check(const DLTensor *T, size_t Alignment, unsigned Flags,
                  int *Code) {
  char Buf[512];
  std::memset(Buf, '#', sizeof Buf);
  *Code = alignguard_check_dltensor(T, Alignment, Flags, Buf, sizeof Buf);
  EXPECT_NE(std::memchr(Buf, '\0', sizeof Buf), nullptr) << "no terminator";
  return Buf;
}

//===-- The table ---------------------------------------------------------===//

struct DLCase {
  const char *Name;
  uintptr_t Data;
  uint64_t ByteOffset;
  std::vector<int64_t> Shape;                  // empty: ndim 0, a scalar
  std::optional<std::vector<int64_t>> Strides; // nullopt: NULL strides
  size_t Alignment;
  unsigned Flags;
  int Code;
  const char *Message;
};

/// gtest prints a failing case by name rather than as a byte dump.
void PrintTo(const DLCase &C, std::ostream *OS) { *OS << C.Name; }

const std::nullopt_t NullStrides = std::nullopt;

const DLCase Cases[] = {
    // Alignment of data + byte_offset.
    {"Aligned", 0x1000, 0, {4, 4}, NullStrides, 64, 0, OK, ""},
    {"AlignedWithByteOffset", 0x1000, 128, {4, 4}, NullStrides, 64, 0, OK, ""},
    {"ByteOffsetRealignsData", 0x1004, 60, {4, 4}, NullStrides, 64, 0, OK, ""},
    {"MisalignedData",
     0x1004,
     0,
     {4, 4},
     NullStrides,
     64,
     0,
     Misaligned,
     "data 0x1004 is 4 bytes past a 64-byte boundary"},
    {"MisalignedByByteOffset",
     0x1000,
     4,
     {4, 4},
     NullStrides,
     64,
     0,
     Misaligned,
     "byte_offset 4 leaves data 0x1000 4 bytes past a 64-byte boundary"},
    {"MisalignedDataAndByteOffset",
     0x1004,
     8,
     {4, 4},
     NullStrides,
     64,
     0,
     Misaligned,
     "byte_offset 8 leaves data 0x1004 12 bytes past a 64-byte boundary"},
    {"ByteOffsetLargerThanAlignment",
     0x1000,
     100,
     {4},
     NullStrides,
     32,
     0,
     Misaligned,
     "byte_offset 100 leaves data 0x1000 4 bytes past a 32-byte boundary"},
    {"HighAddress",
     0x7f12345678c0,
     0,
     {4},
     NullStrides,
     128,
     0,
     Misaligned,
     "data 0x7f12345678c0 is 64 bytes past a 128-byte boundary"},
    {"AlignmentOneAcceptsAnything",
     0x1003,
     1,
     {4},
     NullStrides,
     1,
     Compact,
     OK,
     ""},
    {"LargestAlignment",
     0x1000,
     0,
     {4},
     NullStrides,
     size_t{1} << 63,
     0,
     Misaligned,
     "data 0x1000 is 4096 bytes past a 9223372036854775808-byte "
     "boundary"},

    // NULL data.
    {"NullDataNoElements", 0, 0, {0, 4}, NullStrides, 64, Compact, OK, ""},
    {"NullDataNoElementsAnyByteOffset",
     0,
     4,
     {4, 0},
     NullStrides,
     64,
     Compact,
     OK,
     ""},
    {"NullDataWithElements",
     0,
     0,
     {4, 4},
     NullStrides,
     64,
     0,
     Invalid,
     "data is NULL but the tensor has 16 elements"},
    {"NullDataScalar",
     0,
     0,
     {},
     NullStrides,
     64,
     0,
     Invalid,
     "data is NULL but the tensor has 1 elements"},
    {"NullDataLargestCount",
     0,
     0,
     {3037000499, 3037000499},
     NullStrides,
     64,
     0,
     Invalid,
     "data is NULL but the tensor has 9223372030926249001 "
     "elements"},

    // Scalars.
    {"Scalar", 0x1000, 0, {}, NullStrides, 64, Compact, OK, ""},
    {"ScalarMisaligned",
     0x1001,
     0,
     {},
     NullStrides,
     16,
     Compact,
     Misaligned,
     "data 0x1001 is 1 bytes past a 16-byte boundary"},

    // Strides.
    {"NullStridesAreCompact",
     0x1000,
     0,
     {4, 4},
     NullStrides,
     64,
     Compact,
     OK,
     ""},
    {"RowMajorStrides",
     0x1000,
     0,
     {4, 4},
     std::vector<int64_t>{4, 1},
     64,
     Compact,
     OK,
     ""},
    {"RowMajorThreeDims",
     0x1000,
     0,
     {2, 3, 4},
     std::vector<int64_t>{12, 4, 1},
     64,
     Compact,
     OK,
     ""},
    {"Transposed",
     0x1000,
     0,
     {4, 4},
     std::vector<int64_t>{1, 4},
     64,
     Compact,
     NotCompact,
     "strides [1, 4] are not compact for shape [4, 4]"},
    {"TransposedWithoutTheFlag",
     0x1000,
     0,
     {4, 4},
     std::vector<int64_t>{1, 4},
     64,
     0,
     OK,
     ""},
    {"PaddedRows",
     0x1000,
     0,
     {4, 4},
     std::vector<int64_t>{8, 1},
     64,
     Compact,
     NotCompact,
     "strides [8, 1] are not compact for shape [4, 4]"},
    {"EveryOtherElement",
     0x1000,
     0,
     {8},
     std::vector<int64_t>{2},
     64,
     Compact,
     NotCompact,
     "strides [2] are not compact for shape [8]"},
    {"NegativeStride",
     0x1000,
     0,
     {4, 4},
     std::vector<int64_t>{-4, 1},
     64,
     Compact,
     NotCompact,
     "strides [-4, 1] are not compact for shape [4, 4]"},
    {"MostNegativeStride",
     0x1000,
     0,
     {2},
     std::vector<int64_t>{INT64_MIN},
     64,
     Compact,
     NotCompact,
     "strides [-9223372036854775808] are not compact for shape [2]"},
    {"BroadcastStrideZero",
     0x1000,
     0,
     {4, 4},
     std::vector<int64_t>{0, 1},
     64,
     Compact,
     NotCompact,
     "strides [0, 1] are not compact for shape [4, 4]"},

    // Size-1 dimensions may have any stride, and do not scale the others.
    {"SizeOneDimsOddStrides",
     0x1000,
     0,
     {1, 4, 1},
     std::vector<int64_t>{99, 1, -7},
     64,
     Compact,
     OK,
     ""},
    {"SizeOneMiddleDim",
     0x1000,
     0,
     {2, 1, 3},
     std::vector<int64_t>{3, 77, 1},
     64,
     Compact,
     OK,
     ""},
    {"SizeOneInnerDimPyTorchStyle",
     0x1000,
     0,
     {4, 1},
     std::vector<int64_t>{1, 1},
     64,
     Compact,
     OK,
     ""},
    {"AllSizeOne",
     0x1000,
     0,
     {1, 1},
     std::vector<int64_t>{0, 0},
     64,
     Compact,
     OK,
     ""},
    {"SizeOneDoesNotExcuseTheOthers",
     0x1000,
     0,
     {2, 1, 3},
     std::vector<int64_t>{1, 77, 2},
     64,
     Compact,
     NotCompact,
     "strides [1, 77, 2] are not compact for shape [2, 1, 3]"},

    // A tensor with no elements is compact whatever its strides; non-NULL
    // data is still checked.
    {"SizeZeroOddStrides",
     0x1000,
     0,
     {0, 4},
     std::vector<int64_t>{7, 7},
     64,
     Compact,
     OK,
     ""},
    {"SizeZeroInnerOddStrides",
     0x1000,
     0,
     {4, 0},
     std::vector<int64_t>{1, 9},
     64,
     Compact,
     OK,
     ""},
    {"SizeZeroHugeOtherDims",
     0,
     0,
     {0, 4294967296, 4294967296},
     std::vector<int64_t>{1, 1, 1},
     64,
     Compact,
     OK,
     ""},
    {"SizeZeroMisalignedData",
     0x1001,
     0,
     {0},
     NullStrides,
     64,
     Compact,
     Misaligned,
     "data 0x1001 is 1 bytes past a 64-byte boundary"},

    // The first problem wins: invalid, then misaligned, then not compact.
    {"MisalignedBeforeNotCompact",
     0x1004,
     0,
     {4, 4},
     std::vector<int64_t>{1, 4},
     64,
     Compact,
     Misaligned,
     "data 0x1004 is 4 bytes past a 64-byte boundary"},
    {"InvalidBeforeMisaligned",
     0x1004,
     0,
     {4, 4},
     NullStrides,
     3,
     Compact,
     Invalid,
     "alignment 3 is not a power of two"},

    // Invalid arguments.
    {"AlignmentZero",
     0x1000,
     0,
     {4},
     NullStrides,
     0,
     0,
     Invalid,
     "alignment 0 is not a power of two"},
    {"AlignmentThree",
     0x1000,
     0,
     {4},
     NullStrides,
     3,
     0,
     Invalid,
     "alignment 3 is not a power of two"},
    {"AlignmentNinetySix",
     0x1000,
     0,
     {4},
     NullStrides,
     96,
     0,
     Invalid,
     "alignment 96 is not a power of two"},
    {"UnknownFlags",
     0x1000,
     0,
     {4},
     NullStrides,
     64,
     6,
     Invalid,
     "unknown flags 0x6"},
    {"NegativeDimension",
     0x1000,
     0,
     {4, -1},
     NullStrides,
     64,
     0,
     Invalid,
     "shape [4, -1] has a negative dimension"},
    {"TooManyElements",
     0x1000,
     0,
     {4294967296, 4294967296},
     NullStrides,
     64,
     0,
     Invalid,
     "shape [4294967296, 4294967296] has more than 9223372036854775807 "
     "elements"},
};

class DLTensorCheck : public ::testing::TestWithParam<DLCase> {};

TEST_P(DLTensorCheck, ExactCodeAndMessage) {
  const DLCase &C = GetParam();
  Tensor T(C.Data, C.ByteOffset, C.Shape, C.Strides);
  int Code = -1;
  EXPECT_EQ(check(&T.T, C.Alignment, C.Flags, &Code), C.Message);
  EXPECT_EQ(Code, C.Code);
}

INSTANTIATE_TEST_SUITE_P(Cases, DLTensorCheck, ::testing::ValuesIn(Cases),
                         [](const ::testing::TestParamInfo<DLCase> &I) {
                           return std::string(I.param.Name);
                         });

//===-- Arguments the table cannot express --------------------------------===//

TEST(DLTensorArguments, NullTensor) {
  int Code = -1;
  EXPECT_EQ(check(nullptr, 64, 0, &Code), "tensor is NULL");
  EXPECT_EQ(Code, Invalid);
}

TEST(DLTensorArguments, NegativeNdim) {
  Tensor T(0x1000, 0, {4}, NullStrides);
  T.T.ndim = -1;
  int Code = -1;
  EXPECT_EQ(check(&T.T, 64, 0, &Code), "ndim -1 is negative");
  EXPECT_EQ(Code, Invalid);
}

TEST(DLTensorArguments, NullShapeWithDimensions) {
  Tensor T(0x1000, 0, {4, 4}, NullStrides);
  T.T.shape = nullptr;
  int Code = -1;
  EXPECT_EQ(check(&T.T, 64, Compact, &Code), "shape is NULL but ndim is 2");
  EXPECT_EQ(Code, Invalid);
}

TEST(DLTensorArguments, ScalarMayHaveShapeAndStridesOrNot) {
  int64_t Dummy[1] = {-5}; // never read: ndim is 0
  Tensor T(0x1000, 0, {}, NullStrides);
  T.T.shape = Dummy;
  T.T.strides = Dummy;
  int Code = -1;
  EXPECT_EQ(check(&T.T, 64, Compact, &Code), "");
  EXPECT_EQ(Code, OK);
}

//===-- The message buffer ------------------------------------------------===//

const char MisalignedMessage[] = "data 0x1004 is 4 bytes past a 64-byte "
                                 "boundary";

TEST(DLTensorMessage, EverySizeTruncatesSafely) {
  Tensor T(0x1004, 0, {4, 4}, NullStrides);
  const std::string Full = MisalignedMessage;
  for (size_t Size = 0; Size <= Full.size() + 2; ++Size) {
    SCOPED_TRACE("size " + std::to_string(Size));
    std::vector<char> Buf(Full.size() + 8, '#');
    EXPECT_EQ(alignguard_check_dltensor(&T.T, 64, 0, Buf.data(), Size),
              Misaligned);
    size_t Kept = Size == 0 ? 0 : std::min(Size - 1, Full.size());
    EXPECT_EQ(std::string(Buf.data(), Kept), Full.substr(0, Kept));
    if (Size > 0) {
      EXPECT_EQ(Buf[Kept], '\0');
    }
    for (size_t I = Size; I < Buf.size(); ++I)
      ASSERT_EQ(Buf[I], '#') << "byte " << I << " written past the buffer";
  }
}

TEST(DLTensorMessage, SizeEightKeepsSevenCharacters) {
  Tensor T(0x1004, 0, {4, 4}, NullStrides);
  char Buf[16];
  std::memset(Buf, '#', sizeof Buf);
  EXPECT_EQ(alignguard_check_dltensor(&T.T, 64, 0, Buf, 8), Misaligned);
  EXPECT_EQ(std::string(Buf), "data 0x");
  EXPECT_EQ(Buf[8], '#');
}

TEST(DLTensorMessage, SizeOneWritesOnlyTheTerminator) {
  Tensor T(0x1000, 0, {4, 4}, std::vector<int64_t>{1, 4});
  char Buf[2] = {'#', '#'};
  EXPECT_EQ(alignguard_check_dltensor(&T.T, 64, Compact, Buf, 1), NotCompact);
  EXPECT_EQ(Buf[0], '\0');
  EXPECT_EQ(Buf[1], '#');
}

TEST(DLTensorMessage, SizeZeroWritesNothing) {
  Tensor T(0x1004, 0, {4, 4}, NullStrides);
  char Byte = '#';
  EXPECT_EQ(alignguard_check_dltensor(&T.T, 64, 0, &Byte, 0), Misaligned);
  EXPECT_EQ(Byte, '#');
}

TEST(DLTensorMessage, NullMessageStillReturnsTheCode) {
  Tensor Bad(0x1004, 0, {4, 4}, NullStrides);
  Tensor Strided(0x1000, 0, {4, 4}, std::vector<int64_t>{1, 4});
  Tensor Good(0x1000, 0, {4, 4}, NullStrides);
  // msg_size is ignored when msg is NULL: nothing may be written.
  EXPECT_EQ(alignguard_check_dltensor(&Bad.T, 64, 0, nullptr, 100), Misaligned);
  EXPECT_EQ(alignguard_check_dltensor(&Strided.T, 64, Compact, nullptr, 100),
            NotCompact);
  EXPECT_EQ(alignguard_check_dltensor(&Good.T, 64, Compact, nullptr, 100), OK);
  EXPECT_EQ(alignguard_check_dltensor(nullptr, 64, 0, nullptr, 0), Invalid);
}

TEST(DLTensorMessage, SuccessClearsAnOldMessage) {
  Tensor T(0x1000, 0, {4, 4}, NullStrides);
  char Buf[8] = "old msg";
  EXPECT_EQ(alignguard_check_dltensor(&T.T, 64, Compact, Buf, sizeof Buf), OK);
  EXPECT_EQ(Buf[0], '\0');
}

TEST(DLTensorMessage, LongShapeIsCutWithoutOverflow) {
  // 198 dimensions of size 1, then 2 x 2 with a stride of 1 for both.
  std::vector<int64_t> Shape(200, 1), Strides(200, 1);
  Shape[198] = Shape[199] = 2;
  Tensor T(0x1000, 0, Shape, Strides);
  std::string Expected = "strides [";
  for (int I = 0; I < 200; ++I)
    Expected += I ? ", 1" : "1";
  Expected += "] are not compact for shape [";
  for (int I = 0; I < 200; ++I)
    Expected += (I ? ", " : "") + std::to_string(Shape[I]);
  Expected += "]";
  ASSERT_GT(Expected.size(), 600u);
  char Buf[256 + 32];
  std::memset(Buf, '#', sizeof Buf);
  EXPECT_EQ(alignguard_check_dltensor(&T.T, 64, Compact, Buf, 256), NotCompact);
  EXPECT_EQ(std::string(Buf), Expected.substr(0, 255));
  for (size_t I = 256; I < sizeof Buf; ++I)
    ASSERT_EQ(Buf[I], '#') << "byte " << I << " written past the buffer";
}

} // namespace
