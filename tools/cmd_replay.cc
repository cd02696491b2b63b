// `tandem replay DIR --target fsim|csim|rtl`: verifies a test-vector bundle
// (every file's size and SHA-256 first), loads its regions into the device's
// DRAM, runs the program and compares the expected output byte for byte.
//
// Prints "replay: PASS" (with cycles and the difference to the expected
// cycles when both exist) or the first mismatch (region, byte offset,
// element index, got, expected). Exit code 0 only on PASS.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "driver/bundle.h"
#include "driver/device_registry.h"
#include "isa/error.h"
#include "tools/command.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

int run_replay(int argc, char** argv) {
  po::options_description opts(
      "tandem replay DIR [--target fsim|csim|rtl] [options]\n"
      "Runs a test-vector bundle (docs/test-vectors.md) and checks its output");
  opts.add_options()("help,h", "show this help")(
      "target", po::value<std::string>()->default_value("fsim"), "device: fsim, csim or rtl")(
      "vcd", po::value<std::string>(), "waveform file (backends that support it)")(
      "trace", po::value<std::string>(), "Chrome/Perfetto trace file (csim)")(
      "json", po::value<std::string>(), "write the result and device statistics as JSON")(
      "dir", po::value<std::string>(), "bundle directory");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << "tandem replay: " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return 0;
  }
  TANDEM_CHECK(vm.count("dir"), "tandem replay: missing bundle directory");
  const std::string dir = vm["dir"].as<std::string>();
  const std::string target = vm["target"].as<std::string>();
  const driver::Bundle b = driver::read_bundle(dir);
  std::cout << "replay: bundle " << dir << " verified (" << b.loads.size() + b.expected.size()
            << " regions, config " << b.cfg.name << ", " << b.insn_count << " instructions)\n";
  isa::DeviceOptions dopts;
  if (vm.count("vcd")) dopts.vcd_path = vm["vcd"].as<std::string>();
  if (vm.count("trace")) dopts.trace_path = vm["trace"].as<std::string>();
  auto dev = driver::make_device(target, b.cfg, dopts);
  const driver::ReplayResult r = driver::replay_bundle(b, *dev);
  std::cout << r.message << " (target " << target << ")\n";
  if (r.cycles) {
    std::cout << "replay: cycles " << *r.cycles;
    if (b.expected_cycles) {
      const auto diff =
          static_cast<std::int64_t>(*r.cycles) - static_cast<std::int64_t>(*b.expected_cycles);
      std::cout << ", expected " << *b.expected_cycles << " (" << b.cycles_note << "), difference "
                << (diff > 0 ? "+" : "") << diff;
    } else {
      std::cout << ", no expected cycles in the bundle (" << b.cycles_note << ")";
    }
    std::cout << "\n";
  }
  if (vm.count("json")) {
    nlohmann::ordered_json j;
    j["bundle"] = dir;
    j["target"] = target;
    j["pass"] = r.pass;
    j["message"] = r.message;
    j["cycles"] = r.cycles ? nlohmann::ordered_json(*r.cycles) : nlohmann::ordered_json(nullptr);
    j["expected_cycles"] = b.expected_cycles ? nlohmann::ordered_json(*b.expected_cycles)
                                             : nlohmann::ordered_json(nullptr);
    j["stats"] = nlohmann::json::parse(r.stats.to_json());
    std::ofstream out(vm["json"].as<std::string>());
    TANDEM_CHECK(out.good(),
                 "tandem replay: cannot write '" << vm["json"].as<std::string>() << "'");
    out << j.dump(2) << "\n";
  }
  return r.pass ? 0 : 1;
}

const Register kRegister("replay", "run a test-vector bundle on fsim, csim or rtl and check it",
                         run_replay);

}  // namespace
}  // namespace tandem::cli
