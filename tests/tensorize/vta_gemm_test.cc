// A VTA-style blocked matmul + requantization, scheduled with caches in the
// accelerator scopes, DMA pragmas, the GEMM and ALU intrinsics; checked for
// the exact lowered form of the back-end contract and run in the interpreter
// with reference implementations of the intrinsic calls.
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
using te::IterVar;
using te::Tensor;
using te::Var;

// Reference semantics of the contract's calls (compiler/README.md).
void register_intrinsics(ir::Interpreter& in, const HwConfig& hw) {
  const int B = hw.batch, BI = hw.block_in, BO = hw.block_out;
  in.register_call("gemm_reset", [=](const auto& a, auto& bufs) {
    for (int x = 0; x < B * BO; ++x) (*bufs[0])[a[0] * B * BO + x] = 0;
    return std::int64_t{0};
  });
  in.register_call("gemm_update", [=](const auto& a, auto& bufs) {
    auto& c = *bufs[0];
    auto& in8 = *bufs[1];
    auto& w = *bufs[2];
    for (int b = 0; b < B; ++b) {
      for (int o = 0; o < BO; ++o) {
        std::int64_t acc = c[a[0] * B * BO + b * BO + o];
        for (int i = 0; i < BI; ++i) {
          acc += in8[a[1] * B * BI + b * BI + i] * w[a[2] * BO * BI + o * BI + i];
        }
        c[a[0] * B * BO + b * BO + o] = ir::wrap_to(DType::kInt32, acc);
      }
    }
    return std::int64_t{0};
  });
  auto alu_imm = [=](auto op) {
    return [=](const std::vector<std::int64_t>& a, std::vector<ir::Interpreter::Storage*>& bufs) {
      for (int x = 0; x < B * BO; ++x) {
        (*bufs[0])[a[0] * B * BO + x] = op((*bufs[1])[a[1] * B * BO + x], a[2]);
      }
      return std::int64_t{0};
    };
  };
  in.register_call("alu_shr_imm", alu_imm([](std::int64_t x, std::int64_t s) { return x >> s; }));
  in.register_call("alu_max_imm",
                   alu_imm([](std::int64_t x, std::int64_t s) { return std::max(x, s); }));
  in.register_call("alu_min_imm",
                   alu_imm([](std::int64_t x, std::int64_t s) { return std::min(x, s); }));
}

struct VtaMatmul {
  HwConfig hw = HwConfig::load_preset("tandem-8x8");
  int MO = 2, NO = 4, KO = 3;
  Tensor A, W, C, shr, relu, clip, res;
  VtaMatmul() {
    const int B = hw.batch, BI = hw.block_in, BO = hw.block_out;
    A = te::placeholder({MO, KO, B, BI}, DType::kInt8, "A");
    W = te::placeholder({NO, KO, BO, BI}, DType::kInt8, "W");
    IterVar ko = te::reduce_axis(KO, "ko"), ki = te::reduce_axis(BI, "ki");
    C = te::compute({MO, NO, B, BO},
                    [&](Var m, Var n, Var b, Var o) {
                      return te::sum(te::cast(DType::kInt32, A(m, ko, b, ki)) *
                                         te::cast(DType::kInt32, W(n, ko, o, ki)),
                                     {ko, ki});
                    },
                    "C", {"m", "n", "b", "o"});
    auto ew = [&](Tensor in, const std::string& name, auto f) {
      return te::compute({MO, NO, B, BO},
                         [&](Var m, Var n, Var b, Var o) { return f(in(m, n, b, o)); }, name,
                         {name + ".m", name + ".n", name + ".b", name + ".o"});
    };
    shr = ew(C, "shr", [](ir::Expr x) { return x >> 3; });
    relu = ew(shr, "relu", [](ir::Expr x) { return te::max(x, 0); });
    clip = ew(relu, "clip", [](ir::Expr x) { return te::min(x, 127); });
    res = ew(clip, "res", [](ir::Expr x) { return te::cast(DType::kInt8, x); });
  }
};

