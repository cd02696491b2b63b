// FunctionalCore LOAD/STORE: 2D DMA, each zero pad, micro-op decoding, acc
// loads, stores, counters and every bounds check of the memory instructions.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "sim_test_util.h"

namespace tandem::sim::testing {
namespace {

class CoreMem : public ::testing::Test {
 protected:
  CoreMem() : h(small_config()) {}
  // inp element e (8 bytes) of the DRAM image at kInpAddr is filled with e*8+j+1.
  void fill_inp_dram(int elems) {
    std::vector<std::int8_t> v(static_cast<std::size_t>(elems) * 8);
    std::iota(v.begin(), v.end(), 1);
    h.dram.write(CoreHarness::kInpAddr, v.data(), v.size());
  }
  std::int8_t inp(std::uint32_t elem, int j) const { return h.core.inp_sram()[elem * 8 + j]; }
  CoreHarness h;
};

TEST_F(CoreMem, StridedLoadWithoutPadding) {
  fill_inp_dram(16);
  const std::uint32_t base = h.elem_addr(CoreHarness::kInpAddr, MemType::kInp);
  // 2 rows of 3 elements, DRAM row stride 5 elements, into SRAM at 10.
  h.core.execute(load(MemType::kInp, 10, base + 1, 2, 3, 5), 0);
  // SRAM 10..12 <- DRAM elems 1..3, SRAM 13..15 <- DRAM elems 6..8.
  const int want[6] = {1, 2, 3, 6, 7, 8};
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(inp(10 + k, j), want[k] * 8 + j + 1) << k << "," << j;
  EXPECT_EQ(h.core.counters().insn_load, 1u);
  EXPECT_EQ(h.core.counters().bytes_load_inp, 48u);
  EXPECT_EQ(h.core.counters().pad_elems, 0u);
}

struct PadCase {
  const char* name;
  std::uint32_t y0, y1, x0, x1;
};

class CoreLoadPad : public CoreMem, public ::testing::WithParamInterface<PadCase> {};

// One 2x2 block of DRAM elements (0,1 / 4,5) loaded with a single pad of 1
// or all pads at once; the expected SRAM image is spelled out by hand.
TEST_P(CoreLoadPad, ZeroPadding) {
  const PadCase p = GetParam();
  fill_inp_dram(40);
  // Pre-fill the SRAM with non-zero data so padding must overwrite it.
  h.core.execute(
      load(MemType::kInp, 0, h.elem_addr(CoreHarness::kInpAddr, MemType::kInp) + 8, 1, 32, 0), 0);
  Instruction i =
      load(MemType::kInp, 0, h.elem_addr(CoreHarness::kInpAddr, MemType::kInp), 2, 2, 4);
  i.y_pad_0 = p.y0;
  i.y_pad_1 = p.y1;
  i.x_pad_0 = p.x0;
  i.x_pad_1 = p.x1;
  h.core.reset_counters();
  h.core.execute(i, 3);
  const std::uint32_t W = p.x0 + 2 + p.x1, H = p.y0 + 2 + p.y1;
  // Expected DRAM element (or -1 for zero) at each SRAM position.
  std::vector<int> want(W * H, -1);
  const int block[2][2] = {{0, 1}, {4, 5}};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) want[(p.y0 + y) * W + p.x0 + x] = block[y][x];
  for (std::uint32_t k = 0; k < W * H; ++k)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(inp(k, j), want[k] < 0 ? 0 : want[k] * 8 + j + 1) << p.name << " elem " << k;
  EXPECT_EQ(h.core.counters().pad_elems, W * H - 4);
  EXPECT_EQ(h.core.counters().bytes_load_inp, 32u);
  // The element after the padded block keeps its old value.
  EXPECT_EQ(inp(W * H, 0), static_cast<std::int8_t>((8 + W * H) * 8 + 1));
}

INSTANTIATE_TEST_SUITE_P(Pads, CoreLoadPad,
                         ::testing::Values(PadCase{"y_pad_0", 1, 0, 0, 0},
                                           PadCase{"y_pad_1", 0, 1, 0, 0},
                                           PadCase{"x_pad_0", 0, 0, 1, 0},
                                           PadCase{"x_pad_1", 0, 0, 0, 1},
                                           PadCase{"all", 1, 2, 2, 1}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(CoreMem, HandCheckedAllPads) {
  // 1x1 element with y_pad_0=1, x_pad_0=1, x_pad_1=1: a 2x3 image whose only
  // data element is SRAM index 4 (row 1, column 1).
  fill_inp_dram(4);
  Instruction i =
      load(MemType::kInp, 20, h.elem_addr(CoreHarness::kInpAddr, MemType::kInp) + 2, 1, 1, 1);
  i.y_pad_0 = 1;
  i.x_pad_0 = 1;
  i.x_pad_1 = 1;
  h.core.execute(i, 0);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(inp(20 + k, 0), k == 4 ? 17 : 0) << k;
  EXPECT_EQ(inp(24, 7), 24);
}

TEST_F(CoreMem, WgtLoad) {
  std::vector<std::int8_t> v(128);
  for (int k = 0; k < 128; ++k) v[k] = static_cast<std::int8_t>(k - 64);
  h.put_i8(MemType::kWgt, v, 7);
  for (int k = 0; k < 128; ++k) EXPECT_EQ(h.core.wgt_sram()[7 * 64 + k], k - 64);
  EXPECT_EQ(h.core.counters().bytes_load_wgt, 128u);
}

TEST_F(CoreMem, AccLoadIsInt32) {
  std::vector<std::int32_t> v(16);
  for (int k = 0; k < 16; ++k) v[k] = (k % 2 ? -1 : 1) * (k * 100000 + 7);
  h.put_acc(v, 3);
  EXPECT_EQ(h.acc_row(3), std::vector<std::int32_t>(v.begin(), v.begin() + 8));
  EXPECT_EQ(h.acc_row(4), std::vector<std::int32_t>(v.begin() + 8, v.end()));
  EXPECT_EQ(h.core.counters().bytes_load_acc, 64u);
  // An acc load does not touch the output buffer.
  EXPECT_EQ(h.out_row(3), std::vector<std::int8_t>(8, 0));
}

TEST_F(CoreMem, UopLoadDecodesWordsWithStride) {
  std::vector<std::uint32_t> words;
  for (std::uint32_t k = 0; k < 6; ++k)
    words.push_back(h.codec.encode_uop(Uop{k, 100 + k, 60 - k}));
  h.dram.write(CoreHarness::kUopAddr, words.data(), words.size() * 4);
  // Two rows of 2 words, stride 3: DRAM words 0,1,3,4 -> uop SRAM 5..8.
  h.core.execute(load(MemType::kUop, 5, h.elem_addr(CoreHarness::kUopAddr, MemType::kUop), 2, 2, 3),
                 0);
  EXPECT_EQ(h.core.uop_sram()[5], (Uop{0, 100, 60}));
  EXPECT_EQ(h.core.uop_sram()[6], (Uop{1, 101, 59}));
  EXPECT_EQ(h.core.uop_sram()[7], (Uop{3, 103, 57}));
  EXPECT_EQ(h.core.uop_sram()[8], (Uop{4, 104, 56}));
  EXPECT_EQ(h.core.counters().bytes_load_uop, 16u);
}

TEST_F(CoreMem, StoreWritesStridedRows) {
  // Make out rows 0..3 hold 1..4 in every byte via ALU ADD imm on reset rows.
  h.put_uops({{0, 0, 0}});
  Instruction r = alu(AluOp::kAdd, 0, 1, true, 0, 4, 1);
  r.reset = true;
  r.dst_factor_out = 1;
  h.core.execute(r, 0);
  for (int a = 0; a < 4; ++a) {
    Instruction add = alu(AluOp::kAdd, 0, 1, true, a + 1);
    h.put_uops({{static_cast<std::uint32_t>(a), 0, 0}});
    h.core.execute(add, 0);
  }
  const std::uint32_t out_base = h.elem_addr(CoreHarness::kOutAddr, MemType::kOut);
  h.core.execute(store(0, out_base, 2, 2, 3), 0);  // rows of 2 elements, DRAM stride 3
  std::vector<std::int8_t> dram(6 * 8, 0x55);
  h.dram.read(CoreHarness::kOutAddr, dram.data(), dram.size());
  const int want[6] = {1, 2, 0, 3, 4, 0};  // element 2 is skipped by the stride (stays 0)
  for (int e = 0; e < 6; ++e)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(dram[e * 8 + j], want[e]) << e;
  EXPECT_EQ(h.core.counters().insn_store, 1u);
  EXPECT_EQ(h.core.counters().bytes_store_out, 32u);
}

TEST_F(CoreMem, SramOutOfRangeForEachBuffer) {
  // depths: uop 64, inp 128, wgt 64, acc 128, out 128.
  expect_error([&] { h.core.execute(load(MemType::kInp, 120, 0, 2, 5, 5), 11); },
               {"instruction 11", "LOAD", "inp index 128", "inp depth 128"});
  expect_error([&] { h.core.execute(load(MemType::kWgt, 70, 0, 1, 1, 1), 12); },
               {"instruction 12", "LOAD", "wgt index 70", "wgt depth 64"});
  expect_error([&] { h.core.execute(load(MemType::kAcc, 127, 0, 1, 2, 2), 13); },
               {"instruction 13", "LOAD", "acc index 128", "acc depth 128"});
  expect_error([&] { h.core.execute(load(MemType::kUop, 60, 0, 1, 5, 5), 14); },
               {"instruction 14", "LOAD", "uop index 64", "uop depth 64"});
  expect_error([&] { h.core.execute(store(100, 0, 3, 10, 10), 15); },
               {"instruction 15", "STORE", "out index 128", "out depth 128"});
  // Padding counts: 1 element + pads of 15 columns on each side at base 100.
  Instruction p = load(MemType::kInp, 100, 0, 1, 1, 1);
  p.x_pad_0 = 15;
  p.x_pad_1 = 15;
  expect_error([&] { h.core.execute(p, 16); }, {"instruction 16", "inp index 128", "depth 128"});
  EXPECT_EQ(h.core.counters().insn_load, 0u);  // failed instructions have no effect
}

TEST_F(CoreMem, DramOutOfRange) {
  const std::uint32_t last = static_cast<std::uint32_t>((1u << 20) / 8);  // inp elements in DRAM
  expect_error([&] { h.core.execute(load(MemType::kInp, 0, last - 1, 2, 1, 1), 21); },
               {"instruction 21", "LOAD", "DRAM read", "16 bytes", "0xffff8", "1048576"});
  expect_error([&] { h.core.execute(store(0, last, 1, 1, 1), 22); },
               {"instruction 22", "STORE", "DRAM write", "capacity of 1048576"});
  // A large element index must not overflow the byte address.
  expect_error([&] { h.core.execute(load(MemType::kAcc, 0, 0xffffffffu, 1, 1, 1), 23); },
               {"instruction 23", "DRAM read"});
  // Zero-sized transfers touch no DRAM and are legal anywhere.
  h.core.execute(load(MemType::kInp, 0, 0xffffffffu, 0, 4, 4), 24);
}

TEST_F(CoreMem, ValidationRulesApply) {
  Instruction s = store(0, 0, 1, 1, 1);
  s.x_pad_0 = 1;
  expect_error([&] { h.core.execute(s, 31); }, {"instruction 31", "pad"});
  Instruction u = load(MemType::kUop, 0, 0, 1, 1, 1);
  u.y_pad_1 = 1;
  expect_error([&] { h.core.execute(u, 32); }, {"instruction 32", "cannot pad"});
}

}  // namespace
}  // namespace tandem::sim::testing
