// `tandem conv2d`: compiles a conv2d layer through the whole compiler
// (tensor expression, default or given schedule, lowering, tensorize,
// accelerator passes), runs it on a target with random int8 inputs (and
// int32 bias) and checks the result element by element against host_cpu.
//
// Prints the layer and schedule, the compile time, instruction and micro-op
// counts, "check: PASS" or the first mismatch with its NCHW index, got and
// expected values, and the device statistics. --json writes the same as
// JSON; --dump-ir prints the IR after every pass, --dump-asm the program.
// Exit code 0 only on PASS.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "compiler/ops/conv2d.h"
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

int run_conv2d_cmd(int argc, char** argv) {
  po::options_description opts(
      "tandem conv2d --ci C --h H --w W --co O [options]\n"
      "int8 conv2d (+ bias, >> shift, clip, ReLU) compiled for the accelerator, run on random\n"
      "inputs and checked against host_cpu");
  opts.add_options()("help,h", "show this help")("n", po::value<int>()->default_value(1), "batch")(
      "ci", po::value<int>(), "input channels")("h", po::value<int>(), "input height")(
      "w", po::value<int>(), "input width")("co", po::value<int>(), "output channels")(
      "kh", po::value<int>()->default_value(3), "kernel height")(
      "kw", po::value<int>()->default_value(3), "kernel width")(
      "stride", po::value<int>()->default_value(1), "stride (both dimensions)")(
      "pad", po::value<int>()->default_value(0), "zero padding (both dimensions)")(
      "tile-h", po::value<int>(), "schedule: output rows per tile (default: chosen)")(
      "tile-w", po::value<int>(), "schedule: output columns per tile")(
      "tile-ci", po::value<int>(), "schedule: input-channel blocks per step")(
      "tile-co", po::value<int>(), "schedule: output-channel blocks per tile")(
      "vthread-axis", po::value<std::string>(), "schedule: co or h");
  add_layer_run_flags(opts);
  const auto parsed = parse_command_line(opts, argc, argv, "tandem conv2d");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  TANDEM_CHECK(vm.count("ci") && vm.count("h") && vm.count("w") && vm.count("co"),
               "tandem conv2d: --ci, --h, --w and --co are required");
  const HwConfig cfg = HwConfig::load_preset(vm["config"].as<std::string>());
  ops::Conv2dShape s;
  s.n = vm["n"].as<int>(), s.ci = vm["ci"].as<int>(), s.h = vm["h"].as<int>();
  s.w = vm["w"].as<int>(), s.co = vm["co"].as<int>(), s.kh = vm["kh"].as<int>();
  s.kw = vm["kw"].as<int>(), s.stride_h = s.stride_w = vm["stride"].as<int>();
  s.pad_h = s.pad_w = vm["pad"].as<int>();
  s.validate();
  ops::Epilogue e;
  e.bias = vm.count("bias") != 0;
  e.relu = vm.count("relu") != 0;
  e.shift = vm["shift"].as<int>();
  e.validate();
  const std::string target = vm["target"].as<std::string>();

  ops::Conv2dSchedule sch = ops::default_conv2d_schedule(cfg, s, e, vm["vthreads"].as<int>());
  if (vm.count("tile-h")) sch.tile_h = vm["tile-h"].as<int>();
  if (vm.count("tile-w")) sch.tile_w = vm["tile-w"].as<int>();
  if (vm.count("tile-ci")) sch.tile_ci = vm["tile-ci"].as<int>();
  if (vm.count("tile-co")) sch.tile_co = vm["tile-co"].as<int>();
  if (vm.count("vthread-axis")) {
    const std::string a = vm["vthread-axis"].as<std::string>();
    TANDEM_CHECK(a == "co" || a == "h", "tandem conv2d: --vthread-axis " << a << " is not co or h");
    sch.vthread_axis = a == "co" ? ops::VThreadAxis::kCo : ops::VThreadAxis::kH;
  }
  ops::CompileOptions co;
  if (vm.count("dump-ir")) co.dump_stream = &std::cout;
  const ops::CompiledOp op = ops::compile_conv2d(cfg, s, e, sch, co);
  if (vm.count("dump-asm")) std::cout << isa::disassemble(cfg, op.program);

  const driver::OpOperands x = driver::random_conv2d_operands(s, e, vm["seed"].as<unsigned>());
  const driver::Shape4 in{s.n, s.ci, s.h, s.w}, wt{s.co, s.ci, s.kh, s.kw},
      out{s.n, s.co, s.oh(), s.ow()};
  const driver::LayerRun r =
      driver::run_layer(cfg, target, device_flags(vm), op.program, x, in, wt, out, "kernel");
  const isa::Stats& st = r.stats;
  const double run_s = r.seconds;
  const auto& got = r.out;

  const auto want = driver::reference_conv2d(x, s, e);
  const std::string check = first_mismatch_nchw(got, want, out);
  const bool pass = check == "PASS";

  std::printf("conv2d %s config=%s target=%s%s%s shift=%d\n", s.to_string().c_str(),
              cfg.name.c_str(), target.c_str(), e.bias ? " bias" : "", e.relu ? " relu" : "",
              e.shift);
  std::printf("schedule: %s\n", sch.to_string().c_str());
  print_op_run(op, st, check, run_s);

  if (vm.count("json")) {
    nlohmann::json j = op_run_json(op, st, check, run_s);
    j["op"] = "conv2d";
    j["shape"] = {{"n", s.n},       {"ci", s.ci},   {"h", s.h},    {"w", s.w},
                  {"co", s.co},     {"kh", s.kh},   {"kw", s.kw},  {"stride", s.stride_h},
                  {"pad", s.pad_h}, {"oh", s.oh()}, {"ow", s.ow()}};
    j["epilogue"] = {{"bias", e.bias}, {"relu", e.relu}, {"shift", e.shift}};
    j["schedule"] = {{"tile_h", sch.tile_h},
                     {"tile_w", sch.tile_w},
                     {"tile_ci", sch.tile_ci},
                     {"tile_co", sch.tile_co},
                     {"vthreads", sch.vthreads},
                     {"vthread_axis", sch.vthread_axis == ops::VThreadAxis::kCo ? "co" : "h"}};
    j["config"] = cfg.name;
    j["target"] = target;
    j["seed"] = vm["seed"].as<unsigned>();
    j["macs"] = s.macs();
    write_json_file(vm["json"].as<std::string>(), j, "tandem conv2d");
  }
  return pass ? 0 : 1;
}

const Register reg("conv2d",
                   "compile an int8 conv2d for the accelerator, run it and check it against "
                   "host_cpu",
                   run_conv2d_cmd);

}  // namespace
}  // namespace tandem::cli
