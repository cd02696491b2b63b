// A VTA-style blocked conv2d (3x3, pad 1) + requantization: padding inlined
// into the input DMA stage, caches computed per input-channel block, GEMM and
// ALU intrinsics; lowered IR is run in the interpreter against direct loops.
#include <gtest/gtest.h>

#include <random>

#include "compiler/build.h"
#include "compiler/ir/interpreter.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"
#include "tensorize/intrinsic.h"

namespace tandem {
namespace {

using ir::DType;
using ir::Expr;
using te::IterVar;
using te::Tensor;
using te::Var;

void register_calls(ir::Interpreter& in, const HwConfig& hw) {
  const int B = hw.batch, BI = hw.block_in, BO = hw.block_out;
  in.register_call("gemm_reset", [=](const auto& a, auto& bufs) {
    for (int x = 0; x < B * BO; ++x) (*bufs[0])[a[0] * B * BO + x] = 0;
    return std::int64_t{0};
  });
  in.register_call("gemm_update", [=](const auto& a, auto& bufs) {
    for (int b = 0; b < B; ++b)
      for (int o = 0; o < BO; ++o) {
        std::int64_t& c = (*bufs[0])[a[0] * B * BO + b * BO + o];
        for (int i = 0; i < BI; ++i) {
          c += (*bufs[1])[a[1] * B * BI + b * BI + i] * (*bufs[2])[a[2] * BO * BI + o * BI + i];
        }
        c = ir::wrap_to(DType::kInt32, c);
      }
    return std::int64_t{0};
  });
  in.register_call("alu_shr_imm", [=](const auto& a, auto& bufs) {
    for (int x = 0; x < B * BO; ++x)
      (*bufs[0])[a[0] * B * BO + x] = (*bufs[1])[a[1] * B * BO + x] >> a[2];
    return std::int64_t{0};
  });
}

TEST(VtaConv2d, PaddedConvLowersAndComputesCorrectly) {
  HwConfig hw = HwConfig::load_preset("tandem-8x8");
  const int B = hw.batch, BI = hw.block_in, BO = hw.block_out;
  const int CI = 2, CO = 2, H = 6, W = 6, K = 3, P = 1;
  Tensor data = te::placeholder({1, CI, H, W, B, BI}, DType::kInt8, "data");
  Tensor kernel = te::placeholder({CO, CI, K, K, BO, BI}, DType::kInt8, "kernel");
  Tensor pad = te::compute(
      {1, CI, H + 2 * P, W + 2 * P, B, BI},
      [&](const std::vector<Var>& v) {
        Expr y = v[2], x = v[3];
        Expr inside = y >= P && y < H + P && x >= P && x < W + P;
        return te::if_then_else(inside, data(v[0], v[1], y - P, x - P, v[4], v[5]),
                                ir::make_const(DType::kInt8, 0));
      },
      "pad");
  IterVar ic = te::reduce_axis(CI, "ic"), dy = te::reduce_axis(K, "dy"),
          dx = te::reduce_axis(K, "dx"), it = te::reduce_axis(BI, "it");
  Tensor conv =
      te::compute({1, CO, H, W, B, BO},
                  [&](Var n, Var oc, Var y, Var x, Var b, Var o) {
                    return te::sum(te::cast(DType::kInt32, pad(n, ic, y + dy, x + dx, b, it)) *
                                       te::cast(DType::kInt32, kernel(oc, ic, dy, dx, o, it)),
                                   {ic, dy, dx, it});
                  },
                  "conv", {"n", "oc", "y", "x", "b", "o"});
  Tensor shr = te::compute(
      {1, CO, H, W, B, BO},
      [&](const std::vector<Var>& v) { return conv(v[0], v[1], v[2], v[3], v[4], v[5]) >> 4; },
      "shr");
  Tensor res = te::compute({1, CO, H, W, B, BO},
                           [&](const std::vector<Var>& v) {
                             return te::cast(DType::kInt8, shr(v[0], v[1], v[2], v[3], v[4], v[5]));
                           },
                           "res", {"rn", "roc", "ry", "rx", "rb", "ro"});

  te::Schedule s = te::create_schedule({res});
  s[pad].compute_inline();
  Tensor dbuf = s.cache_read(pad, "inp", {conv});
  Tensor kbuf = s.cache_read(kernel, "wgt", {conv});
  s[conv].set_scope("acc");
  s[shr].set_scope("acc");
  te::Stage sr = s[res];
  auto [yo, yi] = sr.split(sr.axis(2), 3);
  s[conv].compute_at(sr, yo);
  s[shr].compute_at(sr, yo);
  te::Stage sc = s[conv];
  sc.reorder(
      {ic, dy, dx, sc.axis(0), sc.axis(1), sc.axis(2), sc.axis(3), sc.axis(4), sc.axis(5), it});
  sc.tensorize(sc.axis(4), tensorize::make_gemm(hw));
  s[dbuf].compute_at(sc, ic);
  s[kbuf].compute_at(sc, ic);
  s[dbuf].pragma(s[dbuf].axis(0), "dma_copy");
  s[kbuf].pragma(s[kbuf].axis(0), "dma_copy");
  s[shr].tensorize(s[shr].axis(4), tensorize::make_alu(hw, isa::AluOp::kShr, true));
  sr.pragma(yi, "dma_copy");

  compiler::LoweredFunc f = compiler::lower(s, {data, kernel, res}, "conv");
  std::string text = ir::to_string(f.body);
  if (getenv("DUMP")) std::cout << text;
  // Input tile: 3 output rows + 2 halo rows, full padded width, one ic block.
  EXPECT_NE(text.find("allocate pad.inp: int8[320] in inp"), std::string::npos) << text;
  EXPECT_NE(text.find("allocate kernel.wgt: int8[576] in wgt"), std::string::npos) << text;
  EXPECT_NE(text.find("allocate conv: int32[144] in acc"), std::string::npos) << text;
  // Padding is a select inside the DMA nest.
  EXPECT_NE(text.find("= select("), std::string::npos) << text;
  EXPECT_NE(text.find("gemm_update<conv:acc, pad.inp:inp, kernel.wgt:wgt>("), std::string::npos)
      << text;

  std::mt19937 rng(11);
  std::uniform_int_distribution<int> d(-128, 127);
  ir::Interpreter::Storage dv(CI * H * W * B * BI), kv(CO * CI * K * K * BO * BI),
      out(CO * H * W * B * BO, 77);
  for (auto& x : dv) x = d(rng);
  for (auto& x : kv) x = d(rng);
  ir::Interpreter in;
  register_calls(in, hw);
  in.bind(f.args[0], &dv);
  in.bind(f.args[1], &kv);
  in.bind(f.args[2], &out);
  in.run(f.body);
  for (int oc = 0; oc < CO; ++oc)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        for (int o = 0; o < BO; ++o) {
          std::int64_t acc = 0;
          for (int c = 0; c < CI; ++c)
            for (int ky = 0; ky < K; ++ky)
              for (int kx = 0; kx < K; ++kx) {
                int iy = y + ky - P, ix = x + kx - P;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                for (int i = 0; i < BI; ++i) {
                  acc += dv[((c * H + iy) * W + ix) * BI + i] *
                         kv[((((oc * CI + c) * K + ky) * K + kx) * BO + o) * BI + i];
                }
              }
          std::int64_t want = ir::wrap_to(DType::kInt8, acc >> 4);
          ASSERT_EQ(out[((oc * H + y) * W + x) * BO + o], want)
              << oc << " " << y << " " << x << " " << o;
        }
}

}  // namespace
}  // namespace tandem
