// csim against fsim: the same programs must leave the same memory, bit for
// bit, and the same FunctionalCore counters. Programs: driver GEMMs (1 and
// 2 virtual threads, with and without requantization) and random race-free
// pipelined programs (random DMA shapes and padding, GEMM/ALU kernels,
// accumulator loads, stores) whose tokens order every cross-module access.
#include <random>

#include "driver/command_builder.h"
#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "tests/csim/csim_test_util.h"
#include "tests/csim/random_pipeline.h"

namespace tandem::sim::csim_test {
namespace {

using isa::MemType;
using isa::Module;

const char* const kCounters[] = {"insn.load",      "insn.store",      "insn.gemm",
                                 "insn.alu",       "insn.finish",     "uop.gemm",
                                 "uop.gemm_reset", "uop.alu",         "macs",
                                 "bytes.load.uop", "bytes.load.inp",  "bytes.load.wgt",
                                 "bytes.load.acc", "bytes.store.out", "pad_elems"};

void expect_same_counters(const isa::Stats& f, const isa::Stats& c) {
  for (const char* k : kCounters) EXPECT_EQ(f.get(k), c.get(k)) << k;
  EXPECT_EQ(c.get("insn.total"), f.get("insn.total"));
}

class CsimGemm : public ::testing::TestWithParam<std::tuple<std::string, int, bool>> {};

TEST_P(CsimGemm, MatchesFsimAndReference) {
  const auto& [preset_name, vthreads, requant] = GetParam();
  const HwConfig cfg = preset(preset_name);
  driver::GemmSpec spec;
  spec.m = 24;
  spec.n = 40;
  spec.k = 72;
  spec.vthreads = vthreads;
  spec.requantize = requant;
  spec.shift = 6;
  if (vthreads == 2) {  // small tiles: many steps, so the threads interleave
    spec.tile_m = 2;
    spec.tile_n = 1;
    spec.tile_k = 2;
  }
  const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> a(spec.m * spec.k), b(spec.n * spec.k);
  for (auto& x : a) x = static_cast<std::int8_t>(d(rng));
  for (auto& x : b) x = static_cast<std::int8_t>(d(rng));
  driver::Runtime rf(cfg, "fsim"), rc(cfg, "csim");
  const driver::GemmRun f = driver::run_gemm(rf, gp, a, b);
  const driver::GemmRun c = driver::run_gemm(rc, gp, a, b);
  EXPECT_EQ(c.c, driver::reference_gemm(spec, a, b));
  EXPECT_EQ(c.c, f.c);
  expect_same_counters(f.stats, c.stats);
  EXPECT_GT(c.stats.get("cycles.total"), 0u);
  EXPECT_GT(c.stats.values.at("gemm.utilization"), 0.0);
  EXPECT_LE(c.stats.values.at("gemm.utilization"), 1.0);
  EXPECT_LE(c.stats.values.at("mem.bus_utilization"), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Presets, CsimGemm,
                         ::testing::Combine(::testing::Values("tandem-8x8", "vta-16x16"),
                                            ::testing::Values(1, 2), ::testing::Bool()));

TEST(CsimDifferential, RandomPipelinedProgramsMatchFsim) {
  int programs = 0;
  for (const char* name : {"tandem-8x8", "vta-16x16"}) {
    HwConfig cfg = preset(name);
    for (int seed = 0; seed < 12; ++seed) {
      std::mt19937 rng(1000 + seed);
      HwConfig c = cfg;
      c.dram_bytes = 16u << 20;
      if (seed % 3 == 1) {  // shallow queues and a slow port: more back-pressure
        c.cmd_queue_depth = 2;
        c.token_queue_depth = 1;
        c.mem_latency_cycles = 3;
        c.mem_bytes_per_cycle = 16;
      }
      c.finalize();
      const RandomProgram p = random_program(c, rng, 3 + seed % 6);
      driver::Runtime rf(c, "fsim"), rc(c, "csim");
      std::vector<std::vector<std::uint8_t>> outs;
      std::vector<isa::Stats> stats;
      for (driver::Runtime* rt : {&rf, &rc}) {
        fill_buffers(*rt, p.program, seed);
        stats.push_back(rt->run(p.program));
        outs.push_back(rt->read_as<std::uint8_t>("OUT"));
      }
      EXPECT_EQ(outs[0], outs[1]) << name << " seed " << seed;
      expect_same_counters(stats[0], stats[1]);
      ++programs;
    }
  }
  EXPECT_EQ(programs, 24);
}

}  // namespace
}  // namespace tandem::sim::csim_test
