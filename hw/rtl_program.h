// What the RTL harness knows about a launched program before running it.
//
// inspect_program() reads the instruction words from DRAM, decodes and
// validates each (isa::Codec, isa::validate) and checks the FINISH rule, so
// a malformed program is a tandem::Error before the RTL runs (as in fsim).
// It also derives the program's instruction/micro-op/byte counters (named
// as sim::FunctionalCore reports them) and a cycle budget that no legal run
// of the program can exceed: the harness's second guard against hangs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/dram.h"

namespace tandem::hw {

struct ProgramInfo {
  std::vector<isa::Instruction> insns;
  std::map<std::string, std::uint64_t> counters;
  std::uint64_t budget = 0;
};

ProgramInfo inspect_program(const HwConfig& cfg, const sim::Dram& dram, std::uint64_t insn_addr,
                            std::uint32_t insn_count);

// "LOAD inp", "GEMM", ... for messages.
std::string insn_label(const isa::Instruction& insn);

}  // namespace tandem::hw
