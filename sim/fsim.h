// fsim: the bit-exact functional simulator backend of isa::Device.
//
// Executes programs with the exact instruction semantics of isa/insn.h (via
// sim::FunctionalCore) and the dispatch/token model of docs/microarch.md, but
// no timing: stats() has instruction, micro-op, MAC and byte counters and
// "insn.total", never cycles. DeviceOptions (trace/VCD paths) are ignored:
// fsim has no timeline to trace. See sim/README.md.
#pragma once

#include <memory>

#include "isa/device.h"
#include "isa/hw_config.h"

namespace tandem::sim {

std::unique_ptr<isa::Device> make_fsim(const HwConfig& cfg, const isa::DeviceOptions& opts = {});

}  // namespace tandem::sim