TEST(VtaGemm, LowersToContractFormAndComputesCorrectly) {
  VtaMatmul v;
  te::Schedule s = te::create_schedule({v.res});
  Tensor abuf = s.cache_read(v.A, "inp", {v.C});
  Tensor wbuf = s.cache_read(v.W, "wgt", {v.C});
  for (const Tensor& t : {v.C, v.shr, v.relu, v.clip}) s[t].set_scope("acc");
  te::Stage sr = s[v.res];
  auto [no, ni] = sr.split(sr.axis(1), 2);
  for (const Tensor& t : {v.C, v.shr, v.relu, v.clip}) s[t].compute_at(sr, no);
  te::Stage sc = s[v.C];
  IterVar ko = sc.reduce_axis(0), ki = sc.reduce_axis(1);
  sc.reorder({ko, sc.axis(0), sc.axis(1), sc.axis(2), sc.axis(3), ki});
  sc.tensorize(sc.axis(2), tensorize::make_gemm(v.hw));
  s[abuf].compute_at(sc, ko);
  s[wbuf].compute_at(sc, ko);
  s[abuf].pragma(s[abuf].axis(0), "dma_copy");
  s[wbuf].pragma(s[wbuf].axis(0), "dma_copy");
  s[v.shr].tensorize(s[v.shr].axis(2), tensorize::make_alu(v.hw, isa::AluOp::kShr, true));
  s[v.relu].tensorize(s[v.relu].axis(2), tensorize::make_alu(v.hw, isa::AluOp::kMax, true));
  s[v.clip].tensorize(s[v.clip].axis(2), tensorize::make_alu(v.hw, isa::AluOp::kMin, true));
  sr.pragma(sr.axis(2), "dma_copy");

  auto f = compiler::lower(s, {v.A, v.W, v.res}, "vta_mm");
  std::string text = ir::to_string(f.body);
  auto has = [&](const std::string& line) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "\n" << text;
  };
  // Buffers in the accelerator scopes, sized by bound inference at their
  // attach points (C: 1 x 2 x 1 x 8 at res.n.outer; A.inp: one row per ko).
  has("allocate C: int32[16] in acc {");
  has("allocate A.inp: int8[8] in inp {");
  has("allocate W.wgt: int8[128] in wgt {");
  // Reduction init as its own nest of reset calls, before the ko loop.
  has("  for (n.init, 0, 2) {\n        attr tensorize = 0 \"gemm\" {\n"
      "          gemm_reset<C:acc>(n.init)\n");
  // Element offsets: acc element n, inp element 0, wgt element n.
  has("gemm_update<C:acc, A.inp:inp, W.wgt:wgt>(n, 0, n)");
  has("alu_shr_imm<shr:acc, C:acc>(shr.n, shr.n, 3)");
  has("alu_max_imm<relu:acc, shr:acc>(relu.n, relu.n, 0)");
  has("alu_min_imm<clip:acc, relu:acc>(clip.n, clip.n, 127)");
  // DMA nests: one store per innermost point, affine flat indices.
  has("attr dma_copy = 0 \"A.inp.A.inp.i0\" {\n            for (A.inp.i3, 0, 8) {\n"
      "              A.inp[A.inp.i3] = A[ko*8 + res.m*24 + A.inp.i3]\n");
  has("res[res.m*32 + res.o + res.n.outer*16 + res.n.inner*8] = int8(clip[res.o + res.n.inner*8])");

  std::mt19937 rng(5);
  std::uniform_int_distribution<int> d(-128, 127);
  const int B = v.hw.batch, BI = v.hw.block_in, BO = v.hw.block_out;
  ir::Interpreter::Storage a(v.MO * v.KO * B * BI), w(v.NO * v.KO * BO * BI),
      out(v.MO * v.NO * B * BO, 99);
  for (auto& x : a) x = d(rng);
  for (auto& x : w) x = d(rng);
  ir::Interpreter in;
  register_intrinsics(in, v.hw);
  in.bind(f.args[0], &a);
  in.bind(f.args[1], &w);
  in.bind(f.args[2], &out);
  in.run(f.body);
  for (int m = 0; m < v.MO; ++m)
    for (int n = 0; n < v.NO; ++n)
      for (int b = 0; b < B; ++b)
        for (int o = 0; o < BO; ++o) {
          std::int64_t acc = 0;
          for (int k = 0; k < v.KO; ++k)
            for (int i = 0; i < BI; ++i)
              acc += a[((m * v.KO + k) * B + b) * BI + i] * w[((n * v.KO + k) * BO + o) * BI + i];
          std::int64_t want = std::min<std::int64_t>(std::max<std::int64_t>(acc >> 3, 0), 127);
          ASSERT_EQ(out[((m * v.NO + n) * B + b) * BO + o], want) << m << " " << n << " " << o;
        }
}

}  // namespace
}  // namespace tandem
