// The SystemC modules of csim: fetch, the three execution units (load,
// compute, store) and the shared memory port, plus the waveform probe.
//
// Every module is an SC_METHOD state machine woken by two events: its own
// timer (the next cycle it must act in) and a "poke" that another module
// notifies one cycle after it changed something this module may wait for
// (a command enqueued or dequeued, a token pushed or popped). A module acts
// at most once per cycle and ignores wake-ups before the cycle it is due, so
// merged or early notifications are harmless. Time jumps straight to the
// next cycle a module can act in: a GEMM of n micro-ops is one timer of
// n + 2 cycles; memory transfers wake their requester once, at completion.
//
// Delta-cycle discipline (what makes the arbiter exact): modules raise
// memory requests only in the first delta of a timestep (they are only
// woken by timed notifications), and the memory port decides grants for
// cycle c one delta later, when every request of cycle c is in.
#pragma once

#include <systemc>

#include <deque>
#include <string>

#include "sim/csim/activity.h"
#include "sim/csim/machine.h"
#include "sim/csim/transfer.h"

namespace tandem::sim::csim {

class FetchUnit : public sc_core::sc_module, public MemClient {
 public:
  SC_HAS_PROCESS(FetchUnit);
  FetchUnit(const sc_core::sc_module_name& name, Machine& m);
  void reset();
  void start();  // acts in cycle 0
  void cancel();
  void poke_next();  // a command queue slot frees up next cycle
  void mem_done(const Completion& c) override;
  const Activity& activity() const { return act_; }
  bool waiting_for_memory() const { return state_ == State::kMem; }
  // Empty unless fetch is blocked on a full command queue.
  std::string blocked_reason(Cycle now) const;
  bool done() const { return state_ == State::kDone; }

 private:
  enum class State { kRequest, kMem, kDispatch, kBlocked, kDone };
  void step();
  void wake_at(Cycle c, State s);
  void request(Cycle now);
  void filled(Cycle now);
  void dispatch(Cycle now);

  Machine& m_;
  sc_core::sc_event timer_, poke_;
  State state_ = State::kDone;
  Cycle earliest_ = kNever;
  Activity act_;
  std::uint32_t next_ = 0;   // next instruction to fetch from DRAM
  std::uint32_t batch_ = 0;  // instructions in the outstanding request
  Cycle request_cycle_ = 0;
  std::deque<QueuedInsn> buffer_;
};

class ExecUnit : public sc_core::sc_module, public MemClient {
 public:
  SC_HAS_PROCESS(ExecUnit);
  ExecUnit(const sc_core::sc_module_name& name, Machine& m, isa::Module which);
  void reset();
  void start();
  void cancel();
  void poke_next();  // a command or a token (or token room) appears next cycle
  void mem_done(const Completion& c) override;
  const Activity& activity() const { return act_; }
  bool waiting_for_memory() const { return state_ == State::kMem || state_ == State::kPreMem; }
  // Empty unless the unit is blocked on a token (to pop, or room to push).
  std::string blocked_reason(Cycle now) const;
  bool blocked() const;

 private:
  enum class State { kIssue, kExec, kPreMem, kMem, kPushBlocked };
  void step();
  void wake_at(Cycle c, State s);
  void try_issue(Cycle now);
  void begin(Cycle now);
  void try_push(Cycle now);

  Machine& m_;
  const isa::Module which_;
  const int requester_;
  sc_core::sc_event timer_, poke_;
  State state_ = State::kIssue;
  Cycle earliest_ = kNever;
  Activity act_;
  std::uint32_t issued_ = 0;
  QueuedInsn cur_;
  Cycle issue_cycle_ = 0;
  TransferPlan plan_;
  std::int64_t bytes_ = -1;
};

class MemPort : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MemPort);
  MemPort(const sc_core::sc_module_name& name, Machine& m);
  void reset();
  void cancel();
  void set_client(int who, MemClient* c) { clients_[who] = c; }
  // Raises `who`'s first request for `bursts` in cycle `now`.
  void request(int who, const BurstCursor& bursts, Cycle now);
  bool busy() const;

  std::uint64_t bytes_read = 0, bytes_written = 0, bus_cycles = 0, bursts = 0;

 private:
  void evaluate();
  void on_wake();

  Machine& m_;
  Arbiter arb_;
  std::array<MemClient*, kRequesters> clients_{};
  sc_core::sc_event kick_, wake_;
  Cycle decided_ = kNever;  // grants decided through this cycle
};

// VCD probe: at each cycle something changed, samples the command-queue
// occupancies, token counts and module activities as seen at the start of
// that cycle into sc_signals that an sc_trace file records.
class Probe : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Probe);
  Probe(const sc_core::sc_module_name& name, Machine& m);
  void cancel();
  void touch();  // sample now and at the start of the next cycle
  void trace_to(sc_core::sc_trace_file* tf);

 private:
  void sample();
  Machine& m_;
  sc_core::sc_event now_, next_;
  std::array<sc_core::sc_signal<int>, kUnits> cmdq_;
  std::array<sc_core::sc_signal<int>, kQueues> tokens_;
  std::array<sc_core::sc_signal<int>, 4> state_;  // fetch, load, compute, store
  std::array<sc_core::sc_signal<bool>, 4> mem_;   // waiting on the memory port
};

}  // namespace tandem::sim::csim
