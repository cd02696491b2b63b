// FunctionalCore GEMM and ALU on hand-checked data: plain products, affine
// loop factors, reset, every ALU op with immediate and tensor operands,
// negative shifts, wraparound, narrowing, and the compute bounds checks.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "sim_test_util.h"

namespace tandem::sim::testing {
namespace {

using V32 = std::vector<std::int32_t>;
using V8 = std::vector<std::int8_t>;

// Runs every test on the SIMD and on the scalar kernels.
class CoreCompute : public ::testing::TestWithParam<bool> {
 protected:
  CoreCompute() : h(small_config()) { h.core.set_simd(GetParam()); }
  // An 8x8 weight block from a function of (o, i).
  template <class F>
  static V8 block(F f) {
    V8 w(64);
    for (int o = 0; o < 8; ++o)
      for (int i = 0; i < 8; ++i) w[o * 8 + i] = static_cast<std::int8_t>(f(o, i));
    return w;
  }
  CoreHarness h;
};

TEST_P(CoreCompute, GemmSingleUop) {
  h.put_i8(MemType::kInp, {1, 2, 3, 4, 5, 6, 7, 8}, 0);
  h.put_i8(MemType::kWgt, block([](int o, int i) { return (o == i) + (i == 0 ? o : 0); }), 0);
  h.put_uops({{0, 0, 0}});
  h.core.reset_counters();
  h.core.execute(gemm(0, 1), 0);
  EXPECT_EQ(h.acc_row(0), (V32{1, 3, 5, 7, 9, 11, 13, 15}));
  EXPECT_EQ(h.out_row(0), (V8{1, 3, 5, 7, 9, 11, 13, 15}));
  h.core.execute(gemm(0, 1), 1);  // accumulates
  EXPECT_EQ(h.acc_row(0), (V32{2, 6, 10, 14, 18, 22, 26, 30}));
  EXPECT_EQ(h.core.counters().insn_gemm, 2u);
  EXPECT_EQ(h.core.counters().uop_gemm, 2u);
  EXPECT_EQ(h.core.counters().macs, 128u);
  EXPECT_EQ(h.core.counters().uop_gemm_reset, 0u);
}

TEST_P(CoreCompute, GemmExtremeValuesAndNarrowing) {
  // inp rows: all 3 / all -7 / all -128 / all 127; wgt blocks: all 100 / 50 / -128 / 127.
  V8 inp, wgt;
  for (int v : {3, -7, -128, 127}) inp.insert(inp.end(), 8, static_cast<std::int8_t>(v));
  for (int v : {100, 50, -128, 127}) wgt.insert(wgt.end(), 64, static_cast<std::int8_t>(v));
  h.put_i8(MemType::kInp, inp, 0);
  h.put_i8(MemType::kWgt, wgt, 0);
  h.put_uops({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 2, 3}});
  h.core.execute(gemm(0, 5), 0);
  EXPECT_EQ(h.acc_row(0), V32(8, 2400));
  EXPECT_EQ(h.out_row(0), V8(8, 96));  // 2400 = 0x960
  EXPECT_EQ(h.acc_row(1), V32(8, -2800));
  EXPECT_EQ(h.out_row(1), V8(8, 16));  // -2800 = 0x...f510
  EXPECT_EQ(h.acc_row(2), V32(8, 131072));
  EXPECT_EQ(h.out_row(2), V8(8, 0));
  EXPECT_EQ(h.acc_row(3), V32(8, 129032));
  EXPECT_EQ(h.out_row(3), V8(8, 8));
  EXPECT_EQ(h.acc_row(4), V32(8, -130048));
  EXPECT_EQ(h.out_row(4), V8(8, 0));
}

TEST_P(CoreCompute, GemmAccumulatorWraps) {
  h.put_acc(V32(8, INT_MAX), 0);
  h.put_i8(MemType::kInp, {1, 0, 0, 0, 0, 0, 0, 0}, 0);
  h.put_i8(MemType::kWgt, block([](int o, int i) { return o == i; }), 0);
  h.put_uops({{0, 0, 0}});
  h.core.execute(gemm(0, 1), 0);
  EXPECT_EQ(h.acc_row(0),
            (V32{INT_MIN, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX}));
  EXPECT_EQ(h.out_row(0), (V8{0, -1, -1, -1, -1, -1, -1, -1}));
}

TEST_P(CoreCompute, GemmAffineFactors) {
  // inp[s] = all s+1 (s = 0..3); wgt[0] = identity, wgt[1] = 2 * identity.
  V8 inp;
  for (int s = 0; s < 4; ++s) inp.insert(inp.end(), 8, static_cast<std::int8_t>(s + 1));
  h.put_i8(MemType::kInp, inp, 0);
  V8 wgt = block([](int o, int i) { return o == i; });
  V8 w2 = block([](int o, int i) { return 2 * (o == i); });
  wgt.insert(wgt.end(), w2.begin(), w2.end());
  h.put_i8(MemType::kWgt, wgt, 0);
  h.put_uops({{10, 0, 0}});
  Instruction g = gemm(0, 1, 2, 2);
  g.dst_factor_out = 2;
  g.dst_factor_in = 1;
  g.src_factor_out = 1;
  g.src_factor_in = 2;
  g.wgt_factor_out = 0;
  g.wgt_factor_in = 1;
  h.core.execute(g, 0);
  // (i0,i1) -> (a, s, w): (0,0)->(10,0,0) (0,1)->(11,2,1) (1,0)->(12,1,0) (1,1)->(13,3,1)
  EXPECT_EQ(h.acc_row(10), V32(8, 1));
  EXPECT_EQ(h.acc_row(11), V32(8, 6));
  EXPECT_EQ(h.acc_row(12), V32(8, 2));
  EXPECT_EQ(h.acc_row(13), V32(8, 8));
  EXPECT_EQ(h.acc_row(14), V32(8, 0));
  EXPECT_EQ(h.out_row(13), V8(8, 8));
  EXPECT_EQ(h.core.counters().uop_gemm, 4u);
}

TEST_P(CoreCompute, GemmResetZeroesOnlyItsRows) {
  V32 acc;
  for (int r = 0; r < 4; ++r) acc.insert(acc.end(), 8, 1000 + r);
  h.put_acc(acc, 0);
  h.put_uops({{0, 0, 0}});
  Instruction add = alu(AluOp::kAdd, 0, 1, true, 1, 4, 1);  // out rows 0..3 = narrow(1001+r)
  add.dst_factor_out = 1;
  h.core.execute(add, 0);
  // Reset rows 1 and 3; the src index it forms (100 + 50) would be out of
  // range but a reset reads no input.
  h.put_uops({{1, 100, 0}});
  Instruction r = gemm(0, 1, 1, 2, true);
  r.dst_factor_in = 2;
  r.src_factor_in = 50;
  h.core.reset_counters();
  h.core.execute(r, 0);
  EXPECT_EQ(h.acc_row(0), V32(8, 1001));
  EXPECT_EQ(h.acc_row(1), V32(8, 0));
  EXPECT_EQ(h.acc_row(2), V32(8, 1003));
  EXPECT_EQ(h.acc_row(3), V32(8, 0));
  EXPECT_EQ(h.out_row(1), V8(8, 0));
  EXPECT_EQ(h.out_row(2), V8(8, static_cast<std::int8_t>(1003 & 0xff)));
  EXPECT_EQ(h.core.counters().uop_gemm, 2u);
  EXPECT_EQ(h.core.counters().uop_gemm_reset, 2u);
  EXPECT_EQ(h.core.counters().macs, 0u);
}

const V32 kX = {5, -5, 100, -100, INT_MAX, INT_MIN, 0, 7};

struct AluCase {
  const char* name;
  AluOp op;
  bool use_imm;
  std::int32_t imm;
  V32 y;  // tensor operand (row 1) when !use_imm
  V32 want;
};

class CoreAlu : public ::testing::TestWithParam<AluCase> {
 protected:
  CoreAlu() : h(small_config()) {}
  CoreHarness h;
};

std::vector<AluCase> alu_cases() {
  const V32 y = {3, -3, -200, 50, 1, -1, 0, 7};
  const V32 sh = {1, 2, -1, -3, 31, 40, -40, 0};
  return {
      {"min_tensor", AluOp::kMin, false, 0, y, {3, -5, -200, -100, 1, INT_MIN, 0, 7}},
      {"max_tensor", AluOp::kMax, false, 0, y, {5, -3, 100, 50, INT_MAX, -1, 0, 7}},
      {"add_tensor", AluOp::kAdd, false, 0, y, {8, -8, -100, -50, INT_MIN, INT_MAX, 0, 14}},
      {"mul_tensor", AluOp::kMul, false, 0, y, {15, 15, -20000, -5000, INT_MAX, INT_MIN, 0, 49}},
      {"shr_tensor", AluOp::kShr, false, 0, sh, {2, -2, 200, -800, 0, -1, 0, 7}},
      {"min_imm", AluOp::kMin, true, 6, {}, {5, -5, 6, -100, 6, INT_MIN, 0, 6}},
      {"max_imm_relu", AluOp::kMax, true, 0, {}, {5, 0, 100, 0, INT_MAX, 0, 0, 7}},
      {"add_imm",
       AluOp::kAdd,
       true,
       -32768,
       {},
       {-32763, -32773, -32668, -32868, 2147450879, 2147450880, -32768, -32761}},
      {"mul_imm",
       AluOp::kMul,
       true,
       32767,
       {},
       {163835, -163835, 3276700, -3276700, 2147450881, INT_MIN, 0, 229369}},
      {"shr_imm", AluOp::kShr, true, 2, {}, {1, -2, 25, -25, 536870911, -536870912, 0, 1}},
      {"shr_imm_negative_is_shl", AluOp::kShr, true, -3, {}, {40, -40, 800, -800, -8, 0, 0, 56}},
  };
}

TEST_P(CoreAlu, Op) {
  const AluCase& c = GetParam();
  V32 acc = kX;
  const V32 y = c.y.empty() ? V32(8, 0) : c.y;
  acc.insert(acc.end(), y.begin(), y.end());
  h.put_acc(acc, 0);
  h.put_uops({{0, 1, 0}});
  h.core.reset_counters();
  h.core.execute(alu(c.op, 0, 1, c.use_imm, c.imm), 0);
  EXPECT_EQ(h.acc_row(0), c.want);
  V8 narrowed;
  for (std::int32_t v : c.want) narrowed.push_back(static_cast<std::int8_t>(v & 0xff));
  EXPECT_EQ(h.out_row(0), narrowed);
  EXPECT_EQ(h.core.counters().insn_alu, 1u);
  EXPECT_EQ(h.core.counters().uop_alu, 1u);
}

INSTANTIATE_TEST_SUITE_P(Ops, CoreAlu, ::testing::ValuesIn(alu_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_P(CoreCompute, NarrowingTruncates) {
  h.put_acc({300, -129, 128, 255, 256, -1, 0x12345678, INT_MIN}, 5);
  h.put_uops({{5, 0, 0}});
  h.core.execute(alu(AluOp::kAdd, 0, 1, true, 0), 0);
  EXPECT_EQ(h.out_row(5), (V8{44, 127, -128, -1, 0, -1, 120, 0}));
}

TEST_P(CoreCompute, AluSameRowAndFactors) {
  V32 acc;
  for (int r = 0; r < 6; ++r) acc.insert(acc.end(), 8, 10 * (r + 1));
  h.put_acc(acc, 0);
  h.put_uops({{0, 0, 0}});
  h.core.execute(alu(AluOp::kAdd, 0, 1), 0);  // acc[0] += acc[0]
  EXPECT_EQ(h.acc_row(0), V32(8, 20));
  // (i0) -> (a, s): (0) -> (1, 4), (1) -> (3, 5): acc[a] = max(acc[a], acc[s]).
  h.put_uops({{1, 4, 0}});
  Instruction m = alu(AluOp::kMax, 0, 1, false, 0, 2, 1);
  m.dst_factor_out = 2;
  m.src_factor_out = 1;
  h.core.execute(m, 0);
  EXPECT_EQ(h.acc_row(1), V32(8, 50));
  EXPECT_EQ(h.acc_row(2), V32(8, 30));
  EXPECT_EQ(h.acc_row(3), V32(8, 60));
  EXPECT_EQ(h.out_row(3), V8(8, 60));
  // ALU reset zeroes acc and out.
  Instruction r = alu(AluOp::kMin, 0, 1, false, 0, 1, 1);
  r.reset = true;
  h.core.execute(r, 0);
  EXPECT_EQ(h.acc_row(1), V32(8, 0));
  EXPECT_EQ(h.out_row(1), V8(8, 0));
}

TEST_P(CoreCompute, ComputeIndicesOutOfRange) {
  // depths: inp 128, wgt 64, acc 128.
  h.put_uops({{120, 0, 0}});
  Instruction g = gemm(0, 1, 1, 3);
  g.dst_factor_in = 4;  // dst 120, 124, 128
  expect_error([&] { h.core.execute(g, 41); },
               {"instruction 41 (GEMM)", "acc index 128", "acc depth 128", "iter_out 0",
                "iter_in 2", "uop 0", "dst_factor_in 4"});
  h.put_uops({{0, 100, 0}});
  g = gemm(0, 1, 2, 1);
  g.src_factor_out = 30;  // src 100, 130
  expect_error([&] { h.core.execute(g, 42); },
               {"instruction 42 (GEMM)", "inp index 130", "inp depth 128", "iter_out 1"});
  h.put_uops({{0, 0, 63}});
  g = gemm(0, 1, 1, 2);
  g.wgt_factor_in = 1;  // wgt 63, 64
  expect_error([&] { h.core.execute(g, 43); },
               {"instruction 43 (GEMM)", "wgt index 64", "wgt depth 64", "iter_in 1"});
  h.put_uops({{0, 127, 0}});
  Instruction a = alu(AluOp::kAdd, 0, 1, false, 0, 1, 2);
  a.src_factor_in = 1;  // src 127, 128 (acc)
  expect_error([&] { h.core.execute(a, 44); },
               {"instruction 44 (ALU)", "acc index 128", "acc depth 128", "src"});
  a.use_imm = true;  // an immediate ALU reads no src: legal
  h.core.execute(a, 45);
  // The first offender in execution order: uop 1 at (0, 1) comes before
  // uop 0 at (1, 1).
  h.put_uops({{100, 0, 0}, {120, 0, 0}});
  g = gemm(0, 2, 2, 2);
  g.dst_factor_out = 27;  // uop 0: 100 108 127 135; uop 1: 120 128 147 155
  g.dst_factor_in = 8;
  expect_error([&] { h.core.execute(g, 46); }, {"acc index 128", "iter_out 0, iter_in 1, uop 1"});
  h.put_uops({{100, 0, 0}, {127, 0, 0}});
  g = gemm(0, 2, 2, 1);
  g.dst_factor_out = 1;  // uop 0: 100, 101; uop 1: 127, 128
  expect_error([&] { h.core.execute(g, 47); }, {"acc index 128", "iter_out 1, iter_in 0, uop 1"});
  Instruction u = gemm(60, 65);
  expect_error([&] { h.core.execute(u, 48); }, {"instruction 48", "uop_end 65", "64"});
  Instruction big = alu(AluOp::kAdd, 0, 1, true, 40000);
  expect_error([&] { h.core.execute(big, 49); }, {"instruction 49", "imm 40000"});
}

TEST_P(CoreCompute, EmptyLoopsDoNothing) {
  h.put_uops({{127, 127, 63}});
  Instruction g = gemm(0, 1, 0, 5);
  g.dst_factor_in = 100;  // would be out of range, but no iteration runs
  h.core.reset_counters();
  h.core.execute(g, 0);
  h.core.execute(gemm(1, 1, 4, 4), 0);
  EXPECT_EQ(h.core.counters().insn_gemm, 2u);
  EXPECT_EQ(h.core.counters().uop_gemm, 0u);
}

TEST(CoreCounters, AddToNamesEveryCounter) {
  CoreHarness h(small_config());
  h.put_uops({{0, 0, 0}});
  h.core.execute(gemm(0, 1), 0);
  std::map<std::string, std::uint64_t> c;
  h.core.add_to(c);
  for (const char* k :
       {"insn.load", "insn.store", "insn.gemm", "insn.alu", "insn.finish", "uop.gemm",
        "uop.gemm_reset", "uop.alu", "macs", "bytes.load.uop", "bytes.load.inp", "bytes.load.wgt",
        "bytes.load.acc", "bytes.store.out", "pad_elems"})
    EXPECT_EQ(c.count(k), 1u) << k;
  EXPECT_EQ(c.size(), 15u);
  EXPECT_EQ(c["insn.load"], 1u);
  EXPECT_EQ(c["bytes.load.uop"], 4u);
  EXPECT_EQ(c["macs"], 64u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, CoreCompute, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "simd" : "scalar"; });

}  // namespace
}  // namespace tandem::sim::testing
