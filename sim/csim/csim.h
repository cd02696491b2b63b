// csim: the cycle-accurate SystemC simulator backend of isa::Device.
//
// Fetch, load, compute and store are concurrent SystemC processes with
// bounded command queues, the four token queues, the SRAMs and a shared
// memory port with a round-robin arbiter, timed exactly by
// docs/microarch.md. The data effect of every instruction comes from the
// same sim::FunctionalCore fsim uses, so csim and fsim produce the same
// memory bit for bit. stats() reports "cycles.total", per-module activity
// ("<m>.busy", ".idle", ".stall.token", ".stall.token_full", ".stall.mem",
// "fetch.stall.queue_full"), memory traffic and utilization, plus the
// FunctionalCore counters. DeviceOptions.trace_path writes a
// Chrome/Perfetto trace JSON, vcd_path a VCD waveform. The instruction
// stream must start at a 16-byte aligned address. See sim/csim/README.md.
#pragma once

#include <memory>

#include "isa/device.h"
#include "isa/hw_config.h"

namespace tandem::sim {

std::unique_ptr<isa::Device> make_csim(const HwConfig& cfg, const isa::DeviceOptions& opts = {});

}  // namespace tandem::sim
