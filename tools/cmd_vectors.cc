// `tandem vectors`: writes a test-vector bundle (docs/test-vectors.md) for one
// workload: instruction and micro-op images, input DRAM images, the expected
// output image and the expected cycle count (csim, when built).
//
//   tandem vectors gemm --m M --n N --k K [--vthreads 2] [--shift S]
//       [--config NAME|FILE] [--seed S] --out DIR
//   tandem vectors conv2d --ci C --h H --w W --co O [--batch N] [--kh K --kw K]
//       [--stride S] [--pad P] [--bias] [--shift S] [--relu] [--vthreads 2] --out DIR
//   tandem vectors dense --ci C --co O [--batch N] [--bias] [--shift S] [--relu]
//       [--vthreads 2] --out DIR
//
// The workload's inputs are seeded random int8 (bias int32); its output is
// checked against the host reference before the bundle is written.
#include <boost/program_options.hpp>
#include <iostream>

#include "driver/bundle.h"
#include "driver/bundle_make.h"
#include "isa/error.h"
#include "tools/command.h"

namespace tandem::cli {
namespace {

namespace po = boost::program_options;

std::string joined(int argc, char** argv) {
  std::string s = "tandem vectors";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool quote = a.empty() || a.find_first_of(" \t\"'\\$") != std::string::npos;
    s += " " + (quote ? "'" + a + "'" : a);
  }
  return s;
}

void print_summary(const driver::Bundle& b, const std::string& dir) {
  std::cout << "vectors: wrote " << dir << " (" << b.workload << ", config " << b.cfg.name << ")\n";
  std::cout << "  program: " << b.insn_count << " instructions at 0x" << std::hex << b.insn_addr
            << std::dec << ", " << b.uop_count << " micro-ops at 0x" << std::hex << b.uop_addr
            << std::dec << "\n";
  auto line = [](const driver::BundleRegion& r) {
    std::cout << "  " << driver::region_role_name(r.role) << " '" << r.name
              << "': " << r.data.size() << " bytes at 0x" << std::hex << r.addr << std::dec
              << " -> " << r.bin_file << ", " << r.hex_file << "\n";
  };
  for (const auto& r : b.loads) line(r);
  for (const auto& r : b.expected) line(r);
  if (b.expected_cycles)
    std::cout << "  expected cycles: " << *b.expected_cycles << " (" << b.cycles_note << ")\n";
  else
    std::cout << "  expected cycles: none (" << b.cycles_note << ")\n";
}

// The fused epilogue of conv2d and dense from --bias, --shift, --relu.
ops::Epilogue epilogue(const po::variables_map& vm) {
  ops::Epilogue e;
  e.bias = vm.count("bias") != 0;
  e.relu = vm.count("relu") != 0;
  e.shift = vm.count("shift") ? vm["shift"].as<int>() : 0;
  return e;
}

int run_vectors(int argc, char** argv) {
  po::options_description opts(
      "tandem vectors <gemm|conv2d|dense> [shape options] --out DIR [options]\n"
      "Writes a test-vector bundle (docs/test-vectors.md)");
  auto add = opts.add_options();
  add("help,h", "show this help");
  add("out,o", po::value<std::string>(), "bundle directory to write (required)");
  add("config", po::value<std::string>()->default_value("tandem-8x8"),
      "config preset name or JSON file");
  add("seed", po::value<std::uint64_t>()->default_value(1), "random seed of the inputs");
  add("no-cycles", "do not replay on csim for the expected cycle count");
  add("vthreads", po::value<int>()->default_value(1), "virtual threads (1 or 2)");
  add("shift", po::value<int>(),
      "gemm: requantize C = clip(acc >> shift, -128, 127); conv2d, dense: requantization shift "
      "(default 0)");
  add("m", po::value<int>(), "gemm: rows of A and C");
  add("n", po::value<int>(), "gemm: rows of B, columns of C");
  add("k", po::value<int>(), "gemm: reduction length");
  add("batch", po::value<int>()->default_value(1), "conv2d, dense: batch N");
  add("ci", po::value<int>(), "conv2d, dense: input channels");
  add("h", po::value<int>(), "conv2d: input height");
  add("w", po::value<int>(), "conv2d: input width");
  add("co", po::value<int>(), "conv2d, dense: output channels");
  add("kh", po::value<int>()->default_value(3), "conv2d: kernel height");
  add("kw", po::value<int>()->default_value(3), "conv2d: kernel width");
  add("stride", po::value<int>()->default_value(1), "conv2d: stride (both axes)");
  add("pad", po::value<int>()->default_value(1), "conv2d: zero padding (both axes)");
  add("bias", "conv2d, dense: add a per-output-channel int32 bias");
  add("relu", "conv2d, dense: clip at 0 instead of -128");
  add("workload", po::value<std::string>(), "gemm, conv2d or dense");
  po::positional_options_description pos;
  pos.add("workload", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(Msg() << "tandem vectors: " << e.what());
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return 0;
  }
  TANDEM_CHECK(vm.count("workload"), "tandem vectors: missing workload (gemm, conv2d or dense)");
  const std::string workload = vm["workload"].as<std::string>();
  const HwConfig cfg = HwConfig::load_preset(vm["config"].as<std::string>());
  driver::MakeBundleOptions mo;
  mo.csim_cycles = vm.count("no-cycles") == 0;
  const std::uint64_t seed = vm["seed"].as<std::uint64_t>();
  driver::Bundle b;
  if (workload == "gemm") {
    TANDEM_CHECK(vm.count("m") && vm.count("n") && vm.count("k"),
                 "tandem vectors gemm: --m, --n and --k are required");
    TANDEM_CHECK(vm.count("out"), "tandem vectors: missing --out DIR");
    driver::GemmSpec spec;
    spec.m = vm["m"].as<int>();
    spec.n = vm["n"].as<int>();
    spec.k = vm["k"].as<int>();
    spec.vthreads = vm["vthreads"].as<int>();
    if (vm.count("shift")) {
      spec.requantize = true;
      spec.shift = vm["shift"].as<int>();
    }
    b = driver::make_gemm_bundle(cfg, spec, seed, joined(argc, argv), mo);
  } else if (workload == "conv2d") {
    TANDEM_CHECK(vm.count("ci") && vm.count("h") && vm.count("w") && vm.count("co"),
                 "tandem vectors conv2d: --ci, --h, --w and --co are required");
    TANDEM_CHECK(vm.count("out"), "tandem vectors: missing --out DIR");
    ops::Conv2dShape s;
    s.n = vm["batch"].as<int>();
    s.ci = vm["ci"].as<int>();
    s.h = vm["h"].as<int>();
    s.w = vm["w"].as<int>();
    s.co = vm["co"].as<int>();
    s.kh = vm["kh"].as<int>();
    s.kw = vm["kw"].as<int>();
    s.stride_h = s.stride_w = vm["stride"].as<int>();
    s.pad_h = s.pad_w = vm["pad"].as<int>();
    b = driver::make_conv2d_bundle(cfg, s, epilogue(vm), nullptr, vm["vthreads"].as<int>(), seed,
                                   joined(argc, argv), mo);
  } else if (workload == "dense") {
    TANDEM_CHECK(vm.count("ci") && vm.count("co"),
                 "tandem vectors dense: --ci and --co are required");
    TANDEM_CHECK(vm.count("out"), "tandem vectors: missing --out DIR");
    ops::DenseShape s;
    s.n = vm["batch"].as<int>();
    s.ci = vm["ci"].as<int>();
    s.co = vm["co"].as<int>();
    b = driver::make_dense_bundle(cfg, s, epilogue(vm), nullptr, vm["vthreads"].as<int>(), seed,
                                  joined(argc, argv), mo);
  } else {
    throw Error(Msg() << "tandem vectors: unknown workload '" << workload
                      << "' (valid: gemm, conv2d, dense)");
  }
  const std::string dir = vm["out"].as<std::string>();
  driver::write_bundle(b, dir);
  // Report what was written (file names are assigned by write_bundle).
  print_summary(driver::read_bundle(dir), dir);
  return 0;
}

const Register kRegister("vectors", "write a test-vector bundle (gemm, conv2d, dense)",
                         run_vectors);

}  // namespace
}  // namespace tandem::cli
