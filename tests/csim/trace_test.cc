// csim's outputs besides memory: the Chrome/Perfetto trace JSON (tracks,
// slices, token flows, counters), the VCD waveform, and the overlap that two
// virtual threads buy on a blocked GEMM.
#include <map>
#include <random>
#include <set>

#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "tests/csim/csim_test_util.h"

namespace tandem::sim::csim_test {
namespace {

driver::GemmProgram gemm_program(const HwConfig& cfg, int vthreads) {
  driver::GemmSpec spec;
  spec.m = 16;
  spec.n = 32;
  spec.k = 128;
  spec.vthreads = vthreads;
  spec.tile_m = 2;
  spec.tile_n = 2;
  spec.tile_k = 4;
  return driver::build_gemm_program(cfg, spec);
}

driver::GemmRun run_gemm(const HwConfig& cfg, const driver::GemmProgram& gp,
                         const isa::DeviceOptions& opts = {}) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> a(gp.spec.m * gp.spec.k), b(gp.spec.n * gp.spec.k);
  for (auto& x : a) x = static_cast<std::int8_t>(d(rng));
  for (auto& x : b) x = static_cast<std::int8_t>(d(rng));
  driver::Runtime rt(make_csim(cfg, opts));
  driver::GemmRun r = driver::run_gemm(rt, gp, a, b);
  EXPECT_EQ(r.c, driver::reference_gemm(gp.spec, a, b));
  return r;
}

bool overlaps(const Slice& x, const Slice& y) {
  return x.cycle <= y.last() && y.cycle <= x.last();
}

TEST(CsimTrace, TwoVirtualThreadGemmTraceIsValidAndOverlaps) {
  const HwConfig cfg = preset("tandem-8x8");
  isa::DeviceOptions o;
  o.trace_path = temp_path(".json");
  const driver::GemmProgram gp = gemm_program(cfg, 2);
  const driver::GemmRun r = run_gemm(cfg, gp, o);
  const Trace t = read_trace(o.trace_path);
  std::filesystem::remove(o.trace_path);

  // One named track per module plus memory.
  std::set<std::string> tracks;
  for (const auto& e : t.json["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") tracks.insert(e["args"]["name"]);
  EXPECT_EQ(tracks, (std::set<std::string>{"fetch", "load", "compute", "store", "memory"}));

  // Every instruction is one slice on its module's track, named by opcode.
  std::map<std::string, std::uint64_t> per_name;
  std::uint64_t insn_slices = 0;
  for (const Slice& s : t.slices) {
    if (s.track == "memory" || s.track == "fetch") continue;
    ++insn_slices;
    ++per_name[s.name];
    EXPECT_TRUE(s.args.contains("index"));
    if (s.name == "GEMM" || s.name == "ALU") {
      EXPECT_TRUE(s.args.contains("uops"));
    }
    if (s.name == "LOAD" || s.name == "STORE") {
      EXPECT_TRUE(s.args.contains("mem"));
      EXPECT_TRUE(s.args.contains("bytes"));
    }
  }
  EXPECT_EQ(insn_slices, r.stats.get("insn.total"));
  EXPECT_EQ(per_name["GEMM"], r.stats.get("insn.gemm"));
  EXPECT_EQ(per_name["STORE"], r.stats.get("insn.store"));
  EXPECT_EQ(per_name["FINISH"], 1u);

  // Slices on one module track never overlap (one instruction at a time).
  for (const std::string m : {"load", "compute", "store", "memory"}) {
    auto v = t.on(m);
    std::sort(v.begin(), v.end(), [](const Slice& a, const Slice& b) { return a.cycle < b.cycle; });
    for (std::size_t i = 1; i < v.size(); ++i) EXPECT_GT(v[i].cycle, v[i - 1].last()) << m;
  }
  // Timestamps are microseconds at the clock: ts * clock_mhz == cycle.
  for (const auto& e : t.json["traceEvents"]) {
    if (e["ph"] == "X") {
      EXPECT_NEAR(e["ts"].get<double>() * cfg.clock_mhz, e["args"]["cycle"].get<double>(), 1e-3);
    }
  }

  // Load and compute work at the same time.
  bool overlap = false;
  for (const Slice& l : t.on("load", "LOAD"))
    for (const Slice& g : t.on("compute", "GEMM")) overlap = overlap || overlaps(l, g);
  EXPECT_TRUE(overlap);

  // Flows: every pop ("f") has its push ("s") with the same id, earlier.
  std::map<std::uint64_t, double> starts;
  std::size_t finishes = 0;
  for (const auto& e : t.json["traceEvents"])
    if (e["ph"] == "s") starts[e["id"].get<std::uint64_t>()] = e["ts"].get<double>();
  for (const auto& e : t.json["traceEvents"]) {
    if (e["ph"] != "f") continue;
    ++finishes;
    const auto it = starts.find(e["id"].get<std::uint64_t>());
    ASSERT_NE(it, starts.end());
    EXPECT_LT(it->second, e["ts"].get<double>());
    EXPECT_EQ(e["bp"], "e");
  }
  EXPECT_EQ(finishes, starts.size());
  EXPECT_GT(finishes, 0u);
}

// Two virtual threads overlap load, compute and store: fewer cycles than one
// thread doing the same work, and fewer than the modules' busy cycles added up.
TEST(CsimTrace, TwoVirtualThreadsBeatSerializedExecution) {
  for (const char* name : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = preset(name);
    const driver::GemmRun one = run_gemm(cfg, gemm_program(cfg, 1));
    const driver::GemmRun two = run_gemm(cfg, gemm_program(cfg, 2));
    const std::uint64_t c1 = one.stats.get("cycles.total"), c2 = two.stats.get("cycles.total");
    EXPECT_LT(c2, c1) << name;
    const std::uint64_t serial =
        two.stats.get("load.busy") + two.stats.get("compute.busy") + two.stats.get("store.busy");
    EXPECT_LT(c2, serial) << name;
    EXPECT_EQ(one.stats.get("macs"), two.stats.get("macs"));
  }
}

TEST(CsimTrace, VcdWaveformHasQueuesTokensAndStates) {
  const HwConfig cfg = preset("tandem-8x8");
  for (const std::string suffix : {".vcd", ".wave"}) {
    isa::DeviceOptions o;
    o.vcd_path = temp_path(suffix);
    std::filesystem::remove(o.vcd_path);
    run_gemm(cfg, gemm_program(cfg, 2), o);
    std::ifstream f(o.vcd_path);
    ASSERT_TRUE(f.good()) << o.vcd_path;
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (const char* sig :
         {"cmdq_load", "cmdq_compute", "cmdq_store", "tokens_load_to_compute",
          "tokens_compute_to_load", "tokens_compute_to_store", "tokens_store_to_compute",
          "state_fetch", "state_compute", "mem_wait_load", "$enddefinitions"})
      EXPECT_NE(text.find(sig), std::string::npos) << sig;
    // Many value changes were recorded (timestamps "#<t>").
    std::size_t stamps = 0;
    for (std::size_t p = text.find("\n#"); p != std::string::npos; p = text.find("\n#", p + 1))
      ++stamps;
    EXPECT_GT(stamps, 50u);
    std::filesystem::remove(o.vcd_path);
  }
}

TEST(CsimTrace, UnwritableTracePathIsAnError) {
  isa::DeviceOptions o;
  o.trace_path = "/nonexistent-dir/trace.json";
  auto dev = make_csim(preset("tandem-8x8"), o);
  expect_error([&] { run_raw(*dev, {gemm(1), finish()}); }, {"trace file", "/nonexistent-dir"});
  // The device still works afterwards.
  auto ok = make_csim(preset("tandem-8x8"));
  EXPECT_EQ(run_raw(*ok, {gemm(1), finish()}).get("cycles.total"), 32u + 11);
}

}  // namespace
}  // namespace tandem::sim::csim_test

namespace tandem::sim::csim_test {
namespace {

TEST(CsimTrace, UnwritableVcdPathIsAnErrorAndTheModelSurvives) {
  isa::DeviceOptions o;
  o.vcd_path = "/nonexistent-dir/wave.vcd";
  auto dev = make_csim(preset("tandem-8x8"), o);
  expect_error([&] { run_raw(*dev, {gemm(1), finish()}); }, {"VCD", "/nonexistent-dir/wave.vcd"});
  auto ok = make_csim(preset("tandem-8x8"));
  EXPECT_EQ(run_raw(*ok, {gemm(1), finish()}).get("cycles.total"), 32u + 11);
}

}  // namespace
}  // namespace tandem::sim::csim_test
