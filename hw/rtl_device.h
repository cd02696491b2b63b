// The "rtl" backend of isa::Device: the verilated SystemVerilog RTL
// (hw/rtl/*.sv) clocked cycle by cycle against a C++ DRAM model.
//
// make_rtl() picks the verilated model whose RTL parameters (data widths,
// block shape, buffer sizes, queue depths, memory port width and burst size)
// equal the config's; mem_latency_cycles, dram_bytes and clock_mhz are free
// (they belong to the memory model and the board). No match is a
// tandem::Error naming the closest preset, the differing fields and the
// available presets. The RTL is the cycle truth: stats() reports
// "cycles.total" from the RTL's cycle counter (docs/microarch.md 6), the
// per-unit state cycles read from its debug outputs, the instruction /
// micro-op / byte counters of the executed program and
// values["sim.cycles_per_second"]. DeviceOptions::vcd_path writes a VCD
// waveform; trace_path is ignored (csim only). wait() never hangs: the RTL
// reports deadlocks itself and a cycle budget derived from the program is a
// second guard; both, like out-of-range accesses, raise tandem::Error.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "isa/device.h"
#include "isa/hw_config.h"

namespace tandem::hw {

std::unique_ptr<isa::Device> make_rtl(const HwConfig& cfg, const isa::DeviceOptions& opts = {});

// Presets with a verilated model in this binary.
std::vector<std::string> rtl_presets();

// Largest memory latency the RTL's read-tag FIFO covers without stalling.
inline constexpr std::uint32_t kRtlMaxLatency = 1000;

}  // namespace tandem::hw
