// Shared CLI flags for commands that run on a device: --trace and --vcd,
// turned into isa::DeviceOptions (csim writes both, rtl writes the VCD).
#pragma once

#include <boost/program_options.hpp>
#include <string>

#include "isa/device.h"

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

}  // namespace tandem::cli
