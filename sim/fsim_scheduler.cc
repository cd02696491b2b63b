// fsim's dispatch and token model (see sim/fsim_scheduler.h).
#include "sim/fsim_scheduler.h"

#include <array>
#include <vector>

#include "isa/error.h"

namespace tandem::sim {
namespace {

using isa::Module;
using isa::TokenQueue;

constexpr int kModules = 3;
constexpr int kQueues = 4;

unsigned bit(TokenQueue q) {
  return 1u << static_cast<unsigned>(q);
}

// Token queues an instruction pops / pushes, as bit masks over TokenQueue.
unsigned pop_mask(const isa::Instruction& i, Module m) {
  switch (m) {
    case Module::kLoad:
      return i.dep.pop_next ? bit(TokenQueue::kComputeToLoad) : 0;
    case Module::kCompute:
      return (i.dep.pop_prev ? bit(TokenQueue::kLoadToCompute) : 0) |
             (i.dep.pop_next ? bit(TokenQueue::kStoreToCompute) : 0);
    case Module::kStore:
      return i.dep.pop_prev ? bit(TokenQueue::kComputeToStore) : 0;
  }
  return 0;
}

unsigned push_mask(const isa::Instruction& i, Module m) {
  switch (m) {
    case Module::kLoad:
      return i.dep.push_next ? bit(TokenQueue::kLoadToCompute) : 0;
    case Module::kCompute:
      return (i.dep.push_prev ? bit(TokenQueue::kComputeToLoad) : 0) |
             (i.dep.push_next ? bit(TokenQueue::kComputeToStore) : 0);
    case Module::kStore:
      return i.dep.push_prev ? bit(TokenQueue::kStoreToCompute) : 0;
  }
  return 0;
}

struct Entry {
  isa::Instruction insn;
  std::uint32_t index = 0;
};

// Bounded FIFO of dispatched instructions.
class CmdQueue {
 public:
  explicit CmdQueue(std::uint32_t cap) : ring_(cap) {}
  bool full() const { return size_ == ring_.size(); }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return ring_.size(); }
  void push(Entry e) {
    ring_[(head_ + size_) % ring_.size()] = std::move(e);
    ++size_;
  }
  const Entry& front() const { return ring_[head_]; }
  void pop() {
    head_ = (head_ + 1) % ring_.size();
    --size_;
  }

 private:
  std::vector<Entry> ring_;
  std::size_t head_ = 0, size_ = 0;
};

struct ModuleState {
  explicit ModuleState(std::uint32_t cap) : queue(cap) {}
  CmdQueue queue;
  bool pending_push = false;  // executed, waiting for room to push
  unsigned pending_mask = 0;
  Entry pending;
};

class Schedule {
 public:
  Schedule(const HwConfig& cfg, FunctionalCore& core, std::uint32_t count, const InsnSource& source)
      : cfg_(cfg),
        core_(core),
        count_(count),
        source_(source),
        modules_{ModuleState(cfg.cmd_queue_depth), ModuleState(cfg.cmd_queue_depth),
                 ModuleState(cfg.cmd_queue_depth)} {}

  std::uint64_t run() {
    for (;;) {
      bool progress = fetch();
      for (int m = 0; m < kModules; ++m)
        while (step(static_cast<Module>(m))) progress = true;
      if (!progress) break;
    }
    if (!done()) throw Error(deadlock_message());
    std::string left;
    for (int q = 0; q < kQueues; ++q)
      if (tokens_[q] != 0)
        left +=
            (Msg() << (left.empty() ? "" : ", ")
                   << isa::token_queue_name(static_cast<TokenQueue>(q)) << " holds " << tokens_[q])
                .str();
    TANDEM_CHECK(left.empty(), "fsim: the program finished with tokens left in a token queue ("
                                   << left << "); every pushed token must be popped");
    return executed_;
  }

 private:
  bool done() const {
    if (!finished_ || next_ < count_) return false;
    for (const ModuleState& m : modules_)
      if (!m.queue.empty() || m.pending_push) return false;
    return true;
  }

  // Dispatches in program order until the next target queue is full.
  bool fetch() {
    bool progress = false;
    while (next_ < count_) {
      if (!have_next_) {
        next_insn_ = source_(next_);
        have_next_ = true;
      }
      ModuleState& m = modules_[static_cast<int>(isa::module_of(next_insn_))];
      if (m.queue.full()) break;
      m.queue.push(Entry{next_insn_, next_});
      have_next_ = false;
      ++next_;
      progress = true;
    }
    return progress;
  }

