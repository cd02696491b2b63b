// Blocked GEMM programs (driver::build_gemm_program) on the RTL, both
// presets, 1 and 2 virtual threads, plain and requantized: the result must
// equal the host reference and fsim, and the RTL's statistics must be
// consistent with the program (every cycle of a unit is in exactly one state).
#include <gtest/gtest.h>

#include <random>

#include "driver/gemm_program.h"
#include "driver/runtime.h"

namespace tandem::hw_test {
namespace {

struct Case {
  const char* preset;
  int m, n, k, vthreads;
  bool requantize;
  int tm, tn, tk;
};

class RtlGemm : public testing::TestWithParam<Case> {};

TEST_P(RtlGemm, MatchesReferenceAndFsim) {
  const Case c = GetParam();
  const HwConfig cfg = HwConfig::load_preset(c.preset);
  driver::GemmSpec spec{c.m, c.n, c.k, c.vthreads};
  spec.requantize = c.requantize;
  spec.shift = 6;
  spec.clip_lo = -100;
  spec.clip_hi = 90;
  spec.tile_m = c.tm;
  spec.tile_n = c.tn;
  spec.tile_k = c.tk;
  const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
  std::mt19937 rng(c.m * 131 + c.n * 17 + c.k + c.vthreads);
  std::vector<std::int8_t> a(static_cast<std::size_t>(c.m) * c.k),
      b(static_cast<std::size_t>(c.n) * c.k);
  for (auto& x : a) x = static_cast<std::int8_t>(rng());
  for (auto& x : b) x = static_cast<std::int8_t>(rng());
  const auto ref = driver::reference_gemm(spec, a, b);

  driver::Runtime rt_rtl(cfg, "rtl");
  const driver::GemmRun r = driver::run_gemm(rt_rtl, gp, a, b);
  driver::Runtime rt_fsim(cfg, "fsim");
  const driver::GemmRun f = driver::run_gemm(rt_fsim, gp, a, b);
  EXPECT_EQ(r.c, ref);
  EXPECT_EQ(f.c, ref);

  const isa::Stats& s = r.stats;
  const std::uint64_t total = s.get("cycles.total");
  EXPECT_GT(total, s.get("uop.gemm"));  // one micro-op per cycle at most
  EXPECT_EQ(s.get("uop.gemm"), f.stats.get("uop.gemm"));
  EXPECT_EQ(s.get("macs"), f.stats.get("macs"));
  for (const char* u : {"load", "compute", "store"}) {
    const std::string n = u;
    EXPECT_EQ(s.get(n + ".idle") + s.get(n + ".busy") + s.get(n + ".stall.token") +
                  s.get(n + ".stall.token_full"),
              total)
        << n;
  }
  EXPECT_EQ(s.get("fetch.idle") + s.get("fetch.busy") + s.get("fetch.stall.queue_full"), total);
  EXPECT_GT(s.values.at("sim.cycles_per_second"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Gemms, RtlGemm,
                         testing::Values(Case{"tandem-8x8", 16, 24, 40, 1, false, 0, 0, 0},
                                         Case{"tandem-8x8", 16, 24, 40, 2, false, 0, 0, 0},
                                         Case{"tandem-8x8", 30, 20, 50, 2, true, 2, 1, 2},
                                         Case{"tandem-8x8", 9, 40, 24, 1, true, 3, 2, 1},
                                         Case{"vta-16x16", 16, 32, 48, 1, false, 0, 0, 0},
                                         Case{"vta-16x16", 16, 32, 48, 2, true, 0, 0, 0},
                                         Case{"vta-16x16", 20, 40, 70, 2, false, 4, 1, 2}),
                         [](const auto& info) {
                           const Case& c = info.param;
                           std::string s = std::string(c.preset) + "_" + std::to_string(c.m) + "x" +
                                           std::to_string(c.n) + "x" + std::to_string(c.k) + "_v" +
                                           std::to_string(c.vthreads) + (c.requantize ? "_rq" : "");
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

}  // namespace
}  // namespace tandem::hw_test
