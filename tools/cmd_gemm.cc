// `tandem gemm`: runs a random blocked int8 GEMM on a device target and checks
// it element by element against the host_cpu reference.
//
// Prints "check: PASS" or "check: FAIL at C[i][j]: got X expected Y", the
// device statistics (counters and values; cycles when the backend has them),
// the tiling and the wall time of the run. --json writes the same as JSON.
// Exit code 0 only on PASS.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "driver/device_registry.h"
#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "isa/error.h"
#include "tools/command.h"
#include "tools/device_flags.h"
#include "tools/op_report.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

int run_gemm_cmd(int argc, char** argv) {
  po::options_description opts(
      "tandem gemm --m M --n N --k K [options]\n"
      "C[m][n] = A[m][k] . B[n][k]^T on random int8 inputs, checked against host_cpu");
  opts.add_options()("help,h", "show this help")("m", po::value<int>(), "rows of A and C")(
      "n", po::value<int>(), "rows of B, columns of C")("k", po::value<int>(), "reduction length")(
      "target", po::value<std::string>()->default_value("fsim"), "device: fsim, csim or rtl")(
      "config", po::value<std::string>()->default_value("tandem-8x8"),
      "config preset name or JSON file")("vthreads", po::value<int>()->default_value(1),
                                         "virtual threads (1 or 2)")(
      "seed", po::value<unsigned>()->default_value(1), "random seed of the inputs")(
      "shift", po::value<int>(),
      "requantize: C = clip(acc >> shift, -128, 127) (default: plain int8 narrowing)")(
      "json", po::value<std::string>(), "write the results as JSON to this file");
  add_device_flags(opts);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << "tandem gemm: " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return 0;
  }
  TANDEM_CHECK(vm.count("m") && vm.count("n") && vm.count("k"),
               "tandem gemm: --m, --n and --k are required");

  const HwConfig cfg = HwConfig::load_preset(vm["config"].as<std::string>());
  driver::GemmSpec spec;
  spec.m = vm["m"].as<int>();
  spec.n = vm["n"].as<int>();
  spec.k = vm["k"].as<int>();
  spec.vthreads = vm["vthreads"].as<int>();
  if (vm.count("shift")) {
    spec.requantize = true;
    spec.shift = vm["shift"].as<int>();
  }
  const std::string target = vm["target"].as<std::string>();

  const auto t_build = std::chrono::steady_clock::now();
  const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
  const double build_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_build).count();

  std::mt19937 rng(vm["seed"].as<unsigned>());
  std::uniform_int_distribution<int> dist(-128, 127);
  std::vector<std::int8_t> a(std::size_t(spec.m) * spec.k), b(std::size_t(spec.n) * spec.k);
  for (auto& x : a) x = static_cast<std::int8_t>(dist(rng));
  for (auto& x : b) x = static_cast<std::int8_t>(dist(rng));

  driver::Runtime rt(cfg, target, device_flags(vm));
  const driver::GemmRun r = driver::run_gemm(rt, gp, a, b);
  const auto expect = driver::reference_gemm(spec, a, b);

  bool pass = true;
  std::string check = "PASS";
  for (std::size_t idx = 0; idx < expect.size(); ++idx) {
    if (r.c[idx] != expect[idx]) {
      pass = false;
      check = (Msg() << "FAIL at C[" << idx / spec.n << "][" << idx % spec.n << "]: got "
                     << int(r.c[idx]) << " expected " << int(expect[idx]))
                  .str();
      break;
    }
  }

  const auto& t = gp.tiling;
  std::printf("gemm m=%d n=%d k=%d config=%s target=%s vthreads=%d%s\n", spec.m, spec.n, spec.k,
              cfg.name.c_str(), target.c_str(), spec.vthreads,
              spec.requantize ? (" shift=" + std::to_string(spec.shift)).c_str() : "");
  std::printf("tiling: %dx%dx%d blocks in tiles of %dx%dx%d; %zu instructions, %zu micro-ops\n",
              t.mo, t.no, t.ko, t.tm, t.tn, t.tk, gp.program.insns.size(), gp.program.uops.size());
  std::printf("check: %s\n", check.c_str());
  print_stats(r.stats);
  if (!r.stats.counters.count("cycles.total"))
    std::printf("  (target %s reports no cycle counts)\n", target.c_str());
  std::printf("wall time: run %.6f s, program build %.6f s; %.3f GMAC/s simulated\n", r.run_seconds,
              build_s, r.run_seconds > 0 ? double(gp.macs) / r.run_seconds / 1e9 : 0.0);

  if (vm.count("json")) {
    nlohmann::json j;
    j["shape"] = {{"m", spec.m}, {"n", spec.n}, {"k", spec.k}};
    j["config"] = cfg.name;
    j["target"] = target;
    j["vthreads"] = spec.vthreads;
    j["requantize"] = spec.requantize;
    if (spec.requantize) j["shift"] = spec.shift;
    j["seed"] = vm["seed"].as<unsigned>();
    j["tiling"] = {{"tm", t.tm}, {"tn", t.tn}, {"tk", t.tk}};
    j["insns"] = gp.program.insns.size();
    j["uops"] = gp.program.uops.size();
    j["macs"] = gp.macs;
    j["check"] = {{"pass", pass}, {"message", check}};
    j["stats"] = nlohmann::json::parse(r.stats.to_json());
    j["wall_seconds"] = {{"run", r.run_seconds}, {"build", build_s}};
    std::ofstream out(vm["json"].as<std::string>());
    TANDEM_CHECK(out.good(), "tandem gemm: cannot write '" << vm["json"].as<std::string>() << "'");
    out << j.dump(2) << "\n";
  }
  return pass ? 0 : 1;
}

const Register reg("gemm", "run a random int8 GEMM on a target and check it against host_cpu",
                   run_gemm_cmd);

}  // namespace
}  // namespace tandem::cli
