// `tandem asm`: assembles the text form (isa/asm.h) into a Program binary.
//
// The config comes from --config (preset name or JSON path), else from the
// file's .config directive, else the default preset tandem-8x8.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "isa/asm.h"
#include "isa/error.h"
#include "tools/command.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  TANDEM_CHECK(in.good(), "cannot open assembly file '" << path << "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run_asm(int argc, char** argv) {
  po::options_description opts("tandem asm <file.s> -o <file.bin> [options]");
  opts.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                 "output Program binary (required)")(
      "config,c", po::value<std::string>(),
      "config preset name or JSON file (default: the file's .config, else tandem-8x8)")(
      "input", po::value<std::string>(), "assembly source");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << "tandem asm: " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return 0;
  }
  TANDEM_CHECK(vm.count("input"),
               "tandem asm: missing input file (usage: tandem asm file.s -o file.bin)");
  TANDEM_CHECK(vm.count("output"), "tandem asm: missing -o <output file>");
  const std::string input = vm["input"].as<std::string>();
  const std::string text = read_text(input);
  std::string config = "tandem-8x8";
  if (vm.count("config"))
    config = vm["config"].as<std::string>();
  else if (auto named = isa::config_directive(text))
    config = *named;
  const HwConfig cfg = HwConfig::load_preset(config);
  const isa::Program prog = isa::assemble(cfg, text, input);
  prog.save(cfg, vm["output"].as<std::string>());
  return 0;
}

const Register kRegister("asm", "assemble a text program (.s) into a Program binary", run_asm);

}  // namespace
}  // namespace tandem::cli
