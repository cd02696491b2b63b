// An operator the library does not ship -- a batched matmul with a
// requantizing epilogue -- written in the test from a tensor expression and a
// schedule alone, compiled through the general path (lower, tensorize,
// accelerator passes) and run bit-exactly on fsim. Also the errors of
// schedules that cannot be tensorized, cannot run on the accelerator, or do
// not fit its buffers.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

#include "compiler/ops/compiled_op.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/te.h"
#include "isa/error.h"
#include "op_harness.h"
#include "tensorize/intrinsic.h"

namespace tandem {
namespace {

using ir::DType;
using te::IterVar;
using te::Tensor;
using te::Var;

// C[t][m][n] = sum_k A[t][m][k] * W[t][n][k], blocked:
// A [T][MB][KB][B][BI], W [T][NB][KB][BO][BI], res [T][MB][NB][B][BO] int8.
struct BatchedMatmul {
  int T = 3, MB = 4, NB = 4, KB = 6;
  int tm = 2, tn = 2, tk = 3;
  int vthreads = 1;
  int shift = 7;
  bool alu_pragma_on_shift = true;    // false: leave the shift stage unannotated
  bool tensorize_wrong_axis = false;  // tensorize at an axis the GEMM cannot match

  ops::CompiledOp compile(const HwConfig& cfg) const {
    const int B = cfg.batch, BI = cfg.block_in, BO = cfg.block_out;
    Tensor A = te::placeholder({T, MB, KB, B, BI}, DType::kInt8, "A");
    Tensor W = te::placeholder({T, NB, KB, BO, BI}, DType::kInt8, "W");
    IterVar ko = te::reduce_axis(KB, "ko"), ki = te::reduce_axis(BI, "ki");
    Tensor C = te::compute({T, MB, NB, B, BO},
                           [&](Var t, Var m, Var n, Var b, Var o) {
                             return te::sum(te::cast(DType::kInt32, A(t, m, ko, b, ki)) *
                                                te::cast(DType::kInt32, W(t, n, ko, o, ki)),
                                            {ko, ki});
                           },
                           "C", {"t", "m", "n", "b", "o"});
    auto ew = [&](Tensor in, const std::string& name, auto f) {
      return te::compute({T, MB, NB, B, BO},
                         [&](Var t, Var m, Var n, Var b, Var o) { return f(in(t, m, n, b, o)); },
                         name, {name + ".t", name + ".m", name + ".n", name + ".b", name + ".o"});
    };
    Tensor shr = ew(C, "shr", [&](ir::Expr x) { return x >> shift; });
    Tensor hi = ew(shr, "hi", [](ir::Expr x) { return te::min(x, 127); });
    Tensor lo = ew(hi, "lo", [](ir::Expr x) { return te::max(x, -128); });
    Tensor res = ew(lo, "res", [](ir::Expr x) { return te::cast(DType::kInt8, x); });

    te::Schedule s = te::create_schedule({res});
    Tensor ca = s.cache_read(A, "inp", {C});
    Tensor cw = s.cache_read(W, "wgt", {C});
    te::Stage sr = s[res];
    auto [m_o, m_i] = sr.split(sr.axis(1), tm);
    auto [n_o, n_i] = sr.split(sr.axis(2), tn);
    IterVar at = n_o;
    if (vthreads > 1) {
      auto [n_oo, n_vt] = sr.split(n_o, vthreads);
      sr.reorder({sr.axis(0), m_o, n_oo, n_vt, m_i, n_i});
      sr.bind_vthread(n_vt);
      at = n_vt;
    } else {
      sr.reorder({sr.axis(0), m_o, n_o, m_i, n_i});
    }
    sr.pragma(m_i, "dma_copy");
    for (const Tensor& x : {C, shr, hi, lo}) {
      s[x].set_scope("acc");
      s[x].compute_at(sr, at);
    }
    // Two ways to put element-wise work on the ALU: the pragma and the intrinsic.
    if (alu_pragma_on_shift) s[shr].pragma(s[shr].axis(0), "alu");
    s[hi].tensorize(s[hi].axis(3), tensorize::make_alu(cfg, isa::AluOp::kMin, true));
    s[lo].pragma(s[lo].axis(0), "alu");
    te::Stage sc = s[C];
    auto [ko_o, ko_i] = sc.split(sc.reduce_axis(0), tk);
    sc.reorder({ko_o, sc.axis(0), sc.axis(1), sc.axis(2), ko_i, sc.axis(3), sc.axis(4),
                sc.reduce_axis(1)});
    sc.tensorize(tensorize_wrong_axis ? sc.axis(2) : sc.axis(3), tensorize::make_gemm(cfg));
    s[ca].compute_at(sc, ko_o);
    s[cw].compute_at(sc, ko_o);
    s[ca].pragma(s[ca].axis(0), "dma_copy");
    s[cw].pragma(s[cw].axis(0), "dma_copy");
    return ops::build_op("batched_matmul", s, {A, W, res}, cfg, ops::CompileOptions{});
  }
};

void run_and_check(const HwConfig& cfg, const BatchedMatmul& bm) {
  const ops::CompiledOp op = bm.compile(cfg);
  const int B = cfg.batch, BI = cfg.block_in, BO = cfg.block_out;
  std::mt19937 rng(77);
  const auto a = opstest::random_i8(static_cast<std::size_t>(bm.T) * bm.MB * bm.KB * B * BI, rng);
  const auto w = opstest::random_i8(static_cast<std::size_t>(bm.T) * bm.NB * bm.KB * BO * BI, rng);
  driver::Runtime rt(cfg, "fsim");
  opstest::put(rt, "A", a);
  opstest::put(rt, "W", w);
  rt.allocate("res", static_cast<std::size_t>(bm.T) * bm.MB * bm.NB * B * BO);
  rt.run(op.program);
  const auto got = rt.read_as<std::int8_t>("res");
  const int M = bm.MB * B, N = bm.NB * BO, K = bm.KB * BI;
  for (int t = 0; t < bm.T; ++t) {
    // Unblock batch t into row-major matrices, multiply with host_cpu.
    std::vector<std::int8_t> am(static_cast<std::size_t>(M) * K),
        wm(static_cast<std::size_t>(N) * K);
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k)
        am[static_cast<std::size_t>(m) * K + k] =
            a[((((static_cast<std::size_t>(t) * bm.MB + m / B) * bm.KB + k / BI) * B) + m % B) *
                  BI +
              k % BI];
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k)
        wm[static_cast<std::size_t>(n) * K + k] =
            w[((((static_cast<std::size_t>(t) * bm.NB + n / BO) * bm.KB + k / BI) * BO) + n % BO) *
                  BI +
              k % BI];
    const auto want = host_cpu::narrow(
        host_cpu::shift_requantize(host_cpu::gemm_s8(am, wm, M, N, K), bm.shift, -128, 127));
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        const std::size_t gi =
            ((((static_cast<std::size_t>(t) * bm.MB + m / B) * bm.NB + n / BO) * B) + m % B) * BO +
            n % BO;
        ASSERT_EQ(got[gi], want[static_cast<std::size_t>(m) * N + n])
            << cfg.name << " batch " << t << " m=" << m << " n=" << n;
      }
  }
}

