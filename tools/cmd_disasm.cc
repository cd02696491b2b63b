// `tandem disasm`: prints a Program binary in the canonical text form
// (isa/asm.h), or with --formats the instruction format tables of configs.
//
// The config comes from --config (preset name or JSON path), else from the
// config name stored in the binary (loaded as a preset).
#include <boost/program_options.hpp>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

#include "isa/asm.h"
#include "isa/error.h"
#include "isa/program.h"
#include "tools/command.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  TANDEM_CHECK(in.good(), "cannot open program file '" << path << "'");
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

// The config name stored after the 8-byte magic (u32 length + bytes), if the
// file is long enough; Program::deserialize does the real checking.
std::string stored_config_name(const std::vector<std::uint8_t>& b, const std::string& path) {
  std::uint32_t n = 0;
  TANDEM_CHECK(b.size() >= 12, "malformed program '" << path << "': " << b.size()
                                                     << " bytes is too short for a header");
  std::memcpy(&n, b.data() + 8, 4);
  TANDEM_CHECK(n <= 4096 && b.size() >= 12 + std::size_t{n},
               "malformed program '" << path << "': config name length " << n
                                     << " does not fit the file (" << b.size() << " bytes)");
  std::string name(reinterpret_cast<const char*>(b.data()) + 12, n);
  // Only a preset name is looked up; a stored path is never opened.
  TANDEM_CHECK(!name.empty() && name.find('/') == std::string::npos && !name.ends_with(".json"),
               "program '" << path << "' names config '" << name
                           << "', which is not a preset name; pass --config NAME|FILE");
  return name;
}

void write_out(const std::string& text, const std::string& path) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  TANDEM_CHECK(out.good(), "cannot write '" << path << "'");
  out << text;
  TANDEM_CHECK(out.good(), "error writing '" << path << "'");
}

int run_disasm(int argc, char** argv) {
  po::options_description opts("tandem disasm <file.bin> [-o out.s] [options]");
  opts.add_options()("help,h", "show this help")(
      "output,o", po::value<std::string>()->default_value("-"), "output text file (- = stdout)")(
      "config,c", po::value<std::vector<std::string>>(),
      "config preset name or JSON file (default: the config named in the binary; with "
      "--formats it may repeat, default tandem-8x8 and vta-16x16)")(
      "formats", "print the instruction format tables (markdown) instead")(
      "input", po::value<std::string>(), "Program binary");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << "tandem disasm: " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return 0;
  }
  const std::string output = vm["output"].as<std::string>();
  std::vector<std::string> configs;
  if (vm.count("config")) configs = vm["config"].as<std::vector<std::string>>();
  if (vm.count("formats")) {
    TANDEM_CHECK(!vm.count("input"), "tandem disasm --formats takes no input file");
    if (configs.empty()) configs = {"tandem-8x8", "vta-16x16"};
    std::vector<HwConfig> cfgs;
    for (const auto& c : configs) cfgs.push_back(HwConfig::load_preset(c));
    write_out(isa::format_tables_markdown(cfgs), output);
    return 0;
  }
  TANDEM_CHECK(configs.size() <= 1,
               "tandem disasm: --config given " << configs.size() << " times (at most once)");
  TANDEM_CHECK(vm.count("input"),
               "tandem disasm: missing input file (usage: tandem disasm file.bin)");
  const std::string input = vm["input"].as<std::string>();
  const auto bytes = read_bytes(input);
  const HwConfig cfg =
      HwConfig::load_preset(configs.empty() ? stored_config_name(bytes, input) : configs[0]);
  isa::Program prog;
  try {
    prog = isa::Program::deserialize(cfg, bytes);
  } catch (const Error& e) {
    throw Error(Msg() << input << ": " << e.what());
  }
  write_out(isa::disassemble(cfg, prog), output);
  return 0;
}

const Register kRegister("disasm", "print a Program binary as text (or --formats: format tables)",
                         run_disasm);

}  // namespace
}  // namespace tandem::cli
