// Tests of the blocked GEMM program builder: tiling limits, token balance,
// kernel reuse, and small bit-exact runs on fsim.
#include "driver/gemm_program.h"

#include <gtest/gtest.h>

#include <random>

#include "isa/error.h"

namespace tandem::driver {
namespace {

std::vector<std::int8_t> random_s8(std::size_t n, std::mt19937& rng) {
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = static_cast<std::int8_t>(rng());
  return v;
}

TEST(GemmProgram, TilingFitsTheSramHalves) {
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    for (int v : {1, 2}) {
      for (int size : {1, 17, 64, 200, 512, 1000}) {
        GemmSpec s{size, size + 3, size * 2, v};
        const GemmTiling t = choose_gemm_tiling(cfg, s);
        EXPECT_LE(t.tm * t.tk, static_cast<int>(cfg.inp_depth) / v) << preset << " " << size;
        EXPECT_LE(t.tn * t.tk, static_cast<int>(cfg.wgt_depth) / v);
        EXPECT_LE(t.tm * t.tn, static_cast<int>(cfg.acc_depth) / v);
        EXPECT_GE(t.tm, 1);
        EXPECT_LE(t.tm, t.mo);
        EXPECT_LE(t.tn, t.no);
        EXPECT_LE(t.tk, t.ko);
      }
    }
  }
}

TEST(GemmProgram, SpecErrors) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  EXPECT_THROW(build_gemm_program(cfg, GemmSpec{0, 8, 8}), Error);
  EXPECT_THROW(build_gemm_program(cfg, GemmSpec{8, 8, 8, 3}), Error);
  GemmSpec big_tile{64, 64, 64};
  big_tile.tile_m = 64, big_tile.tile_n = 8, big_tile.tile_k = 8;  // 512 inp, 64 wgt, 512 acc
  EXPECT_NO_THROW(build_gemm_program(cfg, big_tile));
  GemmSpec too_big{512, 512, 512};
  too_big.tile_m = 512, too_big.tile_k = 64;  // 512*64 inp elements > 2048
  EXPECT_THROW(build_gemm_program(cfg, too_big), Error);
  GemmSpec rq{8, 8, 8};
  rq.requantize = true;
  rq.clip_lo = 5, rq.clip_hi = 4;
  EXPECT_THROW(build_gemm_program(cfg, rq), Error);
}

TEST(GemmProgram, KernelsAreReusedAcrossTiles) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  GemmSpec s{64, 64, 64, 2};
  s.tile_m = 2, s.tile_n = 2, s.tile_k = 2;  // 32 x 4 x 4 tiles
  const GemmProgram gp = build_gemm_program(cfg, s);
  // Distinct kernels: 2 reset + 2 (inp halves) x 2 (acc halves) GEMM = 6.
  EXPECT_EQ(gp.uop_loads, 6u);
  std::uint64_t gemms = 0;
  for (const auto& i : gp.program.insns) gemms += i.opcode == isa::Opcode::kGemm;
  EXPECT_EQ(gemms, 32u * 4 + 32u * 4 * 4);  // resets + K steps
}

TEST(GemmProgram, SmallRunsAreBitExactOnFsim) {
  std::mt19937 rng(11);
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    Runtime rt(cfg, "fsim");
    for (int v : {1, 2}) {
      for (bool rq : {false, true}) {
        GemmSpec s{19, 21, 37, v};
        s.requantize = rq;
        s.shift = 6;
        s.clip_lo = -100;
        s.clip_hi = 90;
        s.tile_m = 2, s.tile_n = 1, s.tile_k = 2;  // many tiles, ragged edges
        const auto a = random_s8(std::size_t(s.m) * s.k, rng);
        const auto b = random_s8(std::size_t(s.n) * s.k, rng);
        const GemmProgram gp = build_gemm_program(cfg, s);
        const GemmRun r = run_gemm(rt, gp, a, b);
        EXPECT_EQ(r.c, reference_gemm(s, a, b)) << preset << " v=" << v << " rq=" << rq;
        EXPECT_EQ(r.stats.get("macs"), gp.padded_macs);
      }
    }
  }
}

}  // namespace
}  // namespace tandem::driver

namespace tandem::driver {
namespace {

TEST(GemmProgram, AccTilesBeyondTheLoopLimitUseTwoLoopLevels) {
  // A legal config whose acc tiles exceed the 14-bit iteration count, so the
  // reset and ALU kernels must loop over rows and columns separately.
  HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  cfg.name = "big-acc";
  cfg.acc_buff_bytes = 1 << 20;  // 32768 rows
  cfg.out_buff_bytes = 1 << 18;
  cfg.inp_buff_bytes = 1 << 18;  // 32768 elements
  cfg.wgt_buff_bytes = 256;      // 4 blocks: keeps the micro-op within 32 bits
  cfg.uop_buff_bytes = 128;      // 32 micro-ops: keeps the ALU word within 128 bits
  cfg.finalize();
  GemmSpec s{5000, 32, 8, 1};
  s.requantize = true;
  s.shift = 3;
  s.tile_m = 5000, s.tile_n = 4, s.tile_k = 1;  // 20000 acc rows per tile
  const GemmProgram gp = build_gemm_program(cfg, s);
  std::mt19937 rng(3);
  const auto a = random_s8(std::size_t(s.m) * s.k, rng);
  const auto b = random_s8(std::size_t(s.n) * s.k, rng);
  Runtime rt(cfg, "fsim");
  EXPECT_EQ(run_gemm(rt, gp, a, b).c, reference_gemm(s, a, b));
  s.tile_m = 0;  // automatic: must respect the loop limit too
  const GemmTiling t = choose_gemm_tiling(cfg, s);
  EXPECT_LE(t.tm, 16383);
  s.m = 20000, s.tile_m = 20000;
  EXPECT_THROW(choose_gemm_tiling(cfg, s), Error);
}

}  // namespace
}  // namespace tandem::driver
