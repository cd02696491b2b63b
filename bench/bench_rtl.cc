// bench_rtl: simulation speed of the verilated RTL (target "rtl").
//
// Runs the driver's blocked int8 GEMM (default 256x256x256, two virtual
// threads) on the RTL for both presets and reports simulated cycles per
// second: cycles.total / wall seconds of Runtime::run() (program inspection,
// RTL reset and the clocked run; packing and checking excluded), best and
// median of --reps runs, plus the engine-only figure the device reports
// (values["sim.cycles_per_second"]), cycles, GEMM and bus utilization. Each
// result is checked bit-exact against host_cpu. Prints JSON to stdout and
// writes it to --json FILE.
//
// usage: bench_rtl [--size N | --m M --n N --k K] [--reps R] [--vthreads V]
//                  [--config NAME]... [--json FILE]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "isa/error.h"

namespace {

using namespace tandem;

using Args = bench::BenchArgs;

Args parse(int argc, char** argv) {
  Args d;
  d.m = d.n = d.k = 256;
  d.configs = {"tandem-8x8", "vta-16x16"};
  return bench::parse_bench_args(argc, argv, d,
                                 "usage: bench_rtl [--size N | --m M --n N --k K] [--reps R] "
                                 "[--vthreads V] [--config NAME]... [--json FILE]");
}

nlohmann::json bench_one(const Args& a, const std::string& preset) {
  const HwConfig cfg = HwConfig::load_preset(preset);
  driver::GemmSpec spec{a.m, a.n, a.k, a.vthreads};
  const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
  std::mt19937 rng(42);
  std::vector<std::int8_t> A(static_cast<std::size_t>(a.m) * a.k),
      B(static_cast<std::size_t>(a.n) * a.k);
  for (auto& x : A) x = static_cast<std::int8_t>(rng());
  for (auto& x : B) x = static_cast<std::int8_t>(rng());
  const auto ref = driver::reference_gemm(spec, A, B);

  driver::Runtime rt(cfg, "rtl");
  std::vector<double> cps, engine_cps;
  isa::Stats stats;
  for (int r = 0; r < a.reps; ++r) {
    const driver::GemmRun run = driver::run_gemm(rt, gp, A, B);
    TANDEM_CHECK(run.c == ref, "bench_rtl: " << preset << " result differs from host_cpu");
    stats = run.stats;
    cps.push_back(static_cast<double>(stats.get("cycles.total")) / run.run_seconds);
    engine_cps.push_back(stats.values.at("sim.cycles_per_second"));
  }
  std::vector<double> sorted = cps;
  std::sort(sorted.begin(), sorted.end());
  const double best = sorted.back(), median = sorted[sorted.size() / 2];
  return {
      {"config", preset},
      {"m", a.m},
      {"n", a.n},
      {"k", a.k},
      {"vthreads", a.vthreads},
      {"reps", a.reps},
      {"cycles", stats.get("cycles.total")},
      {"instructions", stats.get("insn.total")},
      {"gemm_uops", stats.get("uop.gemm")},
      {"cycles_per_second_best", best},
      {"cycles_per_second_median", median},
      {"engine_cycles_per_second_best", *std::max_element(engine_cps.begin(), engine_cps.end())},
      {"gemm_utilization", stats.values.at("gemm.utilization")},
      {"mem_bus_utilization", stats.values.at("mem.bus_utilization")}};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    nlohmann::json results = nlohmann::json::array();
    for (const auto& c : a.configs) results.push_back(bench_one(a, c));
    const nlohmann::json out = {{"benchmark", "rtl"},
                                {"metric", "simulated cycles per second (Runtime::run wall time)"},
                                {"results", results}};
    std::printf("%s\n", out.dump(2).c_str());
    if (!a.json.empty()) {
      std::ofstream f(a.json);
      TANDEM_CHECK(f.good(), "bench_rtl: cannot write '" << a.json << "'");
      f << out.dump(2) << "\n";
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
