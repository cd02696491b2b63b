// Device: the interface every backend implements (fsim, csim, rtl).
//
// A device owns a byte-addressed DRAM. The host writes inputs, instructions
// and micro-ops into it, launches `insn_count` instructions starting at byte
// address `insn_addr`, waits, and reads results and statistics back.
// wait() throws tandem::Error for deadlocked tokens, malformed instructions or
// out-of-range SRAM/DRAM accesses; it never hangs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "isa/hw_config.h"

namespace tandem::isa {

// Statistics of one run. Counter names are stable, dotted, lower case, e.g.
// "insn.gemm", "uop.gemm", "bytes.load.inp", "cycles.total",
// "compute.stall.token". Values hold derived quantities (utilization, GB/s).
struct Stats {
  std::map<std::string, std::uint64_t> counters;
  std::map<std::string, double> values;

  std::uint64_t get(const std::string& k) const {
    auto it = counters.find(k);
    return it == counters.end() ? 0 : it->second;
  }
  std::string to_json(int indent = 2) const;
};

// Options shared by all backends; a backend ignores what it cannot produce
// only if it says so in its README.
struct DeviceOptions {
  std::string trace_path;  // Chrome/Perfetto JSON trace (csim)
  std::string vcd_path;    // waveform (csim signals, RTL)
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const HwConfig& config() const = 0;
  virtual std::string target() const = 0;  // "fsim", "csim", "rtl"

  virtual std::uint64_t dram_size() const = 0;
  virtual void write_dram(std::uint64_t addr, const void* src, std::size_t bytes) = 0;
  virtual void read_dram(std::uint64_t addr, void* dst, std::size_t bytes) const = 0;

  virtual void launch(std::uint64_t insn_addr, std::uint32_t insn_count) = 0;
  virtual void wait() = 0;
  virtual Stats stats() const = 0;
};

}  // namespace tandem::isa
