// Compile-time benchmark: every ResNet-18 convolution layer (batch 1) through
// the whole compiler (tensor expression, default schedule, lowering,
// tensorize, accelerator passes, codegen), per preset and virtual-thread
// count. Prints JSON: per layer the schedule, lowering and accelerator-pass
// seconds, instruction and micro-op counts; per configuration the total.
//   bench_compile [--config NAME|FILE]... [--vthreads 1|2]... [--repeat N] [--out FILE]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/ops/conv2d.h"
#include "compiler/ops/resnet18.h"
#include "isa/error.h"

int main(int argc, char** argv) {
  using namespace tandem;
  std::vector<std::string> configs;
  std::vector<int> vts;
  int repeat = 3;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_compile: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--config") {
      configs.push_back(next());
    } else if (a == "--vthreads") {
      vts.push_back(std::stoi(next()));
    } else if (a == "--repeat") {
      repeat = std::max(1, std::stoi(next()));
    } else if (a == "--out") {
      out = next();
    } else {
      std::fprintf(stderr,
                   "usage: bench_compile [--config NAME|FILE]... [--vthreads 1|2]... "
                   "[--repeat N] [--out FILE]\n");
      return a == "--help" ? 0 : 2;
    }
  }
  if (configs.empty()) configs = {"tandem-8x8", "vta-16x16"};
  if (vts.empty()) vts = {1, 2};
  try {
    nlohmann::json runs = nlohmann::json::array();
    for (const std::string& c : configs) {
      const HwConfig cfg = HwConfig::load_preset(c);
      for (int vt : vts) {
        nlohmann::json layers = nlohmann::json::array();
        double total = 0, total_lower = 0, total_accel = 0;
        std::uint64_t insns = 0, uops = 0;
        for (const ops::Conv2dLayer& l : ops::resnet18_conv_layers()) {
          ops::Epilogue epi;
          epi.shift = 8;
          epi.relu = true;
          const ops::Conv2dSchedule sch = ops::default_conv2d_schedule(cfg, l.shape, epi, vt);
          // Best of `repeat` compilations (the first one also warms caches).
          ops::CompiledOp best;
          for (int r = 0; r < repeat; ++r) {
            ops::CompiledOp op = ops::compile_conv2d(cfg, l.shape, epi, sch);
            if (r == 0 || op.compile_seconds() < best.compile_seconds()) best = std::move(op);
          }
          total += best.compile_seconds();
          total_lower += best.lower_seconds;
          total_accel += best.accel_seconds;
          insns += best.insn_count();
          uops += best.uop_count();
          layers.push_back({{"layer", l.name},
                            {"shape", l.shape.to_string()},
                            {"schedule", sch.to_string()},
                            {"compile_s", best.compile_seconds()},
                            {"lower_s", best.lower_seconds},
                            {"accel_s", best.accel_seconds},
                            {"instructions", best.insn_count()},
                            {"uops", best.uop_count()},
                            {"uops_executed", best.uops_executed()},
                            {"tokens", best.stats.codegen.tokens},
                            {"uop_loads", best.stats.codegen.uop_loads},
                            {"macs", l.shape.macs()}});
        }
        runs.push_back({{"config", cfg.name},
                        {"vthreads", vt},
                        {"total_compile_s", total},
                        {"total_lower_s", total_lower},
                        {"total_accel_s", total_accel},
                        {"total_instructions", insns},
                        {"total_uops", uops},
                        {"layers", layers}});
      }
    }
    nlohmann::json j = {{"benchmark", "compile_resnet18_conv"}, {"repeat", repeat}, {"runs", runs}};
    if (!out.empty()) {
      std::ofstream f(out);
      f << j.dump(2) << "\n";
    }
    std::cout << j.dump(2) << "\n";
  } catch (const Error& e) {
    std::fprintf(stderr, "bench_compile: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
