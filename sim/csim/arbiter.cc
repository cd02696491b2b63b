// Round-robin grant schedule of the shared memory port (see arbiter.h).
#include "sim/csim/arbiter.h"

#include "isa/error.h"

namespace tandem::sim::csim {

const char* requester_name(int who) {
  static const char* const kNames[kRequesters] = {"fetch", "load", "compute", "store"};
  return who >= 0 && who < kRequesters ? kNames[who] : "?";
}

void Arbiter::reset(std::uint32_t bytes_per_cycle, std::uint32_t latency) {
  *this = Arbiter();
  bytes_per_cycle_ = bytes_per_cycle;
  latency_ = latency;
}

void Arbiter::request(int who, const BurstCursor& bursts, Cycle now) {
  TANDEM_ASSERT(who >= 0 && who < kRequesters, "requester " << who);
  TANDEM_ASSERT(!s_[who].active, requester_name(who) << " raised a second memory transfer");
  TANDEM_ASSERT(!bursts.done(), "empty memory transfer from " << requester_name(who));
  s_[who] = Stream{true, bursts, now, now, 0};
}

bool Arbiter::grant_one(Cycle limit, Grant& g, Completion& c) {
  Cycle earliest = kNever;
  for (const Stream& s : s_)
    if (s.active && s.req < earliest) earliest = s.req;
  if (earliest == kNever) return false;
  const Cycle cycle = earliest > bus_free_ ? earliest : bus_free_;
  if (cycle >= limit) return false;
  int who = -1;
  for (int i = 1; i <= kRequesters; ++i) {
    const int r = (last_ + i) % kRequesters;
    if (s_[r].active && s_[r].req <= cycle) {
      who = r;
      break;
    }
  }
  TANDEM_ASSERT(who >= 0, "no requester for grant at cycle " << cycle);
  Stream& s = s_[who];
  g.who = who;
  g.cycle = cycle;
  g.bytes = s.cur.bytes();
  g.addr = s.cur.addr();
  g.beats = (g.bytes + bytes_per_cycle_ - 1) / bytes_per_cycle_;
  g.complete = cycle + latency_ + g.beats - 1;
  last_ = who;
  bus_free_ = cycle + g.beats;
  s.beats += g.beats;
  s.cur.next();
  g.last = s.cur.done();
  if (g.last) {
    s.active = false;
    c = Completion{who, g.complete, s.first, s.beats};
  } else {
    s.req = cycle + 1;
  }
  return true;
}

std::optional<Cycle> Arbiter::checkpoint(int max_grants) const {
  Arbiter copy = *this;
  Grant g;
  Completion c;
  std::optional<Cycle> at;
  for (int n = 0; n < max_grants && copy.grant_one(kNever, g, c); ++n) {
    at = g.cycle;
    if (g.last) break;
  }
  return at;
}

}  // namespace tandem::sim::csim
