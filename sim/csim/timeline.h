// Stamped queues for csim: the visibility rule of docs/microarch.md section 0.
//
// A value a module reads in cycle c is the value at the start of c; a write
// made in cycle c becomes visible in c+1. Every write here is stamped with
// the cycle it becomes visible, and every read names the cycle it is made
// in, so the order in which SystemC runs processes inside one timestep can
// never change what a module sees. Assumes what the hardware guarantees:
// each queue has one producer and one consumer, each doing at most one
// write per cycle, and reads are made at the current (monotonic) cycle.
#pragma once

#include <cstdint>
#include <deque>

#include "isa/error.h"
#include "isa/insn.h"

namespace tandem::sim::csim {

using Cycle = std::uint64_t;
inline constexpr Cycle kNever = ~Cycle{0};

// One dispatched instruction in a command queue.
struct QueuedInsn {
  isa::Instruction insn;
  std::uint32_t index = 0;  // position in the instruction stream
  Cycle visible = 0;        // first cycle the consumer can see it
};

// Command queue from fetch to one module (capacity enforced by fetch).
class CmdQueue {
 public:
  void reset() {
    items_.clear();
    pop_visible_ = 0;
  }
  // Occupancy at the start of cycle c (enqueued before c, not dequeued before c).
  std::uint32_t count_at(Cycle c) const {
    std::size_t n = items_.size();
    for (auto it = items_.rbegin(); it != items_.rend() && it->visible > c; ++it) --n;
    if (pop_visible_ > c) ++n;
    return static_cast<std::uint32_t>(n);
  }
  bool head_visible(Cycle c) const { return !items_.empty() && items_.front().visible <= c; }
  bool empty() const { return items_.empty(); }
  const QueuedInsn& front() const { return items_.front(); }
  // Enqueue in cycle c (visible from c+1).
  void push(const isa::Instruction& insn, std::uint32_t index, Cycle c) {
    items_.push_back(QueuedInsn{insn, index, c + 1});
  }
  // Dequeue in cycle c (the slot is free for the producer from c+1).
  void pop(Cycle c) {
    TANDEM_ASSERT(head_visible(c), "dequeue of an invisible command at cycle " << c);
    TANDEM_ASSERT(pop_visible_ <= c, "two dequeues in cycle " << c);
    items_.pop_front();
    pop_visible_ = c + 1;
  }

 private:
  std::deque<QueuedInsn> items_;
  Cycle pop_visible_ = 0;  // stamp of the latest dequeue
};

// Token counter between two modules. Tokens carry no data, but each push
// and pop gets a sequence number so traces can link a push to its pop.
class TokenQueue {
 public:
  void reset() { *this = TokenQueue(); }
  std::uint32_t count_at(Cycle c) const {
    std::int64_t n = count_;
    if (push_visible_ > c) --n;
    if (pop_visible_ > c) ++n;
    return static_cast<std::uint32_t>(n);
  }
  std::uint32_t count() const { return count_; }  // after every write so far
  // Push in cycle c; returns the token's sequence number.
  std::uint64_t push(Cycle c) {
    TANDEM_ASSERT(push_visible_ <= c, "two token pushes in cycle " << c);
    ++count_;
    push_visible_ = c + 1;
    return pushes_++;
  }
  // Pop in cycle c; returns the sequence number of the token consumed.
  std::uint64_t pop(Cycle c) {
    TANDEM_ASSERT(count_at(c) > 0, "token pop from an empty queue at cycle " << c);
    TANDEM_ASSERT(pop_visible_ <= c, "two token pops in cycle " << c);
    --count_;
    pop_visible_ = c + 1;
    return pops_++;
  }
  std::uint64_t pushes() const { return pushes_; }

 private:
  std::uint32_t count_ = 0;
  Cycle push_visible_ = 0, pop_visible_ = 0;
  std::uint64_t pushes_ = 0, pops_ = 0;
};

}  // namespace tandem::sim::csim
