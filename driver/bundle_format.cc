// Test-vector bundle text formats: region roles, the $readmemh .hex encoding
// and the plain-text region list read by the SV testbench (see
// driver/bundle.h and docs/test-vectors.md).
#include <cctype>
#include <sstream>
#include <utility>

#include "driver/bundle.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

constexpr RegionRole kRoles[] = {RegionRole::kInstructions, RegionRole::kUops, RegionRole::kInput,
                                 RegionRole::kWeight,       RegionRole::kBias, RegionRole::kOutput,
                                 RegionRole::kScratch};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string_view region_role_name(RegionRole r) {
  switch (r) {
    case RegionRole::kInstructions:
      return "instructions";
    case RegionRole::kUops:
      return "uops";
    case RegionRole::kInput:
      return "input";
    case RegionRole::kWeight:
      return "weight";
    case RegionRole::kBias:
      return "bias";
    case RegionRole::kOutput:
      return "output";
    case RegionRole::kScratch:
      return "scratch";
  }
  TANDEM_ASSERT(false, "unknown RegionRole " << static_cast<int>(r));
}

RegionRole parse_region_role(const std::string& s) {
  std::string names;
  for (RegionRole r : kRoles) {
    if (s == region_role_name(r)) return r;
    names += (names.empty() ? "" : ", ") + std::string(region_role_name(r));
  }
  throw Error(Msg() << "unknown region role '" << s << "' (valid: " << names << ")");
}

std::string encode_hex(const std::vector<std::uint8_t>& data, std::uint64_t addr,
                       std::uint32_t beat_bytes) {
  TANDEM_ASSERT(beat_bytes > 0, "beat_bytes is 0");
  static const char* kHex = "0123456789abcdef";
  const std::uint64_t first = addr / beat_bytes;
  const std::uint64_t end = (addr + data.size() + beat_bytes - 1) / beat_bytes;
  std::string out;
  out.reserve((end - first) * (2 * beat_bytes + 1));
  for (std::uint64_t beat = first; beat < end; ++beat) {
    // Most significant byte first: byte lane beat_bytes-1 down to 0.
    for (std::uint32_t lane = beat_bytes; lane-- > 0;) {
      const std::uint64_t a = beat * beat_bytes + lane;
      std::uint8_t v = 0;
      if (a >= addr && a < addr + data.size()) v = data[a - addr];
      out += kHex[v >> 4];
      out += kHex[v & 15];
    }
    out += '\n';
  }
  return out;
}

std::vector<std::uint8_t> decode_hex(const std::string& text, std::uint64_t addr,
                                     std::uint64_t size, std::uint32_t beat_bytes,
                                     const std::string& what) {
  TANDEM_ASSERT(beat_bytes > 0, "beat_bytes is 0");
  const std::uint64_t first = addr / beat_bytes;
  const std::uint64_t end = (addr + size + beat_bytes - 1) / beat_bytes;
  std::vector<std::uint8_t> out(size, 0);
  std::istringstream in(text);
  std::string line;
  std::uint64_t lineno = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++lineno;
    const std::uint64_t beat = first + lineno - 1;
    TANDEM_CHECK(beat < end, what << ": line " << lineno << ": more lines than the " << end - first
                                  << " beats of the region");
    TANDEM_CHECK(line.size() == 2ull * beat_bytes,
                 what << ": line " << lineno << " has " << line.size() << " characters, expected "
                      << 2 * beat_bytes << " hex digits (" << beat_bytes << "-byte beat)");
    for (std::uint32_t i = 0; i < beat_bytes; ++i) {
      const int hi = hex_digit(line[2 * i]), lo = hex_digit(line[2 * i + 1]);
      TANDEM_CHECK(hi >= 0 && lo >= 0, what << ": line " << lineno << ": '" << line.substr(2 * i, 2)
                                            << "' is not a hex byte");
      const std::uint32_t lane = beat_bytes - 1 - i;
      const std::uint64_t a = beat * beat_bytes + lane;
      const auto v = static_cast<std::uint8_t>(hi * 16 + lo);
      if (a >= addr && a < addr + size) {
        out[a - addr] = v;
      } else {
        TANDEM_CHECK(v == 0, what << ": line " << lineno << ": byte at address " << a
                                  << " lies outside the region and must be 00");
      }
    }
  }
  TANDEM_CHECK(lineno == end - first, what << ": " << lineno << " lines, expected " << end - first
                                           << " (one per " << beat_bytes << "-byte beat)");
  return out;
}

std::string region_list_text(const Bundle& b) {
  std::ostringstream s;
  s << "# tandem test-vector region list (docs/test-vectors.md); read by hw/tb\n";
  s << "format " << kBundleFormatVersion << "\n";
  s << "config " << b.cfg.name << "\n";
  // RTL parameters (names of tandem_pkg) the testbench checks against the
  // package it was built with.
  const HwConfig& c = b.cfg;
  const std::pair<const char*, std::uint64_t> params[] = {
      {"INP_WIDTH", 1u << c.log_inp_width},
      {"WGT_WIDTH", 1u << c.log_wgt_width},
      {"ACC_WIDTH", 1u << c.log_acc_width},
      {"OUT_WIDTH", 1u << c.log_out_width},
      {"BATCH", static_cast<std::uint64_t>(c.batch)},
      {"BLOCK_IN", static_cast<std::uint64_t>(c.block_in)},
      {"BLOCK_OUT", static_cast<std::uint64_t>(c.block_out)},
      {"UOP_BUFF_BYTES", c.uop_buff_bytes},
      {"INP_BUFF_BYTES", c.inp_buff_bytes},
      {"WGT_BUFF_BYTES", c.wgt_buff_bytes},
      {"ACC_BUFF_BYTES", c.acc_buff_bytes},
      {"OUT_BUFF_BYTES", c.out_buff_bytes},
      {"CMD_QUEUE_DEPTH", c.cmd_queue_depth},
      {"TOKEN_QUEUE_DEPTH", c.token_queue_depth},
      {"MEM_BYTES_PER_CYCLE", c.mem_bytes_per_cycle},
      {"MEM_BURST_BYTES", c.mem_burst_bytes},
  };
  for (const auto& [name, v] : params) s << "param " << name << " " << v << "\n";
  // Memory-side properties the testbench's DRAM model uses.
  s << "mem_latency_cycles " << c.mem_latency_cycles << "\n";
  s << "dram_bytes " << c.dram_bytes << "\n";
  s << "insn_addr " << b.insn_addr << "\n";
  s << "insn_count " << b.insn_count << "\n";
  s << "expected_cycles "
    << (b.expected_cycles ? static_cast<std::int64_t>(*b.expected_cycles) : -1) << "\n";
  for (const auto& r : b.loads)
    s << "load " << r.addr << " " << r.data.size() << " " << r.hex_file << "\n";
  for (const auto& r : b.expected)
    s << "check " << r.addr << " " << r.data.size() << " " << r.hex_file << "\n";
  s << "end\n";
  return s.str();
}

}  // namespace tandem::driver
