// `tandem svpkg`: prints the SystemVerilog package tandem_pkg for a config.
//
// The package (isa/sv_package.h) carries every RTL parameter and every
// instruction/micro-op field position, generated from the codec's layout.
// Writes to -o FILE, or to stdout without -o.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "isa/error.h"
#include "isa/hw_config.h"
#include "isa/sv_package.h"
#include "tools/command.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

int run_svpkg(int argc, char** argv) {
  po::options_description opts("tandem svpkg [--config X] [-o tandem_pkg.sv]");
  opts.add_options()("help,h", "show this help")(
      "config,c", po::value<std::string>()->default_value("tandem-8x8"),
      "config preset name or JSON file")("output,o", po::value<std::string>(),
                                         "output .sv file (default: stdout)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << "tandem svpkg: " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return 0;
  }
  const HwConfig cfg = HwConfig::load_preset(vm["config"].as<std::string>());
  const std::string text = isa::sv_package(cfg);
  if (!vm.count("output")) {
    std::cout << text;
    return 0;
  }
  const std::string path = vm["output"].as<std::string>();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  TANDEM_CHECK(out.good(), "tandem svpkg: cannot open output file '" << path << "'");
  out << text;
  out.close();
  TANDEM_CHECK(out.good(), "tandem svpkg: cannot write output file '" << path << "'");
  return 0;
}

const Register kRegister("svpkg", "print the SystemVerilog package (tandem_pkg) of a config",
                         run_svpkg);

}  // namespace
}  // namespace tandem::cli
