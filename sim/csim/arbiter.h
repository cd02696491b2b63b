// Arbiter: the shared memory port's grant schedule (docs/microarch.md section 4),
// as plain C++ so it can be tested without SystemC.
//
// Four requesters (fetch 0, load 1, compute 2, store 3) each run at most one
// transfer, a sequence of bursts: the first request is raised when the
// transfer starts, burst j+1's request in the cycle after burst j's grant.
// In every cycle in which the bus is free, the first waiting requester in
// round-robin order after the last granted one (initially fetch is first)
// gets the bus for ceil(bytes/P) cycles; a burst granted in g completes in
// g + L + beats - 1.
//
// Grants are decided lazily: commit(limit) decides every grant in cycles
// < limit and is only correct once every request raised before `limit` has
// been made; the caller (MemPort) guarantees this by committing through
// cycle c only after all requests of cycle c are in. checkpoint() tells the
// caller the next cycle it must commit at so that no completion is missed
// if no new request arrives, which keeps events per transfer, not per beat.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "sim/csim/timeline.h"
#include "sim/csim/transfer.h"

namespace tandem::sim::csim {

inline constexpr int kRequesters = 4;
enum Requester : int { kReqFetch = 0, kReqLoad = 1, kReqCompute = 2, kReqStore = 3 };
const char* requester_name(int who);

struct Grant {
  int who = 0;
  Cycle cycle = 0;          // first bus cycle
  std::uint32_t beats = 0;  // bus cycles
  std::uint32_t bytes = 0;
  std::uint64_t addr = 0;
  Cycle complete = 0;  // g + L + beats - 1
  bool last = false;   // last burst of its transfer
};

// A finished transfer.
struct Completion {
  int who = 0;
  Cycle cycle = 0;          // completion of the last burst
  Cycle first_request = 0;  // cycle the transfer's first request was raised
  std::uint64_t beats = 0;  // bus cycles carrying this transfer's beats
};

class Arbiter {
 public:
  void reset(std::uint32_t bytes_per_cycle, std::uint32_t latency);
  // Starts a transfer for `who` whose first request is raised in cycle `now`.
  // `bursts` must not be done().
  void request(int who, const BurstCursor& bursts, Cycle now);
  bool active(int who) const { return s_[who].active; }

  // Decides every grant in cycles < limit, calling on_grant(const Grant&) for
  // each and on_done(const Completion&) for each finished transfer.
  template <class OnGrant, class OnDone>
  void commit(Cycle limit, OnGrant&& on_grant, OnDone&& on_done) {
    Grant g;
    Completion c;
    while (grant_one(limit, g, c)) {
      on_grant(g);
      if (g.last) on_done(c);
    }
  }

  // Assuming no new request: the grant cycle of the next last burst of any
  // transfer, or of the max_grants-th next grant if that comes first;
  // nullopt if no transfer is active.
  std::optional<Cycle> checkpoint(int max_grants) const;

 private:
  struct Stream {
    bool active = false;
    BurstCursor cur;
    Cycle req = 0;    // cycle the pending request was raised
    Cycle first = 0;  // first request of the transfer
    std::uint64_t beats = 0;
  };
  bool grant_one(Cycle limit, Grant& g, Completion& c);

  std::uint32_t bytes_per_cycle_ = 8;
  std::uint32_t latency_ = 0;
  int last_ = kRequesters - 1;  // so that fetch is first
  Cycle bus_free_ = 0;          // first cycle the bus is free
  std::array<Stream, kRequesters> s_{};
};

}  // namespace tandem::sim::csim
