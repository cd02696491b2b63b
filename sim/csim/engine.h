// Engine: runs one csim program on the process-wide SystemC model.
//
// SystemC 2.3 has one simulation context per process and no modules can be
// created after the first sc_start(). So the engine elaborates the model
// (fetch, load, compute, store, memory port, VCD probe) once, on first use,
// and every run -- from any number of devices, with any config -- reuses
// those module instances: it resets their state, starts cycle 0 one
// nanosecond after the previous run's last event, runs sc_start() until the
// program completes (sc_pause) or no event is pending (deadlock), then
// cancels every pending notification. Runs are serialized by a mutex. A
// VCD file is a fresh sc_trace file per run; its time axis is SystemC time
// (1 ns per cycle), which starts at the run's base time.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "isa/device.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/core.h"

namespace tandem::sim::csim {

struct RunInputs {
  const HwConfig* cfg = nullptr;  // finalized
  FunctionalCore* core = nullptr;
  // Decodes and validates instruction `index` (fetch reads it from DRAM).
  std::function<isa::Instruction(std::uint32_t)> decode;
  std::uint64_t insn_addr = 0;  // 16-byte aligned
  std::uint32_t insn_count = 0;
  std::array<std::uint32_t, 3> module_total{};  // instructions per isa::Module
  std::string trace_path;
  std::string vcd_path;
};

// Runs the program to completion and returns its timing statistics (the
// caller adds the FunctionalCore's counters). Throws tandem::Error on
// deadlock, leftover tokens or an error of an instruction's data effect.
isa::Stats run(const RunInputs& in);

}  // namespace tandem::sim::csim
