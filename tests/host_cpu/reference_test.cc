// Hand-computed cases for the host_cpu reference operators.
#include "host_cpu/reference.h"

#include <gtest/gtest.h>

#include <limits>

#include "isa/error.h"

namespace tandem::host_cpu {
namespace {

TEST(HostCpuGemm, TwoByTwo) {
  // A = [[1,2,3],[4,5,6]], B = [[1,0,-1],[2,2,2]] (n x k)
  const std::vector<std::int8_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<std::int8_t> b = {1, 0, -1, 2, 2, 2};
  const auto c = gemm_s8(a, b, 2, 2, 3);
  EXPECT_EQ(c, (std::vector<std::int32_t>{-2, 12, -2, 30}));
}

TEST(HostCpuGemm, ExtremesAndShapeErrors) {
  const std::vector<std::int8_t> a = {-128, -128};
  const std::vector<std::int8_t> b = {-128, 127};
  EXPECT_EQ(gemm_s8(a, b, 1, 1, 2), (std::vector<std::int32_t>{16384 - 16256}));
  EXPECT_THROW(gemm_s8(a, b, 1, 1, 3), Error);
  EXPECT_THROW(gemm_s8(a, b, 2, 1, 2), Error);
}

TEST(HostCpuConv2d, ThreeByThreeWithPaddingAndBias) {
  Conv2dShape s;
  s.c = 1, s.h = 3, s.w = 3, s.o = 1, s.kh = 3, s.kw = 3, s.pad_h = 1, s.pad_w = 1;
  const std::vector<std::int8_t> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<std::int8_t> w(9, 1);  // box filter
  const std::vector<std::int32_t> bias = {100};
  const auto out = conv2d_nchw(in, w, bias, s);
  // Sums of the 3x3 neighbourhoods (zero outside) plus 100.
  EXPECT_EQ(out, (std::vector<std::int32_t>{112, 121, 116, 127, 145, 133, 124, 139, 128}));
}

TEST(HostCpuConv2d, StrideTwoTwoChannelsTwoOutputs) {
  Conv2dShape s;
  s.c = 2, s.h = 4, s.w = 4, s.o = 2, s.kh = 2, s.kw = 2, s.stride_h = 2, s.stride_w = 2;
  std::vector<std::int8_t> in(32);
  for (int i = 0; i < 32; ++i) in[i] = static_cast<std::int8_t>(i);
  // o0: +1 on channel 0 top-left only; o1: -1 on every tap of channel 1.
  std::vector<std::int8_t> w(16, 0);
  w[0] = 1;
  for (int i = 12; i < 16; ++i) w[i] = -1;
  const auto out = conv2d_nchw(in, w, {}, s);
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[2], 8);
  EXPECT_EQ(out[3], 10);
  // channel 1 starts at 16: window (0,0) = 16+17+20+21
  EXPECT_EQ(out[4], -74);
  EXPECT_EQ(out[7], -(26 + 27 + 30 + 31));
  EXPECT_THROW(conv2d_nchw(in, w, std::vector<std::int32_t>{1}, s), Error);
}

TEST(HostCpuAlu, EveryOp) {
  EXPECT_EQ(alu(isa::AluOp::kMin, -5, 3), -5);
  EXPECT_EQ(alu(isa::AluOp::kMax, -5, 3), 3);
  EXPECT_EQ(alu(isa::AluOp::kAdd, std::numeric_limits<std::int32_t>::max(), 1),
            std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(alu(isa::AluOp::kMul, 65536, 65536), 0);
  EXPECT_EQ(alu(isa::AluOp::kMul, -7, 6), -42);
  EXPECT_EQ(alu(isa::AluOp::kShr, -9, 1), -5);   // arithmetic: floor
  EXPECT_EQ(alu(isa::AluOp::kShr, 9, -2), 36);   // negative = left
  EXPECT_EQ(alu(isa::AluOp::kShr, -1, 40), -1);  // capped at 31
  EXPECT_EQ(alu(isa::AluOp::kShr, 1, -31), std::numeric_limits<std::int32_t>::min());
}

TEST(HostCpuRequant, ShiftClipReluNarrow) {
  const std::vector<std::int32_t> x = {1000, -1000, 7, -7, 300};
  EXPECT_EQ(shift_requantize(x, 2, -128, 127), (std::vector<std::int32_t>{127, -128, 1, -2, 75}));
  EXPECT_EQ(relu(x), (std::vector<std::int32_t>{1000, 0, 7, 0, 300}));
  EXPECT_EQ(narrow(x), (std::vector<std::int8_t>{-24, 24, 7, -7, 44}));
  EXPECT_THROW(shift_requantize(x, 0, 5, 4), Error);
}

}  // namespace
}  // namespace tandem::host_cpu
