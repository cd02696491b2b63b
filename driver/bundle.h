// Test-vector bundles: a self-describing directory that holds everything
// needed to run one accelerator program on any backend (fsim, csim, the
// verilated RTL, the SystemVerilog testbench hw/tb, an FPGA) and check it.
//
// A bundle holds the relocated instruction image, the micro-op image, the
// DRAM image of every input region at its byte address, and the expected
// DRAM image of every output region after the run, each as raw bytes (.bin)
// and as $readmemh text (.hex, one line per memory beat). manifest.json
// describes the bundle (format version, config, program summary, regions with
// address, size, SHA-256 and file names, expected cycles); regions.txt is the
// same region list in a plain-text form the SV testbench reads. The format is
// documented in docs/test-vectors.md.
//
// Assumptions: DRAM addresses fit the RTL's 32-bit byte address; every byte
// of DRAM not covered by an input region is zero when the program starts
// (outputs included); the config in the manifest is the one the program was
// built for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/device.h"
#include "isa/hw_config.h"

namespace tandem::driver {

inline constexpr int kBundleFormatVersion = 1;
inline constexpr const char* kBundleFormatName = "tandem-test-vectors";
inline constexpr const char* kBundleManifest = "manifest.json";
inline constexpr const char* kBundleRegionList = "regions.txt";

enum class RegionRole { kInstructions, kUops, kInput, kWeight, kBias, kOutput, kScratch };
std::string_view region_role_name(RegionRole r);
// Throws tandem::Error naming the unknown role and the valid ones.
RegionRole parse_region_role(const std::string& s);

// One DRAM region: a named byte range at a byte address.
struct BundleRegion {
  std::string name;  // program buffer name ("A", "__insns", "__uops", ...)
  RegionRole role = RegionRole::kInput;
  std::uint64_t addr = 0;        // DRAM byte address
  std::uint32_t elem_bytes = 1;  // bytes of one scalar element (mismatch reports)
  std::vector<std::uint8_t> data;
  // Filled by write_bundle / read_bundle.
  std::string sha256;  // of `data` (= the .bin file)
  std::string bin_file, hex_file;
};

struct Bundle {
  HwConfig cfg;
  // What produced the program: kind ("gemm", "conv2d", "dense"), its
  // parameters as a JSON object text, the seed of the input data and the
  // command line.
  std::string workload;
  std::string workload_params_json = "{}";
  std::uint64_t seed = 0;
  std::string command_line;

  std::uint64_t insn_addr = 0;
  std::uint32_t insn_count = 0;
  std::uint64_t uop_addr = 0;
  std::uint32_t uop_count = 0;

  // Loaded into DRAM before launch: the instruction image (role
  // instructions), the micro-op image (role uops, absent when the program
  // has no micro-ops) and every input region.
  std::vector<BundleRegion> loads;
  // Compared byte for byte after the run (role output).
  std::vector<BundleRegion> expected;

  // Expected cycles.total (from csim); when absent, `cycles_note` says why.
  std::optional<std::uint64_t> expected_cycles;
  std::string cycles_note;  // source ("csim") or the reason there is none
};

// Writes `b` into directory `dir` (created if needed; existing bundle files
// are overwritten). Checks the regions first: inside DRAM and the 32-bit
// address space, no two regions overlapping, instruction/uop regions of the
// sizes their counts imply. Throws tandem::Error.
void write_bundle(const Bundle& b, const std::string& dir);

// Reads and verifies a bundle: manifest fields and types, every file's
// existence, size and SHA-256 (.bin and .hex), that each .hex file encodes
// its .bin, and that regions.txt matches the manifest. Any problem is a
// tandem::Error naming the file and the expected vs actual value.
Bundle read_bundle(const std::string& dir);

// ---- $readmemh text -------------------------------------------------------
// One line per beat of `beat_bytes` bytes, 2*beat_bytes hex digits, most
// significant byte first (the byte at the lowest address is the last two
// digits). Line i holds the beat at byte address floor(addr/beat)*beat +
// i*beat; bytes of those beats outside [addr, addr+size) are written as 00.
std::string encode_hex(const std::vector<std::uint8_t>& data, std::uint64_t addr,
                       std::uint32_t beat_bytes);
// Inverse of encode_hex; `what` names the file in errors (bad digit, wrong
// line length or count).
std::vector<std::uint8_t> decode_hex(const std::string& text, std::uint64_t addr,
                                     std::uint64_t size, std::uint32_t beat_bytes,
                                     const std::string& what);

// The plain-text region list read by the SV testbench (see docs).
std::string region_list_text(const Bundle& b);

// ---- Replay ---------------------------------------------------------------
struct ReplayResult {
  bool pass = false;
  std::optional<std::uint64_t> cycles;  // cycles.total when the device counts cycles
  isa::Stats stats;
  // First mismatch (when !pass).
  std::string region;
  std::uint64_t byte_offset = 0;
  std::uint64_t elem_index = 0;
  std::int64_t got = 0, want = 0;
  std::uint64_t mismatched_bytes = 0;
  std::string message;  // one-line summary: "PASS ..." or the first mismatch
};

// Loads every region of `b` into `dev`'s DRAM, launches the program, waits
// and compares every expected region byte for byte. The device must have
// been made from b.cfg and have fresh (zero) DRAM. Device errors propagate.
ReplayResult replay_bundle(const Bundle& b, isa::Device& dev);

}  // namespace tandem::driver
