// ExecUnit: the issue / execute / push loop of load, compute and store
// (docs/microarch.md sections 2 and 3). The data effect of an instruction is
// applied by the shared FunctionalCore in its issue cycle: every consumer
// of its results issues after its push, so any point between issue and push
// gives the same memory for programs whose tokens order their accesses.
#include <algorithm>

#include "sim/csim/modules.h"

namespace tandem::sim::csim {
namespace {

const char* cmdq_counter(int unit) {
  return unit == 0 ? "cmdq load" : unit == 1 ? "cmdq compute" : "cmdq store";
}

const char* token_counter(int q) {
  static const char* const kNames[kQueues] = {"tokens load->compute", "tokens compute->load",
                                              "tokens compute->store", "tokens store->compute"};
  return kNames[q];
}

int requester_of(isa::Module m) {
  switch (m) {
    case isa::Module::kLoad:
      return kReqLoad;
    case isa::Module::kCompute:
      return kReqCompute;
    case isa::Module::kStore:
      return kReqStore;
  }
  return kReqCompute;
}

}  // namespace

ExecUnit::ExecUnit(const sc_core::sc_module_name& name, Machine& m, isa::Module which)
    : sc_module(name), m_(m), which_(which), requester_(requester_of(which)) {
  SC_METHOD(step);
  sensitive << timer_ << poke_;
  dont_initialize();
}

void ExecUnit::reset() {
  state_ = State::kIssue;
  earliest_ = kNever;
  act_.reset();
  issued_ = 0;
  cur_ = QueuedInsn{};
  issue_cycle_ = 0;
  plan_ = TransferPlan{};
  bytes_ = -1;
}

void ExecUnit::cancel() {
  timer_.cancel();
  poke_.cancel();
}

void ExecUnit::start() {
  if (m_.module_total[static_cast<int>(which_)] == 0 && which_ != isa::Module::kCompute)
    m_.report_drained(which_, 0);
  wake_at(0, State::kIssue);
}

void ExecUnit::poke_next() {
  poke_.notify(sc_core::sc_time::from_value(m_.clock.period()));
}

void ExecUnit::wake_at(Cycle c, State s) {
  state_ = s;
  earliest_ = c;
  timer_.cancel();
  timer_.notify(m_.clock.until(c));
}

void ExecUnit::step() {
  if (!m_.active || m_.clock.before_start()) return;
  const Cycle now = m_.clock.now();
  if (now < earliest_) return;
  try {
    switch (state_) {
      case State::kIssue:
        try_issue(now);
        break;
      case State::kPreMem:
        state_ = State::kMem;
        earliest_ = kNever;  // mem_done() sets the completion cycle
        m_.port->request(requester_, plan_.bursts, now);
        break;
      case State::kExec:
      case State::kMem:
      case State::kPushBlocked:
        try_push(now);
        break;
    }
  } catch (...) {
    m_.fail(std::current_exception());
  }
  m_.changed();
}

void ExecUnit::try_issue(Cycle now) {
  const int u = static_cast<int>(which_);
  CmdQueue& q = m_.cmdq[u];
  if (!q.head_visible(now)) {
    act_.set(Act::kIdle, now);
    earliest_ = now + 1;  // poked when fetch enqueues
    return;
  }
  const unsigned pops = pop_mask(q.front().insn, which_);
  for (int t = 0; t < kQueues; ++t) {
    if ((pops >> t & 1u) && m_.tokens[t].count_at(now) == 0) {
      act_.set(Act::kStallToken, now);
      earliest_ = now + 1;  // poked when the producer pushes
      return;
    }
  }
  cur_ = q.front();
  q.pop(now);
  m_.fetch->poke_next();
  for (int t = 0; t < kQueues; ++t) {
    if (!(pops >> t & 1u)) continue;
    const std::uint64_t seq = m_.tokens[t].pop(now);
    m_.units[static_cast<int>(producer_of(t))]->poke_next();
    if (m_.trace) {
      m_.trace->flow(false, queue_name(t), seq * kQueues + t + 1, track_of(which_), now);
      m_.trace->counter(token_counter(t), now + 1, m_.tokens[t].count_at(now + 1));
    }
  }
  if (m_.trace) m_.trace->counter(cmdq_counter(u), now + 1, q.count_at(now + 1));
  act_.set(Act::kBusy, now);
  issue_cycle_ = now;
  ++issued_;
  ++m_.issued;
  begin(now);
}

// Applies the data effect and schedules the execute phase (section 3).
void ExecUnit::begin(Cycle now) {
  const isa::Instruction& insn = cur_.insn;
  m_.core->execute(insn, cur_.index);
  bytes_ = -1;
  switch (insn.opcode) {
    case isa::Opcode::kGemm:
    case isa::Opcode::kAlu:
      wake_at(now + isa::uop_count(insn) + 2, State::kExec);
      return;
    case isa::Opcode::kFinish:
      wake_at(now + 1, State::kExec);
      return;
    case isa::Opcode::kLoad:
    case isa::Opcode::kStore: {
      plan_ = plan_transfer(*m_.cfg, insn);
      bytes_ = static_cast<std::int64_t>(plan_.bursts.total_bytes());
      if (!plan_.bursts.done())
        wake_at(now + plan_.pad_cycles + 1, State::kPreMem);
      else
        wake_at(now + std::max<Cycle>(1, plan_.pad_cycles), State::kExec);
      return;
    }
  }
  TANDEM_ASSERT(false, "unknown opcode");
}

void ExecUnit::mem_done(const Completion& c) {
  TANDEM_ASSERT(state_ == State::kMem, isa::module_name(which_) << ": unexpected completion");
  act_.add_mem_stall(c.cycle - c.first_request + 1 - c.beats);
  earliest_ = c.cycle;
  timer_.cancel();
  timer_.notify(m_.clock.until(c.cycle));
}

// Last execute cycle (or a retry in the push state): push every token or none.
void ExecUnit::try_push(Cycle now) {
  // FINISH has completed once its execute cycle is over, whether or not its
  // own pushes can be made (docs/microarch.md, Clarification 2).
  if (state_ != State::kPushBlocked && cur_.insn.opcode == isa::Opcode::kFinish)
    m_.report_finish(now);
  const unsigned pushes = push_mask(cur_.insn, which_);
  for (int t = 0; t < kQueues; ++t) {
    if ((pushes >> t & 1u) && m_.tokens[t].count_at(now) >= m_.cfg->token_queue_depth) {
      if (state_ != State::kPushBlocked) {
        act_.set(Act::kStallTokenFull, now + 1);
        state_ = State::kPushBlocked;
      }
      earliest_ = now + 1;  // poked when the consumer pops
      return;
    }
  }
  for (int t = 0; t < kQueues; ++t) {
    if (!(pushes >> t & 1u)) continue;
    const std::uint64_t seq = m_.tokens[t].push(now);
    m_.units[static_cast<int>(consumer_of(t))]->poke_next();
    if (m_.trace) {
      m_.trace->flow(true, queue_name(t), seq * kQueues + t + 1, track_of(which_), now);
      m_.trace->counter(token_counter(t), now + 1, m_.tokens[t].count_at(now + 1));
    }
  }
  const isa::Instruction& insn = cur_.insn;
  if (m_.trace) {
    TraceRecorder::SliceArgs a;
    a.index = cur_.index;
    if (insn.opcode == isa::Opcode::kLoad || insn.opcode == isa::Opcode::kStore) {
      a.mem = isa::mem_type_name(insn.mem_type).data();
      a.bytes = bytes_;
    }
    if (insn.opcode == isa::Opcode::kGemm || insn.opcode == isa::Opcode::kAlu)
      a.uops = static_cast<std::int64_t>(isa::uop_count(insn));
    m_.trace->slice(track_of(which_), isa::opcode_name(insn.opcode).data(), issue_cycle_, now, a);
  }
  act_.set(Act::kIdle, now + 1);  // provisional: try_issue() decides in now+1
  wake_at(now + 1, State::kIssue);
  if (which_ != isa::Module::kCompute && issued_ == m_.module_total[static_cast<int>(which_)])
    m_.report_drained(which_, now + 1);
}

bool ExecUnit::blocked() const {
  return (state_ == State::kIssue && !m_.cmdq[static_cast<int>(which_)].empty()) ||
         state_ == State::kPushBlocked;
}

std::string ExecUnit::blocked_reason(Cycle now) const {
  Msg msg;
  const auto list = [&](unsigned mask, bool want_empty) {
    std::string s;
    for (int t = 0; t < kQueues; ++t) {
      if (!(mask >> t & 1u)) continue;
      const std::uint32_t n = m_.tokens[t].count_at(now);
      if (want_empty ? n != 0 : n < m_.cfg->token_queue_depth) continue;
      s += (Msg()
            << (s.empty() ? "" : " and ") << queue_name(t)
            << (want_empty
                    ? std::string(" (empty)")
                    : (Msg() << " (full, " << n << "/" << m_.cfg->token_queue_depth << ")").str()))
               .str();
    }
    return s;
  };
  if (state_ == State::kPushBlocked) {
    msg << isa::module_name(which_) << " module blocked after instruction " << cur_.index << " ("
        << isa::opcode_name(cur_.insn.opcode) << "), waiting to push a token into "
        << list(push_mask(cur_.insn, which_), false);
  } else if (state_ == State::kIssue && !m_.cmdq[static_cast<int>(which_)].empty()) {
    const QueuedInsn& head = m_.cmdq[static_cast<int>(which_)].front();
    msg << isa::module_name(which_) << " module blocked at instruction " << head.index << " ("
        << isa::opcode_name(head.insn.opcode) << "), waiting to pop a token from "
        << list(pop_mask(head.insn, which_), true);
  }
  return msg.str();
}

}  // namespace tandem::sim::csim
