// Benchmark: the conv layers of one ResNet-18 inference (batch 1) compiled
// by the schedule compiler and run on a device (csim by default).
//
// For each distinct layer: compile time, instructions, cycles, GEMM
// utilization, simulator wall time and simulated cycles per second. Totals
// weight each layer by how often it occurs in the network, giving the conv
// cycles and the simulator wall time of a whole inference (the figure VTA's
// cycle simulator needed 228 s for). Outputs are checked against fsim's
// (bit-exact) when the device is not fsim. JSON to stdout and --json FILE.
//
// usage: bench_resnet18 [--target csim|rtl|fsim] [--config NAME] [--vthreads V] [--json FILE]
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "compiler/ops/conv2d.h"
#include "compiler/ops/resnet18.h"
#include "driver/op_operands.h"
#include "driver/packing.h"
#include "driver/runtime.h"
#include "isa/error.h"

using namespace tandem;

namespace {

using driver::LayerRun;

LayerRun run_layer(const HwConfig& cfg, const std::string& target, const ops::CompiledOp& op,
                   const ops::Conv2dShape& s, unsigned seed) {
  const driver::OpOperands x = driver::random_conv2d_operands(s, ops::Epilogue{}, seed);
  const driver::Shape4 in{s.n, s.ci, s.h, s.w}, wt{s.co, s.ci, s.kh, s.kw},
      out{s.n, s.co, s.oh(), s.ow()};
  return driver::run_layer(cfg, target, {}, op.program, x, in, wt, out, "kernel");
}

}  // namespace

int main(int argc, char** argv) {
  std::string target = "csim", config = "tandem-8x8", json_path;
  int vthreads = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_resnet18: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--target")
      target = next();
    else if (a == "--config")
      config = next();
    else if (a == "--vthreads")
      vthreads = std::stoi(next());
    else if (a == "--json")
      json_path = next();
    else {
      std::fprintf(stderr,
                   "usage: bench_resnet18 [--target T] [--config C] [--vthreads V] [--json F]\n");
      return 2;
    }
  }
  try {
    const HwConfig cfg = HwConfig::load_preset(config);
    nlohmann::json layers = nlohmann::json::array();
    double net_cycles = 0, net_seconds = 0, net_macs = 0, compile_s = 0;
    bool all_match = true;
    for (const auto& L : ops::resnet18_conv_layers()) {
      ops::Epilogue e;
      e.shift = 8;
      e.relu = true;
      const auto sch = ops::default_conv2d_schedule(cfg, L.shape, e, vthreads);
      const ops::CompiledOp op = ops::compile_conv2d(cfg, L.shape, e, sch, {});
      compile_s += op.compile_seconds();
      const LayerRun r = run_layer(cfg, target, op, L.shape, 7);
      bool match = true;
      if (target != "fsim") match = run_layer(cfg, "fsim", op, L.shape, 7).out == r.out;
      all_match = all_match && match;
      const double cycles = static_cast<double>(r.stats.get("cycles.total"));
      const auto util =
          r.stats.values.count("gemm.utilization") ? r.stats.values.at("gemm.utilization") : 0.0;
      net_cycles += cycles * L.repeats;
      net_seconds += r.seconds * L.repeats;
      net_macs += static_cast<double>(L.shape.macs()) * L.repeats;
      layers.push_back({{"layer", L.name},
                        {"shape", L.shape.to_string()},
                        {"repeats", L.repeats},
                        {"schedule", sch.to_string()},
                        {"instructions", op.insn_count()},
                        {"compile_s", op.compile_seconds()},
                        {"cycles", cycles},
                        {"gemm_utilization", util},
                        {"sim_seconds", r.seconds},
                        {"sim_cycles_per_second", r.seconds > 0 ? cycles / r.seconds : 0.0},
                        {"matches_fsim", match}});
      std::fprintf(stderr, "%-4s %-40s %10.0f cycles  util %.3f  %.3f s\n", L.name.c_str(),
                   L.shape.to_string().c_str(), cycles, util, r.seconds);
    }
    nlohmann::json j = {
        {"benchmark", "resnet18_conv_layers"},
        {"target", target},
        {"config", config},
        {"vthreads", vthreads},
        {"layers", layers},
        {"network",
         {{"conv_cycles", net_cycles},
          {"conv_macs", net_macs},
          {"conv_time_ms_at_clock", net_cycles / cfg.clock_mhz / 1000.0},
          {"sim_wall_seconds", net_seconds},
          {"sim_cycles_per_second", net_seconds > 0 ? net_cycles / net_seconds : 0.0},
          {"compile_seconds_distinct_layers", compile_s},
          {"all_outputs_match_fsim", all_match}}}};
    std::printf("%s\n", j.dump(2).c_str());
    if (!json_path.empty()) std::ofstream(json_path) << j.dump(2) << "\n";
    return all_match ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "bench_resnet18: error: %s\n", e.what());
    return 1;
  }
}
