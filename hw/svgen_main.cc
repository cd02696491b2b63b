// tandem_svgen: writes the SystemVerilog package tandem_pkg for one config.
//
// Used by hw/CMakeLists.txt at build time (it links only tandem_isa, so it
// can run before the driver, which links the verilated RTL, is built).
// Usage: tandem_svgen <preset-or-json> <output.sv>
// Writes the file only if its content changed (keeps Verilator's inputs'
// timestamps stable across rebuilds).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "isa/error.h"
#include "isa/hw_config.h"
#include "isa/sv_package.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tandem_svgen <preset-or-config.json> <output.sv>\n");
    return 2;
  }
  try {
    const tandem::HwConfig cfg = tandem::HwConfig::load_preset(argv[1]);
    const std::string text = tandem::isa::sv_package(cfg);
    std::ifstream old(argv[2]);
    if (old.good()) {
      std::stringstream ss;
      ss << old.rdbuf();
      if (ss.str() == text) return 0;
    }
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    TANDEM_CHECK(out.good(), "cannot write '" << argv[2] << "'");
  } catch (const tandem::Error& e) {
    std::fprintf(stderr, "tandem_svgen: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
