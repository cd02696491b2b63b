// Turning an RTL run into a result: errors with messages that name the
// instruction, the value and the limit, and the isa::Stats of a good run.
#pragma once

#include "hw/rtl_engine.h"
#include "hw/rtl_program.h"
#include "isa/device.h"

namespace tandem::hw {

// Throws tandem::Error if the run failed: memory-model error, cycle budget
// exceeded, or an error the RTL reported (deadlock, leftover tokens, SRAM
// index out of range, DRAM address beyond 32 bits, malformed instruction).
void check_outcome(const HwConfig& cfg, const ProgramInfo& prog, const RunOutcome& out);

// Statistics of a successful run.
isa::Stats make_stats(const HwConfig& cfg, const ProgramInfo& prog, const RunOutcome& out);

// "load: blocked at instruction 3 (LOAD inp) waiting for a token in
// compute->load; ...; tokens: load->compute=0, ..." from a status snapshot.
std::string describe_blocked(const HwConfig& cfg, const ProgramInfo& prog, const RtlStatus& s);

}  // namespace tandem::hw
