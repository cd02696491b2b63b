// Burst and padding plans of DMA instructions (see transfer.h).
#include "sim/csim/transfer.h"

#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::sim::csim {

TransferPlan plan_transfer(const HwConfig& cfg, const isa::Instruction& i) {
  TANDEM_ASSERT(i.opcode == isa::Opcode::kLoad || i.opcode == isa::Opcode::kStore,
                "plan_transfer on " << isa::opcode_name(i.opcode));
  TransferPlan p;
  const std::uint64_t eb = cfg.elem_bytes(static_cast<int>(i.mem_type));
  p.write = i.opcode == isa::Opcode::kStore;
  if (!p.write) {
    const std::uint64_t h = std::uint64_t{i.y_pad_0} + i.y_size + i.y_pad_1;
    const std::uint64_t w = std::uint64_t{i.x_pad_0} + i.x_size + i.x_pad_1;
    p.pad_cycles = h * w - std::uint64_t{i.y_size} * i.x_size;
  }
  p.bursts = BurstCursor(std::uint64_t{i.dram_base} * eb, std::uint64_t{i.x_stride} * eb, i.y_size,
                         std::uint64_t{i.x_size} * eb, cfg.mem_burst_bytes);
  return p;
}

std::uint32_t fetch_batch(const HwConfig& cfg, std::uint64_t addr, std::uint64_t remaining) {
  TANDEM_ASSERT(addr % isa::kInsnBytes == 0, "unaligned instruction address " << addr);
  const std::uint64_t room = (cfg.mem_burst_bytes - addr % cfg.mem_burst_bytes) / isa::kInsnBytes;
  return static_cast<std::uint32_t>(std::min(remaining, room));
}

}  // namespace tandem::sim::csim
