// Machine: the state one csim run shares between its SystemC modules, plus
// the SystemC-time <-> cycle conversion and the ISA's token routing.
//
// One cycle is one nanosecond of SystemC time; cycle 0 of a run is the
// `base` time the engine picks when the run starts (runs follow each other
// on one SystemC timeline, see engine.h). Everything here is owned by the
// engine and reset at the start of every run.
#pragma once

#include <systemc>

#include <array>
#include <cstdint>
#include <exception>
#include <functional>

#include "isa/error.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/core.h"
#include "sim/csim/arbiter.h"
#include "sim/csim/timeline.h"
#include "sim/csim/trace.h"

namespace tandem::sim::csim {

class FetchUnit;
class ExecUnit;
class MemPort;
class Probe;

class Clock {
 public:
  // Cycle 0 starts at SystemC time `base_ticks` (in time-resolution units).
  void start_at(std::uint64_t base_ticks, std::uint64_t period_ticks) {
    base_ = base_ticks;
    period_ = period_ticks;
  }
  bool before_start() const { return sc_core::sc_time_stamp().value() < base_; }
  Cycle now() const { return (sc_core::sc_time_stamp().value() - base_) / period_; }
  // Delay from now until the start of cycle c (c >= now; may be called
  // before cycle 0 has started).
  sc_core::sc_time until(Cycle c) const {
    const std::uint64_t t = sc_core::sc_time_stamp().value();
    TANDEM_CHECK(c < (~std::uint64_t{0} - base_) / period_,
                 "csim: cycle " << c << " is beyond SystemC's time range");
    const std::uint64_t target = base_ + c * period_;
    TANDEM_ASSERT(target >= t, "wake-up at cycle " << c << " is in the past");
    return sc_core::sc_time::from_value(target - t);
  }
  std::uint64_t base() const { return base_; }
  std::uint64_t period() const { return period_; }

 private:
  std::uint64_t base_ = 0, period_ = 1;
};

// A requester of the memory port, told when its transfer completes.
class MemClient {
 public:
  virtual ~MemClient() = default;
  virtual void mem_done(const Completion& c) = 0;
};

inline constexpr int kUnits = 3;   // load, compute, store (isa::Module order)
inline constexpr int kQueues = 4;  // isa::TokenQueue order

// Token queues an instruction of module m pops / pushes (bit q = TokenQueue q).
unsigned pop_mask(const isa::Instruction& i, isa::Module m);
unsigned push_mask(const isa::Instruction& i, isa::Module m);
isa::Module producer_of(int queue);
isa::Module consumer_of(int queue);
const char* queue_name(int queue);
Track track_of(isa::Module m);

struct Machine {
  // ---- inputs of the run
  const HwConfig* cfg = nullptr;
  FunctionalCore* core = nullptr;
  std::function<isa::Instruction(std::uint32_t)> decode;
  std::uint64_t insn_addr = 0;
  std::uint32_t insn_count = 0;
  std::array<std::uint32_t, kUnits> module_total{};
  TraceRecorder* trace = nullptr;
  bool vcd = false;

  // ---- timing state
  Clock clock;
  std::array<CmdQueue, kUnits> cmdq;
  std::array<TokenQueue, kQueues> tokens;

  // ---- modules (set once by the engine)
  FetchUnit* fetch = nullptr;
  std::array<ExecUnit*, kUnits> units{};
  MemPort* port = nullptr;
  Probe* probe = nullptr;

  // ---- status
  bool active = false;  // false before start and once the run is over
  std::exception_ptr error;
  Cycle finish_cycle = kNever;          // FINISH pushed (completed)
  std::array<Cycle, kUnits> drained{};  // first idle cycle with nothing left
  std::array<bool, kUnits> drained_known{};
  bool complete = false;
  Cycle done_cycle = 0;  // cycles.total - 1
  std::uint64_t issued = 0;

  void report_finish(Cycle f);
  void report_drained(isa::Module m, Cycle c);
  void fail(std::exception_ptr e);
  void changed();  // something a waveform shows changed (VCD only)

 private:
  void check_done();
};

}  // namespace tandem::sim::csim
