// Shared CLI flags: --trace and --vcd (turned into isa::DeviceOptions; csim
// writes both, rtl writes the VCD) for every command that runs on a device,
// the options common to the compiled-layer commands (conv2d, dense), and the
// parse-or-print-help step.
#pragma once

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "isa/device.h"
#include "isa/error.h"

namespace tandem::cli {

inline void add_device_flags(boost::program_options::options_description& opts) {
  opts.add_options()("trace", boost::program_options::value<std::string>(),
                     "write a Chrome/Perfetto trace JSON (csim)")(
      "vcd", boost::program_options::value<std::string>(), "write a VCD waveform (csim, rtl)");
}

inline isa::DeviceOptions device_flags(const boost::program_options::variables_map& vm) {
  isa::DeviceOptions o;
  if (vm.count("trace")) o.trace_path = vm["trace"].as<std::string>();
  if (vm.count("vcd")) o.vcd_path = vm["vcd"].as<std::string>();
  return o;
}

// Epilogue, device, seed, output and dump options of conv2d and dense.
inline void add_layer_run_flags(boost::program_options::options_description& opts) {
  namespace po = boost::program_options;
  opts.add_options()("vthreads", po::value<int>()->default_value(1), "virtual threads (1 or 2)")(
      "relu", "clip at 0 instead of -128")("bias", "add a random per-output-channel int32 bias")(
      "shift", po::value<int>()->default_value(8), "requantization: acc >> shift")(
      "target", po::value<std::string>()->default_value("fsim"), "device: fsim, csim or rtl")(
      "config", po::value<std::string>()->default_value("tandem-8x8"),
      "config preset name or JSON file")("seed", po::value<unsigned>()->default_value(1),
                                         "random seed of the inputs")(
      "json", po::value<std::string>(), "write the results as JSON to this file")(
      "dump-ir", "print the IR after every compiler pass")("dump-asm", "print the program");
  add_device_flags(opts);
}

// Parses argv; prints the options and returns nothing on --help. A bad
// command line is a tandem::Error prefixed with `cmd`.
inline std::optional<boost::program_options::variables_map> parse_command_line(
    const boost::program_options::options_description& opts, int argc, char** argv,
    const char* cmd) {
  namespace po = boost::program_options;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << cmd << ": " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return std::nullopt;
  }
  return vm;
}

}  // namespace tandem::cli