  bool room_for(unsigned mask) const {
    for (int q = 0; q < kQueues; ++q)
      if ((mask >> q) & 1u && tokens_[q] >= cfg_.token_queue_depth) return false;
    return true;
  }

  void push(unsigned mask) {
    for (int q = 0; q < kQueues; ++q)
      if ((mask >> q) & 1u) ++tokens_[q];
  }

  // One issue/execute/push (or a pending push) of module m; false if blocked or idle.
  bool step(Module mod) {
    ModuleState& m = modules_[static_cast<int>(mod)];
    if (m.pending_push) {
      if (!room_for(m.pending_mask)) return false;
      push(m.pending_mask);
      m.pending_push = false;
      return true;
    }
    if (m.queue.empty()) return false;
    const Entry& head = m.queue.front();
    const unsigned pops = pop_mask(head.insn, mod);
    for (int q = 0; q < kQueues; ++q)
      if ((pops >> q) & 1u && tokens_[q] == 0) return false;
    for (int q = 0; q < kQueues; ++q)
      if ((pops >> q) & 1u) --tokens_[q];
    core_.execute(head.insn, head.index);
    ++executed_;
    if (head.insn.opcode == isa::Opcode::kFinish) finished_ = true;
    const unsigned pushes = push_mask(head.insn, mod);
    if (room_for(pushes)) {
      push(pushes);
    } else {
      m.pending_push = true;
      m.pending_mask = pushes;
      m.pending = head;
    }
    m.queue.pop();
    return true;
  }

  static std::string insn_name(const Entry& e) {
    return (Msg() << "instruction " << e.index << " (" << isa::opcode_name(e.insn.opcode) << ")")
        .str();
  }

  std::string queue_list(unsigned mask, bool want_empty) const {
    std::string s;
    for (int q = 0; q < kQueues; ++q) {
      if (!((mask >> q) & 1u)) continue;
      const bool bad = want_empty ? tokens_[q] == 0 : tokens_[q] >= cfg_.token_queue_depth;
      if (!bad) continue;
      s += (Msg() << (s.empty() ? "" : " and ") << isa::token_queue_name(static_cast<TokenQueue>(q))
                  << (want_empty ? " (empty)"
                                 : (Msg() << " (full, " << tokens_[q] << "/"
                                          << cfg_.token_queue_depth << ")")
                                       .str()))
               .str();
    }
    return s;
  }

  std::string deadlock_message() const {
    Msg msg;
    msg << "fsim: deadlock after " << executed_ << " of " << count_ << " instructions executed:";
    for (int i = 0; i < kModules; ++i) {
      const Module mod = static_cast<Module>(i);
      const ModuleState& m = modules_[i];
      if (m.pending_push) {
        msg << " " << isa::module_name(mod) << " module blocked after " << insn_name(m.pending)
            << ", waiting to push a token into " << queue_list(m.pending_mask, false) << ";";
      } else if (!m.queue.empty()) {
        const Entry& head = m.queue.front();
        msg << " " << isa::module_name(mod) << " module blocked at " << insn_name(head)
            << ", waiting to pop a token from " << queue_list(pop_mask(head.insn, mod), true)
            << ";";
      }
    }
    if (next_ < count_) {
      const Module mod = isa::module_of(next_insn_);
      const ModuleState& m = modules_[static_cast<int>(mod)];
      msg << " fetch blocked at instruction " << next_ << " ("
          << isa::opcode_name(next_insn_.opcode) << "): the " << isa::module_name(mod)
          << " command queue is full (" << m.queue.size() << "/" << m.queue.capacity() << ");";
    }
    msg << " tokens: ";
    for (int q = 0; q < kQueues; ++q)
      msg << (q ? ", " : "") << isa::token_queue_name(static_cast<TokenQueue>(q)) << "="
          << tokens_[q];
    return msg.str();
  }

  const HwConfig& cfg_;
  FunctionalCore& core_;
  const std::uint32_t count_;
  const InsnSource& source_;
  std::array<ModuleState, kModules> modules_;
  std::array<std::uint32_t, kQueues> tokens_{};
  std::uint32_t next_ = 0;  // next instruction to dispatch
  bool have_next_ = false;  // next_insn_ holds instruction next_
  isa::Instruction next_insn_;
  bool finished_ = false;
  std::uint64_t executed_ = 0;
};

}  // namespace

std::uint64_t run_token_schedule(const HwConfig& cfg, FunctionalCore& core, std::uint32_t count,
                                 const InsnSource& source) {
  return Schedule(cfg, core, count, source).run();
}

}  // namespace tandem::sim
