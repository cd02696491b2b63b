// bench_fsim_gemm: simulated GEMM throughput of the functional simulator.
//
// Runs the driver's blocked int8 GEMM (default 512x512x512) on fsim for both
// presets (tandem-8x8, vta-16x16), 1 and 2 virtual threads, plus any other
// target named with --target (csim, rtl when built). Reports simulated MACs
// per second = m*n*k / wall seconds of Runtime::run() only (program building,
// packing and checking excluded), the best and median of --reps runs, and
// instruction/micro-op counts. Each result is checked bit-exact against
// host_cpu once. Prints JSON to stdout and writes it to --json FILE.
//
// usage: bench_fsim_gemm [--size N | --m M --n N --k K] [--reps R]
//                        [--tile-m TM --tile-n TN --tile-k TK] [--target T]...
//                        [--json FILE]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "driver/device_registry.h"
#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "isa/error.h"

namespace {

using namespace tandem;

using Args = bench::BenchArgs;

Args parse(int argc, char** argv) {
  Args d;
  d.targets = {"fsim"};
  return bench::parse_bench_args(
      argc, argv, d,
      "usage: bench_fsim_gemm [--size N | --m M --n N --k K] [--reps R] [--tile-m TM] [--tile-n "
      "TN] [--tile-k TK] [--target T]... [--json FILE]");
}

nlohmann::json bench_one(const std::string& target, const std::string& preset, int vthreads,
                         const Args& args) {
  const HwConfig cfg = HwConfig::load_preset(preset);
  driver::GemmSpec spec{args.m, args.n, args.k, vthreads};
  spec.tile_m = args.tile_m;
  spec.tile_n = args.tile_n;
  spec.tile_k = args.tile_k;
  const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
  std::mt19937 rng(42);
  std::vector<std::int8_t> a(std::size_t(args.m) * args.k), b(std::size_t(args.n) * args.k);
  for (auto& x : a) x = static_cast<std::int8_t>(rng());
  for (auto& x : b) x = static_cast<std::int8_t>(rng());

  driver::Runtime rt(cfg, target);
  std::vector<double> secs;
  driver::GemmRun last;
  for (int r = 0; r < args.reps; ++r) {
    last = driver::run_gemm(rt, gp, a, b);
    secs.push_back(last.run_seconds);
  }
  const bool pass = last.c == driver::reference_gemm(spec, a, b);
  std::sort(secs.begin(), secs.end());
  const double best = secs.front(), median = secs[secs.size() / 2];
  nlohmann::json j;
  j["target"] = target;
  j["config"] = preset;
  j["vthreads"] = vthreads;
  j["shape"] = {{"m", args.m}, {"n", args.n}, {"k", args.k}};
  j["tiling"] = {{"tm", gp.tiling.tm}, {"tn", gp.tiling.tn}, {"tk", gp.tiling.tk}};
  j["macs"] = gp.macs;
  j["padded_macs"] = gp.padded_macs;
  j["insns"] = gp.program.insns.size();
  j["uops_in_image"] = gp.program.uops.size();
  j["uops_executed"] = last.stats.get("uop.gemm") + last.stats.get("uop.alu");
  j["reps"] = args.reps;
  j["run_seconds_best"] = best;
  j["run_seconds_median"] = median;
  j["gmacs_per_second_best"] = double(gp.macs) / best / 1e9;
  j["gmacs_per_second_median"] = double(gp.macs) / median / 1e9;
  if (last.stats.counters.count("cycles.total")) j["cycles_total"] = last.stats.get("cycles.total");
  j["check_pass"] = pass;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    nlohmann::json out;
    out["benchmark"] = "fsim_gemm";
    out["results"] = nlohmann::json::array();
    bool all_pass = true;
    for (const auto& target : args.targets) {
      TANDEM_CHECK(driver::target_available(target),
                   "target '" << target << "' is not built into this binary");
      for (const char* preset : {"tandem-8x8", "vta-16x16"})
        for (int v : {1, 2}) {
          auto r = bench_one(target, preset, v, args);
          all_pass = all_pass && r["check_pass"].get<bool>();
          std::fprintf(stderr, "%s %s vthreads=%d: %.3f GMAC/s (best of %d, %.4f s)\n",
                       target.c_str(), preset, v, r["gmacs_per_second_best"].get<double>(),
                       args.reps, r["run_seconds_best"].get<double>());
          out["results"].push_back(std::move(r));
        }
    }
    const std::string text = out.dump(2);
    std::printf("%s\n", text.c_str());
    if (!args.json.empty()) {
      std::ofstream f(args.json);
      TANDEM_CHECK(f.good(), "cannot write '" << args.json << "'");
      f << text << "\n";
    }
    return all_pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
