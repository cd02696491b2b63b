// fsim's dispatch and token model (docs/microarch.md sections 1, 2, 5-7),
// functional only: no cycles.
//
// Fetch dispatches instructions in program order into three bounded command
// queues (cmd_queue_depth each; load, compute, store by isa::module_of).
// Each module runs its queue in order: it pops the head instruction's tokens
// (all of them, only when every popped queue is non-empty), executes it on
// the FunctionalCore, then pushes its tokens (all together, only when every
// target queue holds fewer than token_queue_depth tokens; until then the
// module stays blocked). This is a Kahn network with bounded blocking queues
// whose firing conditions are monotonic, so whether it deadlocks does not
// depend on the schedule: the run here deadlocks iff the hardware does.
// The schedule is a round-robin "run everything as far as it can" loop whose
// cost is per instruction, not per micro-op.
#pragma once

#include <cstdint>
#include <functional>

#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/core.h"

namespace tandem::sim {

// Supplies instruction `index` (decoded and validated) when fetch reaches it.
using InsnSource = std::function<isa::Instruction(std::uint32_t index)>;

// Runs `count` instructions through the queues on `core`. The last
// instruction must be the only FINISH (the caller checks). Throws
// tandem::Error on deadlock (naming every blocked module, the instruction at
// the head of its queue, what it waits on and all token counts) and when
// tokens are left in a queue at the end. Returns the number of executed
// instructions.
std::uint64_t run_token_schedule(const HwConfig& cfg, FunctionalCore& core, std::uint32_t count,
                                 const InsnSource& source);

}  // namespace tandem::sim
