// The memory bursts and padding cycles of LOAD/STORE and instruction fetch
// (docs/microarch.md sections 1 and 3).
//
// A 2D transfer of y_size rows of x_size elements (eb bytes each) covers DRAM
// bytes [A_y, A_y + x_size*eb) per row with A_y = (dram_base + y*x_stride)*eb;
// each row is cut at every Bmax-aligned address and the bursts are issued row
// by row in increasing address order. BurstCursor walks these bursts lazily
// (no list is built), so a transfer costs O(1) memory.
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/hw_config.h"
#include "isa/insn.h"

namespace tandem::sim::csim {

class BurstCursor {
 public:
  BurstCursor() = default;
  // `rows` rows of `row_bytes` bytes; row y starts at byte first + y*stride.
  BurstCursor(std::uint64_t first, std::uint64_t stride, std::uint64_t rows,
              std::uint64_t row_bytes, std::uint32_t burst_bytes)
      : first_(first),
        stride_(stride),
        rows_(row_bytes == 0 ? 0 : rows),
        row_bytes_(row_bytes),
        bmax_(burst_bytes) {}
  bool done() const { return row_ >= rows_; }
  std::uint64_t addr() const { return first_ + row_ * stride_ + off_; }
  // Bytes of the current burst (at most Bmax, never crossing a Bmax boundary).
  std::uint32_t bytes() const {
    const std::uint64_t a = addr();
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(row_bytes_ - off_, bmax_ - a % bmax_));
  }
  void next() {
    off_ += bytes();
    if (off_ == row_bytes_) {
      off_ = 0;
      ++row_;
    }
  }
  std::uint64_t total_bytes() const { return rows_ * row_bytes_; }

 private:
  std::uint64_t first_ = 0, stride_ = 0, rows_ = 0, row_bytes_ = 0;
  std::uint32_t bmax_ = 1;
  std::uint64_t row_ = 0, off_ = 0;
};

// Timing shape of one LOAD or STORE.
struct TransferPlan {
  std::uint64_t pad_cycles = 0;  // Z: zero elements written first, one per cycle
  BurstCursor bursts;            // done() at once if there is no memory traffic
  bool write = false;            // STORE
};

TransferPlan plan_transfer(const HwConfig& cfg, const isa::Instruction& insn);

// Instructions the next fetch request reads: the remaining ones, capped so
// the burst does not cross a Bmax-aligned boundary (addr must be 16-aligned).
std::uint32_t fetch_batch(const HwConfig& cfg, std::uint64_t addr, std::uint64_t remaining);

}  // namespace tandem::sim::csim
