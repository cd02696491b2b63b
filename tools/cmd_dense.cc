// `tandem dense`: compiles a dense (fully connected) layer through the whole
// compiler, runs it on a target with random int8 inputs and checks it element
// by element against host_cpu (gemm_s8 + bias + shift_requantize).
// Output as `tandem conv2d` (NCHW index with H = W = 1). Exit 0 only on PASS.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "compiler/ops/dense.h"
#include "driver/op_operands.h"
#include "driver/packing.h"
#include "driver/runtime.h"
#include "isa/asm.h"
#include "isa/error.h"
#include "tools/command.h"
#include "tools/device_flags.h"
#include "tools/op_report.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

int run_dense_cmd(int argc, char** argv) {
  po::options_description opts(
      "tandem dense --n N --ci C --co O [options]\n"
      "int8 dense layer (+ bias, >> shift, clip, ReLU) compiled for the accelerator, run on\n"
      "random inputs and checked against host_cpu");
  opts.add_options()("help,h", "show this help")("n", po::value<int>()->default_value(1),
                                                 "batch (rows)")(
      "ci", po::value<int>(), "input features")("co", po::value<int>(), "output features")(
      "tile-n", po::value<int>(), "schedule: batch blocks per tile (default: chosen)")(
      "tile-ci", po::value<int>(), "schedule: input blocks per step")(
      "tile-co", po::value<int>(), "schedule: output blocks per tile");
  add_layer_run_flags(opts);
  const auto parsed = parse_command_line(opts, argc, argv, "tandem dense");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  TANDEM_CHECK(vm.count("ci") && vm.count("co"), "tandem dense: --ci and --co are required");
  const HwConfig cfg = HwConfig::load_preset(vm["config"].as<std::string>());
  const ops::DenseShape s{vm["n"].as<int>(), vm["ci"].as<int>(), vm["co"].as<int>()};
  s.validate();
  ops::Epilogue e;
  e.bias = vm.count("bias") != 0;
  e.relu = vm.count("relu") != 0;
  e.shift = vm["shift"].as<int>();
  e.validate();
  const std::string target = vm["target"].as<std::string>();
  ops::DenseSchedule sch = ops::default_dense_schedule(cfg, s, e, vm["vthreads"].as<int>());
  if (vm.count("tile-n")) sch.tile_n = vm["tile-n"].as<int>();
  if (vm.count("tile-ci")) sch.tile_ci = vm["tile-ci"].as<int>();
  if (vm.count("tile-co")) sch.tile_co = vm["tile-co"].as<int>();
  ops::CompileOptions co;
  if (vm.count("dump-ir")) co.dump_stream = &std::cout;
  const ops::CompiledOp op = ops::compile_dense(cfg, s, e, sch, co);
  if (vm.count("dump-asm")) std::cout << isa::disassemble(cfg, op.program);

  const driver::OpOperands x = driver::random_dense_operands(s, e, vm["seed"].as<unsigned>());
  const driver::Shape4 in{s.n, s.ci, 1, 1}, wt{s.co, s.ci, 1, 1}, out{s.n, s.co, 1, 1};
  const driver::LayerRun r =
      driver::run_layer(cfg, target, device_flags(vm), op.program, x, in, wt, out, "weight");
  const isa::Stats& st = r.stats;
  const double run_s = r.seconds;
  const auto& got = r.out;

  const auto want = driver::reference_dense(x, s, e);
  const std::string check = first_mismatch_nchw(got, want, driver::Shape4{s.n, s.co, 1, 1});
  const bool pass = check == "PASS";

  std::printf("dense %s config=%s target=%s%s%s shift=%d\n", s.to_string().c_str(),
              cfg.name.c_str(), target.c_str(), e.bias ? " bias" : "", e.relu ? " relu" : "",
              e.shift);
  std::printf("schedule: %s\n", sch.to_string().c_str());
  print_op_run(op, st, check, run_s);
  if (vm.count("json")) {
    nlohmann::json j = op_run_json(op, st, check, run_s);
    j["op"] = "dense";
    j["shape"] = {{"n", s.n}, {"ci", s.ci}, {"co", s.co}};
    j["epilogue"] = {{"bias", e.bias}, {"relu", e.relu}, {"shift", e.shift}};
    j["schedule"] = {{"tile_n", sch.tile_n},
                     {"tile_ci", sch.tile_ci},
                     {"tile_co", sch.tile_co},
                     {"vthreads", sch.vthreads}};
    j["config"] = cfg.name;
    j["target"] = target;
    j["seed"] = vm["seed"].as<unsigned>();
    write_json_file(vm["json"].as<std::string>(), j, "tandem dense");
  }
  return pass ? 0 : 1;
}

const Register reg("dense",
                   "compile an int8 dense layer for the accelerator, run it and check it against "
                   "host_cpu",
                   run_dense_cmd);

}  // namespace
}  // namespace tandem::cli
