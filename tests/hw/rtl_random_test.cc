// Random-program differential test: seeded random valid programs
// (tests/hw/random_program.h) run on fsim and on the RTL must leave
// identical DRAM; with csim built, csim must also take exactly the RTL's
// cycles (the RTL is the cycle truth, docs/microarch.md).
#include <gtest/gtest.h>

#include <random>

#include "driver/device_registry.h"
#include "tests/hw/hw_test_util.h"
#include "tests/hw/random_program.h"

namespace tandem::hw_test {
namespace {

using isa::AluOp;
using isa::MemType;
using isa::Opcode;

class RtlRandom : public testing::TestWithParam<std::string> {};

TEST_P(RtlRandom, RandomProgramsMatchFsim) {
  const HwConfig cfg = HwConfig::load_preset(GetParam());
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomProgramGen g(cfg, seed * 7919 + (GetParam() == "tandem-8x8" ? 0 : 1));
    const RawProgram p = g.make(2 + static_cast<int>(seed % 4));
    const isa::Stats s = expect_same_as_fsim(cfg, p);
    EXPECT_EQ(s.get("insn.total"), p.insns.size());
    if (HasFailure()) break;
  }
}

// csim follows the same written rules; the RTL is the cycle truth.
TEST_P(RtlRandom, CsimTakesTheRtlsCycles) {
  if (!driver::target_available("csim")) GTEST_SKIP() << "csim is not built";
  const HwConfig cfg = HwConfig::load_preset(GetParam());
  for (std::uint32_t seed = 100; seed < 110; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomProgramGen g(cfg, seed);
    const RawProgram p = g.make(2 + static_cast<int>(seed % 5));
    auto r = hw::make_rtl(cfg);
    auto c = driver::make_device("csim", cfg);
    const isa::Stats sr = run(*r, p), sc = run(*c, p);
    EXPECT_EQ(sr.get("cycles.total"), sc.get("cycles.total"));
    for (const char* u : {"load", "compute", "store"})
      for (const char* k : {".busy", ".idle", ".stall.token", ".stall.token_full"})
        EXPECT_EQ(sr.get(std::string(u) + k), sc.get(std::string(u) + k)) << u << k;
    EXPECT_EQ(sr.get("fetch.stall.queue_full"), sc.get("fetch.stall.queue_full"));
    EXPECT_EQ(data_region(*r), data_region(*c));
    if (HasFailure()) break;
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, RtlRandom, testing::Values("tandem-8x8", "vta-16x16"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace tandem::hw_test
