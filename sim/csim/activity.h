// Per-module cycle accounting for csim statistics.
//
// Each cycle of a module is in exactly one activity (idle, busy, waiting for
// a token, waiting for room to push a token, or -- fetch only -- waiting
// for room in a command queue), so the activities of a module sum to
// cycles.total. Memory stalls are counted separately: they are part of busy
// cycles (docs/microarch.md sections 2 and 4). An activity is set "from" a
// cycle that may be one cycle ahead of the current one; at() answers for
// any cycle at or after the previous change.
#pragma once

#include <array>
#include <cstdint>

#include "isa/error.h"
#include "sim/csim/timeline.h"

namespace tandem::sim::csim {

enum class Act : std::uint8_t { kIdle = 0, kBusy, kStallToken, kStallTokenFull, kStallQueueFull };
inline constexpr int kActs = 5;

class Activity {
 public:
  void reset() { *this = Activity(); }
  void set(Act a, Cycle from) {
    if (a == cur_ && from >= since_) return;
    if (from == since_) {  // replaces a provisional change made for this cycle
      cur_ = a;
      return;
    }
    TANDEM_ASSERT(from >= since_, "activity change to cycle " << from << " before " << since_);
    totals_[static_cast<int>(cur_)] += from - since_;
    prev_ = cur_;
    cur_ = a;
    since_ = from;
  }
  // Ends the accounting: cycles [since, end) go to the current activity.
  void close(Cycle end) {
    if (end > since_) totals_[static_cast<int>(cur_)] += end - since_;
    since_ = end;
  }
  Act at(Cycle c) const { return c >= since_ ? cur_ : prev_; }
  std::uint64_t total(Act a) const { return totals_[static_cast<int>(a)]; }
  void add_mem_stall(std::uint64_t n) { mem_stall_ += n; }
  std::uint64_t mem_stall() const { return mem_stall_; }

 private:
  Act cur_ = Act::kIdle, prev_ = Act::kIdle;
  Cycle since_ = 0;
  std::array<std::uint64_t, kActs> totals_{};
  std::uint64_t mem_stall_ = 0;
};

}  // namespace tandem::sim::csim
