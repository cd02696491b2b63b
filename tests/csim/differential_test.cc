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

// A random program in which iteration i works on SRAM half i%2: load fills
// inp/wgt halves, compute (GEMM/ALU/acc loads) works on the acc/out half,
// store writes the out half to a DRAM slot of its own. Tokens: load->compute
// (data ready), compute->load (halves free again), compute->store (results
// ready), store->compute (out half free again).
struct RandomProgram {
  isa::Program program;
  std::uint64_t out_bytes = 0;
};

RandomProgram random_program(const HwConfig& cfg, std::mt19937& rng, int iterations) {
  auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::uint32_t inp_half = cfg.inp_depth / 2, wgt_half = cfg.wgt_depth / 2,
                      acc_half = cfg.acc_depth / 2;
  constexpr std::uint32_t kSlot = 128;  // out elements per iteration in DRAM
  driver::CommandBuilder b(cfg);
  b.declare_buffer("IN", 4096ull * cfg.inp_elem_bytes);
  b.declare_buffer("WG", 1024ull * cfg.wgt_elem_bytes);
  b.declare_buffer("ACC", 1024ull * cfg.acc_elem_bytes);
  b.declare_buffer("OUT", std::uint64_t{kSlot} * iterations * cfg.out_elem_bytes);
  for (int i = 0; i < iterations; ++i) {
    const std::uint32_t h = i % 2;
    if (i >= 2) b.pop_dep(Module::kCompute, Module::kLoad);
    for (MemType mem : {MemType::kInp, MemType::kWgt}) {
      if (r(0, 3) == 0) continue;
      const std::uint32_t y = r(1, 4), x = r(1, 12), stride = x + r(0, 5);
      isa::Pad pad;
      if (mem == MemType::kInp && r(0, 1))
        pad = {std::uint32_t(r(0, 2)), std::uint32_t(r(0, 2)), std::uint32_t(r(0, 2)),
               std::uint32_t(r(0, 2))};
      const std::uint32_t half = mem == MemType::kInp ? inp_half : wgt_half;
      b.load(mem, h * half + r(0, 40),
             {mem == MemType::kInp ? "IN" : "WG", std::uint64_t(r(0, 900))}, y, x, stride, pad);
    }
    b.push_dep(Module::kLoad, Module::kCompute);
    b.pop_dep(Module::kLoad, Module::kCompute);
    if (i >= 2) b.pop_dep(Module::kStore, Module::kCompute);
    const int ops = r(1, 4);
    for (int op = 0; op < ops; ++op) {
      const int kind = r(0, 5);
      if (kind == 0) {
        b.load(MemType::kAcc, h * acc_half + r(0, 60), {"ACC", std::uint64_t(r(0, 900))}, r(1, 3),
               r(1, 8), 8);
        continue;
      }
      const bool alu = kind >= 4;
      isa::KernelOp k = isa::KernelOp::gemm(r(0, 7) == 0);
      if (alu) {
        const auto aop = static_cast<isa::AluOp>(r(0, 4));
        k = r(0, 1) ? isa::KernelOp::alu_imm(aop, aop == isa::AluOp::kShr ? r(-8, 8) : r(-300, 300))
                    : isa::KernelOp::alu_tensor(aop);
      }
      std::vector<isa::KernelLoop> loops;
      for (int l = r(0, 2); l > 0; --l)
        loops.push_back({std::uint32_t(r(1, 3)), std::uint32_t(r(0, 4)), std::uint32_t(r(0, 4)),
                         alu ? 0u : std::uint32_t(r(0, 4))});
      b.begin_kernel(k, loops);
      for (int u = r(1, 6); u > 0; --u) {
        const std::uint32_t dst = h * acc_half + r(0, 63);
        if (alu)
          b.push_uop(dst, h * acc_half + r(0, 63), 0);
        else
          b.push_uop(dst, h * inp_half + r(0, 63), h * wgt_half + r(0, 63));
      }
      b.end_kernel();
    }
    b.push_dep(Module::kCompute, Module::kLoad);
    b.push_dep(Module::kCompute, Module::kStore);
    b.pop_dep(Module::kCompute, Module::kStore);
    const std::uint32_t y = r(1, 4), x = r(1, 16);
    b.store(h * acc_half + r(0, 40), {"OUT", std::uint64_t{kSlot} * i}, y, x, x + r(0, 8));
    b.push_dep(Module::kStore, Module::kCompute);
  }
  for (int i = 0; i < std::min(iterations, 2); ++i) {
    b.pop_dep(Module::kCompute, Module::kLoad);
    b.pop_dep(Module::kStore, Module::kCompute);
  }
  RandomProgram p;
  p.out_bytes = std::uint64_t{kSlot} * iterations * cfg.out_elem_bytes;
  p.program = b.finish();
  return p;
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::mt19937& rng) {
  std::vector<std::uint8_t> v(n);
  for (auto& x : v) x = static_cast<std::uint8_t>(rng());
  return v;
}

TEST(CsimDifferential, RandomPipelinedProgramsMatchFsim) {
  int programs = 0;
  for (const char* name : {"tandem-8x8", "vta-16x16"}) {
    HwConfig cfg = preset(name);
    for (int seed = 0; seed < 12; ++seed) {
      std::mt19937 rng(1000 + seed);
      HwConfig c = cfg;
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
        std::mt19937 data(seed);
        for (const auto& buf : p.program.buffers) {
          const auto bytes = random_bytes(buf.bytes, data);
          rt->allocate(buf.name, buf.bytes);
          rt->write(buf.name, bytes.data(), bytes.size());
        }
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
