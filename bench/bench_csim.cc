// bench_csim: simulation speed of the SystemC cycle simulator (csim).
//
// Runs the driver's blocked int8 GEMM with two virtual threads (default
// 512x512x512) on csim for both presets (tandem-8x8, vta-16x16) and reports
// simulated cycles per second = cycles.total / wall seconds of Runtime::run()
// (program building, packing and checking excluded; the FunctionalCore's
// data work is included), best and median of --reps runs, plus the model's
// own figures (cycles, GEMM utilization, memory bus utilization, events
// avoided per cycle). Each result is checked bit-exact against host_cpu.
// Prints JSON to stdout and writes it to --json FILE. Also runs the same
// program on fsim once to report csim's slowdown over pure function.
//
// usage: bench_csim [--size N | --m M --n N --k K] [--reps R] [--vthreads V]
//                   [--config NAME]... [--json FILE]
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
  d.configs = {"tandem-8x8", "vta-16x16"};
  return bench::parse_bench_args(argc, argv, d,
                                 "usage: bench_csim [--size N | --m M --n N --k K] [--reps R] "
                                 "[--vthreads V] [--config NAME]... [--json FILE]");
}

nlohmann::json bench_one(const std::string& preset, const Args& args) {
  const HwConfig cfg = HwConfig::load_preset(preset);
  driver::GemmSpec spec;
  spec.m = args.m;
  spec.n = args.n;
  spec.k = args.k;
  spec.vthreads = args.vthreads;
  const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
  std::mt19937 rng(42);
  std::vector<std::int8_t> a(std::size_t(args.m) * args.k), b(std::size_t(args.n) * args.k);
  for (auto& x : a) x = static_cast<std::int8_t>(rng());
  for (auto& x : b) x = static_cast<std::int8_t>(rng());

  driver::Runtime rt(cfg, "csim");
  std::vector<double> secs;
  driver::GemmRun last;
  for (int r = 0; r < args.reps; ++r) {
    last = driver::run_gemm(rt, gp, a, b);
    secs.push_back(last.run_seconds);
  }
  const bool pass = last.c == driver::reference_gemm(spec, a, b);
  driver::Runtime frt(cfg, "fsim");
  driver::GemmRun f;
  double fsim_best = 1e30;
  for (int r = 0; r < args.reps; ++r) {
    f = driver::run_gemm(frt, gp, a, b);
    fsim_best = std::min(fsim_best, f.run_seconds);
  }
  std::sort(secs.begin(), secs.end());
  const double best = secs.front(), median = secs[secs.size() / 2];
  const isa::Stats& s = last.stats;
  const double cycles = static_cast<double>(s.get("cycles.total"));
  nlohmann::json j;
  j["target"] = "csim";
  j["config"] = preset;
  j["vthreads"] = args.vthreads;
  j["shape"] = {{"m", args.m}, {"n", args.n}, {"k", args.k}};
  j["tiling"] = {{"tm", gp.tiling.tm}, {"tn", gp.tiling.tn}, {"tk", gp.tiling.tk}};
  j["insns"] = gp.program.insns.size();
  j["uops_executed"] = s.get("uop.gemm") + s.get("uop.alu");
  j["mem_bursts"] = s.get("mem.bursts");
  j["cycles_total"] = s.get("cycles.total");
  j["gemm_utilization"] = s.values.at("gemm.utilization");
  j["mem_bus_utilization"] = s.values.at("mem.bus_utilization");
  j["mem_bandwidth_gbps"] = s.values.at("mem.bandwidth_gbps");
  j["reps"] = args.reps;
  j["run_seconds_best"] = best;
  j["run_seconds_median"] = median;
  j["sim_cycles_per_second_best"] = cycles / best;
  j["sim_cycles_per_second_median"] = cycles / median;
  j["fsim_run_seconds_best"] = fsim_best;
  j["csim_over_fsim_time"] = best / fsim_best;
  j["check_pass"] = pass && f.c == last.c;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    nlohmann::json out;
    out["benchmark"] = "bench_csim";
    out["results"] = nlohmann::json::array();
    bool ok = true;
    for (const auto& c : args.configs) {
      nlohmann::json r = bench_one(c, args);
      ok = ok && r["check_pass"].get<bool>();
      out["results"].push_back(r);
      std::fprintf(stderr, "%s: %.3g simulated cycles/s (%llu cycles in %.3f s)\n", c.c_str(),
                   r["sim_cycles_per_second_best"].get<double>(),
                   static_cast<unsigned long long>(r["cycles_total"].get<std::uint64_t>()),
                   r["run_seconds_best"].get<double>());
    }
    const std::string text = out.dump(2);
    std::printf("%s\n", text.c_str());
    if (!args.json.empty()) {
      std::ofstream f(args.json);
      TANDEM_CHECK(f.good(), "cannot write " << args.json);
      f << text << "\n";
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_csim: %s\n", e.what());
    return 2;
  }
}
