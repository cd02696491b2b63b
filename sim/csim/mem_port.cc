// MemPort: the SystemC side of the shared memory port (docs/microarch.md
// section 4). Grants themselves are computed by Arbiter; this module decides
// when to commit them and tells requesters their completion cycles.
#include "sim/csim/modules.h"

namespace tandem::sim::csim {
namespace {

// Grants simulated ahead when looking for the next completion. Bounds the
// work per evaluation; a longer transfer just takes another checkpoint.
constexpr int kLookahead = 64;

}  // namespace

MemPort::MemPort(const sc_core::sc_module_name& name, Machine& m) : sc_module(name), m_(m) {
  SC_METHOD(evaluate);
  sensitive << kick_;
  dont_initialize();
  SC_METHOD(on_wake);
  sensitive << wake_;
  dont_initialize();
}

void MemPort::reset() {
  arb_.reset(m_.cfg->mem_bytes_per_cycle, m_.cfg->mem_latency_cycles);
  decided_ = kNever;
  bytes_read = bytes_written = bus_cycles = bursts = 0;
}

void MemPort::cancel() {
  kick_.cancel();
  wake_.cancel();
}

bool MemPort::busy() const {
  for (int r = 0; r < kRequesters; ++r)
    if (arb_.active(r)) return true;
  return false;
}

void MemPort::request(int who, const BurstCursor& bursts, Cycle now) {
  TANDEM_ASSERT(decided_ == kNever || now > decided_,
                requester_name(who) << " raised a request in cycle " << now
                                    << " after grants through that cycle were decided");
  arb_.request(who, bursts, now);
  kick_.notify(sc_core::SC_ZERO_TIME);
}

// A checkpoint fires in the first delta of its cycle, like module wake-ups;
// re-notify so that the decision comes after every request of that cycle.
void MemPort::on_wake() {
  if (!m_.active || m_.clock.before_start()) return;
  kick_.notify(sc_core::SC_ZERO_TIME);
}

void MemPort::evaluate() {
  if (!m_.active || m_.clock.before_start()) return;
  try {
    const Cycle now = m_.clock.now();
    arb_.commit(
        now + 1,
        [&](const Grant& g) {
          ++bursts;
          bus_cycles += g.beats;
          (g.who == kReqStore ? bytes_written : bytes_read) += g.bytes;
          if (m_.trace) {
            TraceRecorder::SliceArgs a;
            a.bytes = g.bytes;
            a.addr = static_cast<std::int64_t>(g.addr);
            m_.trace->slice(kTrackMemory, requester_name(g.who), g.cycle, g.cycle + g.beats - 1, a);
          }
        },
        [&](const Completion& c) {
          TANDEM_ASSERT(c.cycle >= now,
                        "completion in cycle " << c.cycle << " found late, at " << now);
          clients_[c.who]->mem_done(c);
        });
    decided_ = now;
    wake_.cancel();
    if (const auto cp = arb_.checkpoint(kLookahead)) {
      TANDEM_ASSERT(*cp > now, "checkpoint " << *cp << " not after " << now);
      wake_.notify(m_.clock.until(*cp));
    }
  } catch (...) {
    m_.fail(std::current_exception());
  }
}

}  // namespace tandem::sim::csim
