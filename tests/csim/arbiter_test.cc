// The memory port's grant schedule (sim/csim/arbiter.h) without SystemC:
// burst cutting, round-robin order, closed-form completions, and that
// lazy commits in pieces decide exactly what one commit decides.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

#include "sim/csim/arbiter.h"

namespace tandem::sim::csim {
namespace {

std::vector<std::pair<std::uint64_t, std::uint32_t>> bursts_of(BurstCursor c) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> v;
  for (; !c.done(); c.next()) v.emplace_back(c.addr(), c.bytes());
  return v;
}

TEST(CsimBursts, RowsAreCutAtBurstBoundaries) {
  using V = std::vector<std::pair<std::uint64_t, std::uint32_t>>;
  EXPECT_EQ(bursts_of(BurstCursor(0, 0, 1, 512, 256)), (V{{0, 256}, {256, 256}}));
  EXPECT_EQ(bursts_of(BurstCursor(200, 0, 1, 100, 256)), (V{{200, 56}, {256, 44}}));
  // Two rows with a stride: each row is cut on its own.
  EXPECT_EQ(bursts_of(BurstCursor(240, 1032, 2, 32, 256)),
            (V{{240, 16}, {256, 16}, {1272, 8}, {1280, 24}}));
  EXPECT_TRUE(BurstCursor(0, 0, 5, 0, 256).done());
  EXPECT_TRUE(BurstCursor(0, 0, 0, 64, 256).done());
  EXPECT_EQ(BurstCursor(0, 64, 3, 40, 16).total_bytes(), 120u);
}

struct Log {
  std::vector<Grant> grants;
  std::vector<Completion> done;
};

Log commit_all(Arbiter& a, Cycle limit) {
  Log l;
  a.commit(
      limit, [&](const Grant& g) { l.grants.push_back(g); },
      [&](const Completion& c) { l.done.push_back(c); });
  return l;
}

TEST(CsimArbiter, SingleTransferIsBackToBack) {
  Arbiter a;
  a.reset(8, 32);
  a.request(kReqLoad, BurstCursor(0, 0, 1, 1024, 256), 10);  // 4 bursts of 32 beats
  const Log l = commit_all(a, kNever);
  ASSERT_EQ(l.grants.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(l.grants[i].cycle, 10u + 32 * i);
  ASSERT_EQ(l.done.size(), 1u);
  EXPECT_EQ(l.done[0].cycle, 10u + 96 + 32 + 32 - 1);
  EXPECT_EQ(l.done[0].first_request, 10u);
  EXPECT_EQ(l.done[0].beats, 128u);
  // One-beat bursts: the next request is raised the cycle after the grant.
  a.request(kReqFetch, BurstCursor(0, 16, 3, 8, 256), 500);
  const Log l2 = commit_all(a, kNever);
  ASSERT_EQ(l2.grants.size(), 3u);
  EXPECT_EQ(l2.grants[2].cycle, 502u);
  EXPECT_EQ(l2.done.at(0).cycle, 502u + 32);
}

TEST(CsimArbiter, RoundRobinStartsAtFetchAndRotates) {
  Arbiter a;
  a.reset(8, 0);
  for (int who : {kReqStore, kReqCompute, kReqLoad, kReqFetch})
    a.request(who, BurstCursor(0, 0, 1, 16, 256), 0);
  const Log l = commit_all(a, kNever);
  ASSERT_EQ(l.grants.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(l.grants[i].who, i);
    EXPECT_EQ(l.grants[i].cycle, 2u * i);
  }
  // After store was granted, fetch is first again; with load and store
  // waiting, load goes first, then store; multi-burst transfers alternate.
  a.request(kReqStore, BurstCursor(0, 0, 1, 32, 16), 100);
  a.request(kReqLoad, BurstCursor(0, 0, 1, 32, 16), 100);
  const Log l2 = commit_all(a, kNever);
  std::vector<int> order;
  for (const Grant& g : l2.grants) order.push_back(g.who);
  EXPECT_EQ(order, (std::vector<int>{kReqLoad, kReqStore, kReqLoad, kReqStore}));
}

TEST(CsimArbiter, RequestRaisedLaterWaitsForTheBus) {
  Arbiter a;
  a.reset(8, 4);
  a.request(kReqLoad, BurstCursor(0, 0, 1, 256, 256), 0);  // 32 beats: bus busy 0..31
  a.commit(
      5, [](const Grant&) {}, [](const Completion&) {});
  a.request(kReqFetch, BurstCursor(0, 0, 1, 16, 256), 5);
  const Log l = commit_all(a, kNever);
  ASSERT_EQ(l.grants.size(), 1u);
  EXPECT_EQ(l.grants[0].cycle, 32u);
  EXPECT_EQ(l.done.at(0).cycle, 32u + 4 + 2 - 1);
}

// MemPort commits lazily: only in cycles where a request was raised or at
// the checkpoint it asked for. That must decide the same grants as
// committing every cycle, and must learn every completion in time.
TEST(CsimArbiter, LazyCommitsMatchEagerCommits) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    struct Req {
      int who;
      Cycle at;
      BurstCursor c;
    };
    std::vector<Req> reqs;  // per requester, transfers start in list order
    Cycle t = 0;
    for (int i = 0; i < 14; ++i) {
      t += rng() % 25;
      reqs.push_back(
          {static_cast<int>(rng() % 4), t,
           BurstCursor(rng() % 4096, 64 + rng() % 512, 1 + rng() % 3, 1 + rng() % 700, 64)});
    }
    const int lookahead = 1 + trial % 5;
    auto simulate = [&](bool lazy) {
      Arbiter a;
      a.reset(8, trial % 3 == 0 ? 0 : 6);
      Log log;
      std::vector<Cycle> ready(4, 0);  // earliest start of the next transfer
      std::vector<bool> used(reqs.size(), false);
      std::optional<Cycle> checkpoint;
      for (Cycle now = 0; log.done.size() < reqs.size() && now < 100000; ++now) {
        bool raised = false;
        for (std::size_t i = 0; i < reqs.size(); ++i) {
          const Req& r = reqs[i];
          if (used[i] || a.active(r.who)) continue;
          bool first = true;  // the requester's first unused transfer
          for (std::size_t j = 0; j < i; ++j)
            if (!used[j] && reqs[j].who == r.who) first = false;
          if (!first || std::max(r.at, ready[r.who]) != now) continue;
          a.request(r.who, r.c, now);
          used[i] = true;
          raised = true;
        }
        if (lazy && !raised && checkpoint != now) continue;
        a.commit(
            now + 1, [&](const Grant& g) { log.grants.push_back(g); },
            [&](const Completion& c) {
              EXPECT_GE(c.cycle, now) << "completion learnt late";
              log.done.push_back(c);
              ready[c.who] = c.cycle + 1 + rng() % 3;
            });
        checkpoint = a.checkpoint(lookahead);
        if (checkpoint) {
          EXPECT_GT(*checkpoint, now);
        }
      }
      return log;
    };
    std::mt19937 saved = rng;
    const Log eager = simulate(false);
    rng = saved;
    const Log lazy = simulate(true);
    ASSERT_EQ(eager.done.size(), reqs.size());
    ASSERT_EQ(eager.grants.size(), lazy.grants.size());
    for (std::size_t i = 0; i < eager.grants.size(); ++i) {
      EXPECT_EQ(eager.grants[i].who, lazy.grants[i].who) << i;
      EXPECT_EQ(eager.grants[i].cycle, lazy.grants[i].cycle) << i;
    }
    // Bus slots never overlap.
    for (std::size_t i = 1; i < eager.grants.size(); ++i)
      EXPECT_GE(eager.grants[i].cycle, eager.grants[i - 1].cycle + eager.grants[i - 1].beats);
  }
}

TEST(CsimArbiter, CheckpointIsTheNextLastBurst) {
  Arbiter a;
  a.reset(8, 10);
  EXPECT_FALSE(a.checkpoint(64).has_value());
  a.request(kReqLoad, BurstCursor(0, 0, 1, 64 * 8, 64), 0);  // 8 bursts of 8 beats
  EXPECT_EQ(a.checkpoint(64), 56u);
  EXPECT_EQ(a.checkpoint(3), 16u);  // capped lookahead: the third grant
  a.request(kReqStore, BurstCursor(0, 0, 1, 8, 64), 0);
  EXPECT_EQ(a.checkpoint(64), 8u);  // store's single burst goes second
}

}  // namespace
}  // namespace tandem::sim::csim
