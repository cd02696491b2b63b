// csim against the RTL, the cycle truth (docs/microarch.md): the same
// programs must take the same cycles.total, with the same per-module
// activity counters and data-bus cycles. Runs only when the "rtl" target is
// built into this binary; the RTL has verilated models of the two presets
// (the memory latency may vary). Programs: the hand-built timing programs
// of timing_test.cc, the random pipelined programs of the fsim comparison,
// and driver GEMMs with one and two virtual threads.
#include "driver/device_registry.h"
#include "driver/gemm_program.h"
#include "tests/csim/csim_test_util.h"
#include "tests/csim/random_pipeline.h"

namespace tandem::sim::csim_test {
namespace {

using isa::Opcode;

class CsimVsRtl : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!driver::target_available("rtl")) GTEST_SKIP() << "the rtl target is not built";
  }
  HwConfig config(std::uint32_t latency) const {
    HwConfig c = preset(GetParam());
    c.mem_latency_cycles = latency;
    c.finalize();
    return c;
  }
};

void expect_same_timing(const isa::Stats& r, const isa::Stats& c, const std::string& what) {
  EXPECT_EQ(r.get("cycles.total"), c.get("cycles.total")) << what;
  for (const std::string u : {"load", "compute", "store"})
    for (const char* k : {".busy", ".idle", ".stall.token", ".stall.token_full"})
      EXPECT_EQ(r.get(u + k), c.get(u + k)) << what << ": " << u << k;
  for (const char* k : {"fetch.busy", "fetch.idle", "fetch.stall.queue_full", "mem.bus_cycles"})
    EXPECT_EQ(r.get(k), c.get(k)) << what << ": " << k;
}

// Raw programs start by loading zero micro-ops, so no SRAM is read before
// it is written in any backend.
std::vector<isa::Instruction> with_uops(std::vector<isa::Instruction> body) {
  body.insert(body.begin(), dma(Opcode::kLoad, isa::MemType::kUop, 0, 0x8000, 1, 64, 64));
  return body;
}

TEST_P(CsimVsRtl, HandBuiltTimingPrograms) {
  using isa::MemType;
  const auto push = deps(0, 0, 0, 1), pop = deps(1, 0, 0, 0);
  isa::Instruction padded = dma(Opcode::kLoad, MemType::kInp, 0, 64, 2, 4, 4);
  padded.y_pad_0 = 1;
  padded.x_pad_0 = 1;
  padded.x_pad_1 = 2;
  isa::Instruction pad_only = dma(Opcode::kLoad, MemType::kInp, 0, 64, 0, 4, 4);
  pad_only.y_pad_0 = 1;
  isa::Instruction rr_load = dma(Opcode::kLoad, MemType::kInp, 0, 28, 1, 8, 8);
  rr_load.x_pad_0 = 1;
  const std::vector<std::pair<std::string, std::vector<isa::Instruction>>> programs = {
      {"gemm 0", {gemm(0), finish()}},
      {"gemm 1", {gemm(1), finish()}},
      {"gemm 3x4x5", {gemm(3, 4, 5), finish()}},
      {"load 4", {dma(Opcode::kLoad, MemType::kInp, 0, 64, 1, 4, 4), finish()}},
      {"load 64", {dma(Opcode::kLoad, MemType::kInp, 0, 32, 1, 64, 64), finish()}},
      {"load crossing", {dma(Opcode::kLoad, MemType::kInp, 0, 31, 1, 2, 2), finish()}},
      {"wgt rows", {dma(Opcode::kLoad, MemType::kWgt, 0, 3, 3, 2, 5), finish()}},
      {"padded", {padded, finish()}},
      {"pad only", {pad_only, finish()}},
      {"empty load", {dma(Opcode::kLoad, MemType::kInp, 0, 64, 0, 4, 4), finish()}},
      {"token",
       {dma(Opcode::kLoad, MemType::kInp, 0, 64, 1, 8, 8, push), gemm(4, 1, 1, pop), finish()}},
      {"three gemms", {gemm(50), gemm(50), gemm(50), finish()}},
      {"round robin", {rr_load, dma(Opcode::kLoad, MemType::kAcc, 0, 7, 1, 2, 2), finish()}},
      {"pipeline",
       {dma(Opcode::kLoad, MemType::kInp, 0, 64, 4, 8, 8, push), gemm(40, 1, 1, deps(1, 0, 0, 1)),
        dma(Opcode::kStore, MemType::kOut, 0, 64, 1, 8, 8, deps(1, 0, 1, 0)),
        gemm(10, 1, 1, deps(0, 1, 0, 0)), finish()}},
  };
  for (std::uint32_t latency : {1u, 7u, 32u}) {
    const HwConfig cfg = config(latency);
    for (const auto& [name, body] : programs) {
      for (bool uops : {false, true}) {
        if (!uops && body.front().opcode == Opcode::kGemm) continue;
        const auto insns = uops ? with_uops(body) : body;
        auto r = driver::make_device("rtl", cfg);
        auto c = make_csim(cfg);
        expect_same_timing(run_raw(*r, insns), run_raw(*c, insns),
                           name + (uops ? " (+uops)" : "") + " L=" + std::to_string(latency));
      }
    }
  }
}

TEST_P(CsimVsRtl, RandomPipelinedPrograms) {
  for (int seed = 0; seed < 8; ++seed) {
    const HwConfig cfg = config(seed % 2 ? 32 : 3 + seed);
    std::mt19937 rng(500 + seed);
    const RandomProgram p = random_program(cfg, rng, 2 + seed % 5);
    std::vector<isa::Stats> stats;
    std::vector<std::vector<std::uint8_t>> outs;
    for (const char* target : {"rtl", "csim"}) {
      driver::Runtime rt(cfg, target);
      fill_buffers(rt, p.program, seed);
      stats.push_back(rt.run(p.program));
      outs.push_back(rt.read_as<std::uint8_t>("OUT"));
    }
    expect_same_timing(stats[0], stats[1], "seed " + std::to_string(seed));
    EXPECT_EQ(outs[0], outs[1]) << "seed " << seed;
  }
}

TEST_P(CsimVsRtl, BlockedGemms) {
  const HwConfig cfg = config(32);
  for (int vthreads : {1, 2}) {
    driver::GemmSpec spec;
    spec.m = 16;
    spec.n = 32;
    spec.k = 64;
    spec.vthreads = vthreads;
    spec.requantize = vthreads == 2;
    spec.shift = 5;
    const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
    std::mt19937 rng(vthreads);
    std::vector<std::int8_t> a(spec.m * spec.k), b(spec.n * spec.k);
    for (auto& x : a) x = static_cast<std::int8_t>(rng());
    for (auto& x : b) x = static_cast<std::int8_t>(rng());
    driver::Runtime rr(cfg, "rtl"), rc(cfg, "csim");
    const driver::GemmRun r = driver::run_gemm(rr, gp, a, b);
    const driver::GemmRun c = driver::run_gemm(rc, gp, a, b);
    expect_same_timing(r.stats, c.stats, "gemm vthreads " + std::to_string(vthreads));
    EXPECT_EQ(r.c, c.c);
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, CsimVsRtl, ::testing::Values("tandem-8x8", "vta-16x16"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

}  // namespace
}  // namespace tandem::sim::csim_test
