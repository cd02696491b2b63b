// GEMM tests on every target: a single-tile GEMM with two kernel loop
// levels, a hand-written two-virtual-thread token schedule, and the driver's
// blocked GEMM at several sizes (ragged edges, up to 256^3 on the fast
// targets), 1 and 2 virtual threads, with and without requantization, all
// bit-exact against host_cpu.
#include <tuple>

#include "driver/gemm_program.h"
#include "harness.h"
#include "host_cpu/reference.h"

namespace tandem::integration {
namespace {

using isa::MemType;
using isa::Module;

class GemmTest : public AccelTest {
 protected:
  // Random A (mb*B x kb*BI) and B (nb*BO x kb*BI), their packed forms in
  // tensors "A" and "B", and the expected int8 C.
  struct Data {
    int m, n, k;
    std::vector<std::int8_t> a, b, c;
  };
  Data make_data(int mb, int nb, int kb) {
    Data d{mb * cfg.batch, nb * cfg.block_out, kb * cfg.block_in, {}, {}, {}};
    d.a = random_vec<std::int8_t>(std::size_t(d.m) * d.k, -128, 127);
    d.b = random_vec<std::int8_t>(std::size_t(d.n) * d.k, -128, 127);
    d.c = host_cpu::narrow(host_cpu::gemm_s8(d.a, d.b, d.m, d.n, d.k));
    put("A", driver::pack_gemm_a(cfg, d.a, d.m, d.k));
    put("B", driver::pack_gemm_b(cfg, d.b, d.n, d.k));
    make("C", std::size_t(d.m) * d.n);
    return d;
  }
  void expect_c(const Data& d) {
    const auto got = driver::unpack_gemm_c(cfg, get<std::int8_t>("C"), d.m, d.n);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(int(got[i]), int(d.c[i])) << "C[" << i / d.n << "][" << i % d.n << "]";
  }
};

TEST_P(GemmTest, SingleTileWithTwoKernelLoops) {
  const std::uint32_t mb = 4, nb = 3, kb = 5;
  const Data d = make_data(mb, nb, kb);
  driver::CommandBuilder b(cfg);
  b.declare_buffer("A", d.a.size());
  b.declare_buffer("B", d.b.size());
  b.declare_buffer("C", d.c.size());
  b.load(MemType::kInp, 0, {"A", 0}, 1, mb * kb, mb * kb);
  b.load(MemType::kWgt, 0, {"B", 0}, 1, nb * kb, nb * kb);
  b.push_dep(Module::kLoad, Module::kCompute);
  b.pop_dep(Module::kLoad, Module::kCompute);
  b.kernel(isa::KernelOp::gemm_reset(), {{mb * nb, 1, 0, 0}}, {{0, 0, 0}});
  b.begin_kernel(isa::KernelOp::gemm(), {{mb, nb, kb, 0}, {nb, 1, 0, kb}});
  for (std::uint32_t kk = 0; kk < kb; ++kk) b.push_uop(0, kk, kk);
  b.end_kernel();
  b.push_dep(Module::kCompute, Module::kStore);
  b.pop_dep(Module::kCompute, Module::kStore);
  b.store(0, {"C", 0}, 1, mb * nb, mb * nb);
  const auto stats = rt->run(b.finish());
  expect_c(d);
  EXPECT_EQ(stats.get("uop.gemm"), mb * nb * kb + mb * nb);
  EXPECT_EQ(stats.get("macs"), std::uint64_t(mb) * nb * kb * cfg.macs_per_gemm_uop());
}

TEST_P(GemmTest, TwoVirtualThreadTokenSchedule) {
  // A stays resident; each output column block j runs on virtual thread
  // j % 2 with its own wgt and acc/out halves.
  const std::uint32_t mb = 3, nb = 6, kb = 4;
  const Data d = make_data(mb, nb, kb);
  const std::uint32_t wh = cfg.wgt_depth / 2, ah = cfg.acc_depth / 2;
  driver::CommandBuilder b(cfg);
  b.declare_buffer("A", d.a.size());
  b.declare_buffer("B", d.b.size());
  b.declare_buffer("C", d.c.size());
  b.load(MemType::kInp, 0, {"A", 0}, 1, mb * kb, mb * kb);
  for (std::uint32_t j = 0; j < nb; ++j) {
    const std::uint32_t wb = (j % 2) * wh, ab = (j % 2) * ah;
    if (j >= 2) b.pop_dep(Module::kCompute, Module::kLoad);
    b.load(MemType::kWgt, wb, {"B", std::uint64_t(j) * kb}, 1, kb, kb);
    b.push_dep(Module::kLoad, Module::kCompute);
    b.pop_dep(Module::kLoad, Module::kCompute);
    if (j >= 2) b.pop_dep(Module::kStore, Module::kCompute);
    b.kernel(isa::KernelOp::gemm_reset(), {{mb, 1, 0, 0}}, {{ab, 0, 0}});
    b.begin_kernel(isa::KernelOp::gemm(), {{mb, 1, kb, 0}});
    for (std::uint32_t kk = 0; kk < kb; ++kk) b.push_uop(ab, kk, wb + kk);
    b.end_kernel();
    if (j + 2 < nb) b.push_dep(Module::kCompute, Module::kLoad);
    b.push_dep(Module::kCompute, Module::kStore);
    b.pop_dep(Module::kCompute, Module::kStore);
    b.store(ab, {"C", j}, mb, 1, nb);
    if (j + 2 < nb) b.push_dep(Module::kStore, Module::kCompute);
  }
  const isa::Program p = b.finish();
  // Every token request folded into a real instruction: no no-ops.
  for (const auto& i : p.insns) {
    if (i.opcode == isa::Opcode::kGemm) {
      EXPECT_GT(isa::uop_count(i), 0u);
    }
  }
  rt->run(p);
  expect_c(d);
}

TEST_P(GemmTest, BlockedGemmMatchesHostCpu) {
  using Shape = std::tuple<int, int, int>;
  std::vector<Shape> shapes = {{1, 1, 1}, {7, 13, 29}, {16, 24, 40}, {33, 17, 70}, {64, 64, 64}};
  if (!slow_target()) {
    shapes.push_back({100, 37, 200});
    shapes.push_back({256, 256, 256});
  }
  for (const auto& [m, n, k] : shapes)
    for (int v : {1, 2})
      for (bool small_tiles : {false, true}) {
        driver::GemmSpec s{m, n, k, v};
        if (small_tiles) s.tile_m = 3, s.tile_n = 2, s.tile_k = 2;
        if (small_tiles && m * n * k > 64 * 64 * 64) continue;  // too many instructions
        const auto a = random_vec<std::int8_t>(std::size_t(m) * k, -128, 127);
        const auto bw = random_vec<std::int8_t>(std::size_t(n) * k, -128, 127);
        const auto gp = driver::build_gemm_program(cfg, s);
        const auto r = driver::run_gemm(*rt, gp, a, bw);
        const auto want = driver::reference_gemm(s, a, bw);
        for (std::size_t i = 0; i < want.size(); ++i)
          ASSERT_EQ(int(r.c[i]), int(want[i]))
              << m << "x" << n << "x" << k << " vthreads " << v << " small tiles " << small_tiles
              << ": C[" << i / n << "][" << i % n << "]";
        EXPECT_EQ(r.stats.get("macs"), gp.padded_macs);
      }
}

TEST_P(GemmTest, BlockedGemmWithRequantization) {
  const int m = slow_target() ? 9 : 70, n = slow_target() ? 10 : 45, k = slow_target() ? 20 : 90;
  for (int v : {1, 2})
    for (int shift : {0, 5, 9}) {
      driver::GemmSpec s{m, n, k, v};
      s.requantize = true;
      s.shift = shift;
      s.clip_lo = -100;
      s.clip_hi = 110;
      const auto a = random_vec<std::int8_t>(std::size_t(m) * k, -128, 127);
      const auto bw = random_vec<std::int8_t>(std::size_t(n) * k, -128, 127);
      const auto r = driver::run_gemm(*rt, driver::build_gemm_program(cfg, s), a, bw);
      EXPECT_EQ(r.c, driver::reference_gemm(s, a, bw)) << "vthreads " << v << " shift " << shift;
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, GemmTest, testing::ValuesIn(all_targets()), target_name);

}  // namespace
}  // namespace tandem::integration