TEST(CustomOperator, BatchedMatmulFromTeAndScheduleAlone) {
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    BatchedMatmul bm;
    run_and_check(cfg, bm);
    bm.vthreads = 2;
    bm.tn = 1;
    run_and_check(cfg, bm);
  }
}

TEST(CustomOperator, ScheduleThatCannotBeTensorizedIsAnError) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  BatchedMatmul bm;
  bm.tensorize_wrong_axis = true;
  try {
    bm.compile(cfg);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gemm"), std::string::npos) << e.what();
  }
}

TEST(CustomOperator, StageLeftOnTheHostIsAnError) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  BatchedMatmul bm;
  bm.alu_pragma_on_shift = false;  // a scalar acc loop nest: no instruction can run it
  try {
    bm.compile(cfg);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run on the accelerator"), std::string::npos)
        << e.what();
  }
}

TEST(CustomOperator, TilesBeyondTheSramsAreAnError) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  BatchedMatmul bm;
  bm.MB = 64, bm.NB = 64, bm.KB = 2, bm.T = 1;
  bm.tm = 64, bm.tn = 64, bm.tk = 1;  // acc tile of 4096 elements > 2048
  try {
    bm.compile(cfg);
    FAIL() << "expected an SRAM overflow";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("acc SRAM overflow"), std::string::npos) << m;
    EXPECT_NE(m.find("'C'"), std::string::npos) << m;
    EXPECT_NE(m.find("shrink the tile factors"), std::string::npos) << m;
  }
}

// res = int8(A) for an int32 tensor: a DMA fills acc and a DMA stores the
// out mirror, with no arithmetic in between (the back end must refresh out).
TEST(CustomOperator, NarrowingCopyOfAnInt32Tensor) {
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    const int B = cfg.batch, BO = cfg.block_out;
    Tensor A = te::placeholder({4, 6, 5, B, BO}, DType::kInt32, "A");
    Tensor res = te::compute(
        {4, 6, 5, B, BO},
        [&](Var i, Var j, Var k, Var b, Var o) { return te::cast(DType::kInt8, A(i, j, k, b, o)); },
        "res");
    te::Schedule s = te::create_schedule({res});
    Tensor ca = s.cache_read(A, "acc", {res});
    te::Stage sr = s[res];
    auto [jo, ji] = sr.split(sr.axis(1), 3);
    s[ca].compute_at(sr, jo);
    s[ca].pragma(s[ca].axis(0), "dma_copy");
    sr.pragma(ji, "dma_copy");
    const ops::CompiledOp op = ops::build_op("narrow", s, {A, res}, cfg, ops::CompileOptions{});
    std::mt19937 rng(3);
    std::uniform_int_distribution<std::int32_t> d(std::numeric_limits<std::int32_t>::min(),
                                                  std::numeric_limits<std::int32_t>::max());
    std::vector<std::int32_t> a(static_cast<std::size_t>(4 * 6 * 5 * B * BO));
    for (auto& x : a) x = d(rng);
    driver::Runtime rt(cfg, "fsim");
    opstest::put(rt, "A", a);
    rt.allocate("res", a.size());
    rt.run(op.program);
    const auto got = rt.read_as<std::int8_t>("res");
    for (std::size_t i = 0; i < a.size(); ++i)
      ASSERT_EQ(got[i], host_cpu::narrow_s8(a[i])) << preset << " element " << i;
  }
}

}  // namespace
}  // namespace tandem
