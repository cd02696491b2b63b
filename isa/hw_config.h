// HwConfig: the one hardware description every layer derives from.
//
// Loaded from JSON (configs/*.json). Holds the primary parameters (data
// widths, GEMM block shape, SRAM sizes, queue depths, clock, memory port) and
// derives everything else (SRAM depths in elements, element sizes, ISA field
// widths). Every invalid field raises tandem::Error naming field, value, rule.
#pragma once

#include <cstdint>
#include <string>

namespace tandem {

struct HwConfig {
  std::string name;
  // log2 of the bit width of each data type (3 = int8, 5 = int32).
  int log_inp_width = 3;
  int log_wgt_width = 3;
  int log_acc_width = 5;
  int log_out_width = 3;
  // GEMM block: (batch x block_in) . (block_out x block_in)^T.
  int batch = 1;
  int block_in = 8;
  int block_out = 8;
  // SRAM capacities in bytes.
  std::uint32_t uop_buff_bytes = 16384;
  std::uint32_t inp_buff_bytes = 16384;
  std::uint32_t wgt_buff_bytes = 32768;
  std::uint32_t acc_buff_bytes = 65536;
  std::uint32_t out_buff_bytes = 16384;
  // Bounded queues: per-module command queues and the four token queues.
  std::uint32_t cmd_queue_depth = 64;
  std::uint32_t token_queue_depth = 128;
  // Clock and the shared memory port.
  double clock_mhz = 200.0;
  std::uint32_t mem_bytes_per_cycle = 8;
  std::uint32_t mem_latency_cycles = 32;
  std::uint32_t mem_burst_bytes = 256;
  // Device DRAM capacity in bytes.
  std::uint64_t dram_bytes = 256ull << 20;

  // ---- derived (filled by finalize()) ----
  std::uint32_t inp_elem_bytes = 0;  // one BATCH x BLOCK_IN input vector
  std::uint32_t wgt_elem_bytes = 0;  // one BLOCK_OUT x BLOCK_IN weight block
  std::uint32_t acc_elem_bytes = 0;  // one BATCH x BLOCK_OUT accumulator row
  std::uint32_t out_elem_bytes = 0;  // one BATCH x BLOCK_OUT output row
  std::uint32_t uop_elem_bytes = 4;  // one micro-op word
  std::uint32_t uop_depth = 0, inp_depth = 0, wgt_depth = 0, acc_depth = 0, out_depth = 0;
  int log_uop_depth = 0, log_inp_depth = 0, log_wgt_depth = 0, log_acc_depth = 0, log_out_depth = 0;

  // Validates every field and computes the derived ones. Throws tandem::Error.
  void finalize();

  // Loaders. `load_preset` accepts a preset name ("tandem-8x8", "vta-16x16")
  // or a path to a JSON file.
  static HwConfig from_json_text(const std::string& text, const std::string& origin = "<json>");
  static HwConfig from_file(const std::string& path);
  static HwConfig load_preset(const std::string& name_or_path);
  static HwConfig default_config() { return load_preset("tandem-8x8"); }
  std::string to_json_text() const;

  std::uint64_t macs_per_gemm_uop() const {
    return static_cast<std::uint64_t>(batch) * block_in * block_out;
  }
  // Bytes of one element of the given SRAM (by MemType numeric value).
  std::uint32_t elem_bytes(int mem_type) const;
  std::uint32_t depth(int mem_type) const;
};

// Directory holding the preset JSON files (compiled in; overridable by the
// TANDEM_CONFIG_DIR environment variable).
std::string config_dir();

}  // namespace tandem
