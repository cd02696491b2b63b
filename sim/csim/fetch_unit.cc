// FetchUnit: reads instructions in bursts and dispatches one per cycle
// (docs/microarch.md section 1).
#include "isa/codec.h"
#include "sim/csim/modules.h"

namespace tandem::sim::csim {

FetchUnit::FetchUnit(const sc_core::sc_module_name& name, Machine& m) : sc_module(name), m_(m) {
  SC_METHOD(step);
  sensitive << timer_ << poke_;
  dont_initialize();
}

void FetchUnit::reset() {
  state_ = State::kDone;
  earliest_ = kNever;
  act_.reset();
  next_ = 0;
  batch_ = 0;
  request_cycle_ = 0;
  buffer_.clear();
}

void FetchUnit::cancel() {
  timer_.cancel();
  poke_.cancel();
}

void FetchUnit::start() {
  wake_at(0, State::kRequest);
}

void FetchUnit::poke_next() {
  poke_.notify(sc_core::sc_time::from_value(m_.clock.period()));
}

void FetchUnit::wake_at(Cycle c, State s) {
  state_ = s;
  earliest_ = c;
  timer_.cancel();
  timer_.notify(m_.clock.until(c));
}

void FetchUnit::step() {
  if (!m_.active || m_.clock.before_start()) return;
  const Cycle now = m_.clock.now();
  if (now < earliest_) return;
  try {
    switch (state_) {
      case State::kRequest:
        request(now);
        break;
      case State::kMem:
        filled(now);
        break;
      case State::kDispatch:
      case State::kBlocked:
        dispatch(now);
        break;
      case State::kDone:
        break;
    }
  } catch (...) {
    m_.fail(std::current_exception());
  }
  m_.changed();
}

void FetchUnit::request(Cycle now) {
  const std::uint64_t addr = m_.insn_addr + std::uint64_t{next_} * isa::kInsnBytes;
  batch_ = fetch_batch(*m_.cfg, addr, m_.insn_count - next_);
  request_cycle_ = now;
  act_.set(Act::kBusy, now);
  state_ = State::kMem;
  earliest_ = kNever;
  m_.port->request(
      kReqFetch,
      BurstCursor(addr, 0, 1, std::uint64_t{batch_} * isa::kInsnBytes, m_.cfg->mem_burst_bytes),
      now);
}

void FetchUnit::mem_done(const Completion& c) {
  TANDEM_ASSERT(state_ == State::kMem, "fetch completion while not waiting for memory");
  act_.add_mem_stall(c.cycle - c.first_request + 1 - c.beats);
  earliest_ = c.cycle;
  timer_.cancel();
  timer_.notify(m_.clock.until(c.cycle));
}

// The burst completed in `now`: the instructions are in the buffer at the
// end of it and dispatch starts in the next cycle.
void FetchUnit::filled(Cycle now) {
  for (std::uint32_t i = 0; i < batch_; ++i)
    buffer_.push_back(QueuedInsn{m_.decode(next_ + i), next_ + i, 0});
  if (m_.trace) {
    TraceRecorder::SliceArgs a;
    a.index = next_;
    a.insns = batch_;
    a.bytes = std::int64_t{batch_} * isa::kInsnBytes;
    m_.trace->slice(kTrackFetch, "FETCH", request_cycle_, now, a);
  }
  next_ += batch_;
  batch_ = 0;
  wake_at(now + 1, State::kDispatch);
}

void FetchUnit::dispatch(Cycle now) {
  const QueuedInsn& head = buffer_.front();
  const int target = static_cast<int>(isa::module_of(head.insn));
  CmdQueue& q = m_.cmdq[target];
  if (q.count_at(now) >= m_.cfg->cmd_queue_depth) {
    act_.set(Act::kStallQueueFull, now);
    state_ = State::kBlocked;
    earliest_ = now + 1;  // woken when the unit dequeues
    return;
  }
  q.push(head.insn, head.index, now);
  if (m_.trace)
    m_.trace->counter(target == 0   ? "cmdq load"
                      : target == 1 ? "cmdq compute"
                                    : "cmdq store",
                      now + 1, q.count_at(now + 1));
  m_.units[target]->poke_next();
  buffer_.pop_front();
  act_.set(Act::kBusy, now);
  if (!buffer_.empty()) {
    wake_at(now + 1, State::kDispatch);
  } else if (next_ < m_.insn_count) {
    wake_at(now + 1, State::kRequest);
  } else {
    state_ = State::kDone;
    earliest_ = kNever;
    act_.set(Act::kIdle, now + 1);
  }
}

std::string FetchUnit::blocked_reason(Cycle now) const {
  if (state_ != State::kBlocked) return "";
  const QueuedInsn& head = buffer_.front();
  const isa::Module target = isa::module_of(head.insn);
  return (Msg() << "fetch blocked at instruction " << head.index << " ("
                << isa::opcode_name(head.insn.opcode) << "): the " << isa::module_name(target)
                << " command queue is full (" << m_.cmdq[static_cast<int>(target)].count_at(now)
                << "/" << m_.cfg->cmd_queue_depth << ")")
      .str();
}

}  // namespace tandem::sim::csim
