// Closed-form timing checks of csim against docs/microarch.md section 8 and
// the rules of sections 1-4, on hand-built instruction streams.
#include "tests/csim/csim_test_util.h"

namespace tandem::sim::csim_test {
namespace {

using isa::MemType;
using isa::Opcode;

// [GEMM n, FINISH]: fetch reads both in one 32-byte burst granted in cycle 0
// (4 beats at 8 B/cycle), completing in L+3; GEMM is dispatched in L+4 and
// issues in L+5; it pushes in L+5+n+2; FINISH issues next cycle and
// completes one later.
TEST(CsimTiming, GemmOfNUopsTakesNPlusThreeCycles) {
  for (std::uint32_t latency : {1u, 5u, 32u}) {
    for (std::uint32_t n : {0u, 1u, 7u, 100u}) {
      const HwConfig cfg = timing_config(latency);
      auto [stats, trace] = run_traced(cfg, {gemm(n), finish()});
      const auto g = trace.on("compute", "GEMM");
      ASSERT_EQ(g.size(), 1u);
      EXPECT_EQ(g[0].cycles, n + 3) << "n=" << n << " L=" << latency;
      EXPECT_EQ(g[0].cycle, latency + 5);
      EXPECT_EQ(stats.get("cycles.total"), latency + n + 10) << "n=" << n << " L=" << latency;
      EXPECT_EQ(stats.get("compute.busy"), n + 3 + 2);
    }
  }
}

TEST(CsimTiming, IterationLoopsMultiplyTheUops) {
  auto [stats, trace] = run_traced(timing_config(32), {gemm(3, 4, 5), finish()});
  EXPECT_EQ(trace.on("compute", "GEMM").at(0).cycles, 3u * 4 * 5 + 3);
}

// LOAD of b bytes in one aligned row: 1 + L + ceil(b/P) cycles of the load
// module (section 8), for several latencies and port widths.
TEST(CsimTiming, UnpaddedLoadTakesLatencyPlusBeats) {
  struct Case {
    std::uint32_t latency, width, x;
  };
  for (const Case c :
       {Case{32, 8, 4}, Case{1, 8, 1}, Case{7, 16, 3}, Case{32, 8, 32}, Case{3, 32, 4}}) {
    const HwConfig cfg = timing_config(c.latency, c.width);
    const std::uint32_t bytes = c.x * cfg.inp_elem_bytes;
    const std::uint32_t beats = (bytes + c.width - 1) / c.width;
    auto [stats, trace] =
        run_traced(cfg, {dma(Opcode::kLoad, MemType::kInp, 0, 64, 1, c.x, c.x), finish()});
    const auto l = trace.on("load", "LOAD");
    ASSERT_EQ(l.size(), 1u);
    EXPECT_EQ(l[0].cycles, 1 + c.latency + beats) << "L=" << c.latency << " P=" << c.width;
    EXPECT_EQ(l[0].args.at("bytes"), bytes);
    EXPECT_EQ(stats.get("load.stall.mem"), c.latency);
    EXPECT_EQ(stats.get("load.busy"), 1 + c.latency + beats);
  }
}

// A transfer longer than Bmax is cut into bursts that keep the bus busy, so
// the closed form still holds; a row crossing a Bmax boundary is cut there.
TEST(CsimTiming, MultiBurstLoadKeepsTheBusBusy) {
  const HwConfig cfg = timing_config(32);
  // 64 inp elements = 512 bytes from an aligned base: two 256-byte bursts.
  auto [stats, trace] =
      run_traced(cfg, {dma(Opcode::kLoad, MemType::kInp, 0, 32, 1, 64, 64), finish()});
  EXPECT_EQ(trace.on("load", "LOAD").at(0).cycles, 1 + 32 + 64u);
  const auto bursts = trace.on("memory", "load");
  ASSERT_EQ(bursts.size(), 2u);
  EXPECT_EQ(bursts[0].cycles, 32u);
  EXPECT_EQ(bursts[1].cycle, bursts[0].cycle + 32);
  // 2 elements (16 bytes) straddling a 256-byte boundary: two 8-byte bursts.
  auto [s2, t2] = run_traced(cfg, {dma(Opcode::kLoad, MemType::kInp, 0, 31, 1, 2, 2), finish()});
  const auto b2 = t2.on("memory", "load");
  ASSERT_EQ(b2.size(), 2u);
  EXPECT_EQ(b2[0].args.at("addr"), 248);
  EXPECT_EQ(b2[1].args.at("addr"), 256);
  EXPECT_EQ(t2.on("load", "LOAD").at(0).cycles, 1 + 32 + 2u);
  EXPECT_EQ(s2.get("mem.bursts"), 3u);  // plus the fetch burst
}

// Padding adds Z cycles before the first request (section 3).
TEST(CsimTiming, PaddedLoadAddsPaddingCycles) {
  const HwConfig cfg = timing_config(32);
  isa::Instruction ld = dma(Opcode::kLoad, MemType::kInp, 0, 64, 2, 4, 4);
  ld.y_pad_0 = 1;
  ld.x_pad_0 = 1;
  ld.x_pad_1 = 2;
  const std::uint64_t z = (1 + 2) * (1 + 4 + 2) - 2 * 4;  // 13
  auto [stats, trace] = run_traced(cfg, {ld, finish()});
  EXPECT_EQ(trace.on("load", "LOAD").at(0).cycles, 1 + z + 32 + 8);  // 2 bursts of 4 beats
  // Only padding, no memory traffic: E = max(1, Z).
  isa::Instruction pad_only = dma(Opcode::kLoad, MemType::kInp, 0, 64, 0, 4, 4);
  pad_only.y_pad_0 = 1;
  auto [s2, t2] = run_traced(cfg, {pad_only, finish()});
  EXPECT_EQ(t2.on("load", "LOAD").at(0).cycles, 1 + 4u);  // Z = 1 x 4
  auto [s3, t3] = run_traced(cfg, {dma(Opcode::kLoad, MemType::kInp, 0, 64, 0, 4, 4), finish()});
  EXPECT_EQ(t3.on("load", "LOAD").at(0).cycles, 2u);
}

// Dispatch back-pressure with one-entry command queues (section 1). Worked
// out in cycles for L = 32: see the comment inside.
TEST(CsimTiming, FullCommandQueueStallsFetch) {
  const HwConfig cfg = timing_config(32, 8, 256, /*cmd_depth=*/1);
  // Fetch: one 64-byte burst (8 beats) completes in 39; GEMM0 dispatched in
  // 40, issues 41, pushes 93; GEMM1 waits for GEMM0's dequeue (visible 42):
  // dispatched 42, issues 94, pushes 146; GEMM2 dispatched 95 (stall 43..94),
  // issues 147, pushes 199; FINISH dispatched 148 (stall 96..147), issues
  // 200, completes 201. Fetch stalls 1 + 52 + 52 cycles.
  auto [stats, trace] = run_traced(cfg, {gemm(50), gemm(50), gemm(50), finish()});
  EXPECT_EQ(stats.get("cycles.total"), 202u);
  EXPECT_EQ(stats.get("fetch.stall.queue_full"), 105u);
  const auto g = trace.on("compute", "GEMM");
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].cycle, 41u);
  EXPECT_EQ(g[1].cycle, 94u);
  EXPECT_EQ(g[2].cycle, 147u);
  // Deep queues: same compute-bound total, no fetch stall.
  auto [s64, t64] = run_traced(timing_config(32), {gemm(50), gemm(50), gemm(50), finish()});
  EXPECT_EQ(s64.get("cycles.total"), 202u);
  EXPECT_EQ(s64.get("fetch.stall.queue_full"), 0u);
}

// A token pushed in cycle t lets the consumer issue in t+1 (section 8).
TEST(CsimTiming, ConsumerIssuesTheCycleAfterThePush) {
  const HwConfig cfg = timing_config(32);
  auto [stats, trace] =
      run_traced(cfg, {dma(Opcode::kLoad, MemType::kInp, 0, 64, 1, 8, 8, deps(0, 0, 0, 1)),
                       gemm(4, 1, 1, deps(1, 0, 0, 0)), finish()});
  const Slice ld = trace.on("load", "LOAD").at(0);
  const Slice g = trace.on("compute", "GEMM").at(0);
  EXPECT_EQ(g.cycle, ld.last() + 1);
  EXPECT_GT(stats.get("compute.stall.token"), 0u);
  // Flow events link the push to the pop.
  int starts = 0, finishes = 0;
  for (const auto& e : trace.json["traceEvents"]) {
    if (e["ph"] == "s") ++starts;
    if (e["ph"] == "f") ++finishes;
  }
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(finishes, 1);
}

// A full token queue holds the producer in its push state (section 2).
TEST(CsimTiming, FullTokenQueueDelaysThePush) {
  const HwConfig cfg = timing_config(32, 8, 256, 64, /*token_depth=*/1);
  const auto push = deps(0, 0, 0, 1);
  const auto pop = deps(1, 0, 0, 0);
  auto [stats, trace] =
      run_traced(cfg, {gemm(300), dma(Opcode::kLoad, MemType::kInp, 0, 64, 1, 1, 1, push),
                       dma(Opcode::kLoad, MemType::kInp, 1, 65, 1, 1, 1, push), gemm(1, 1, 1, pop),
                       gemm(1, 1, 1, pop), finish()});
  const auto loads = trace.on("load", "LOAD");
  const auto gemms = trace.on("compute", "GEMM");
  ASSERT_EQ(loads.size(), 2u);
  ASSERT_EQ(gemms.size(), 3u);
  // The second load cannot push until the first GEMM with pop_prev popped
  // (in gemms[1].cycle); its room is visible one cycle later.
  EXPECT_EQ(loads[1].last(), gemms[1].cycle + 1);
  EXPECT_EQ(gemms[2].cycle, gemms[1].last() + 1);
  const std::uint64_t exec_end = loads[1].cycle + 1 + 32 + 1 - 1;
  EXPECT_EQ(stats.get("load.stall.token_full"), loads[1].last() - exec_end);
}

// Two requesters raising their first request in the same cycle: round-robin
// order after the last grant (fetch), then alternation (section 4).
TEST(CsimTiming, RoundRobinBetweenSimultaneousRequesters) {
  const HwConfig cfg = timing_config(32);
  // Load: a padded inp LOAD (Z = 1) of two 4-element bursts (crossing 256),
  // dispatched first, issues one cycle earlier than compute's acc LOAD; the
  // padding cycle makes both raise their first request in the same cycle.
  isa::Instruction ld = dma(Opcode::kLoad, MemType::kInp, 0, 28, 1, 8, 8);
  ld.x_pad_0 = 1;
  // acc elements are 32 bytes: 2 elements from 224 = bursts 224..255, 256..287.
  const isa::Instruction acc = dma(Opcode::kLoad, MemType::kAcc, 0, 7, 1, 2, 2);
  auto [stats, trace] = run_traced(cfg, {ld, acc, finish()});
  std::vector<std::string> order;
  std::vector<std::uint64_t> at;
  for (const auto& s : trace.on("memory")) {
    order.push_back(s.name);
    at.push_back(s.cycle);
  }
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order, (std::vector<std::string>{"fetch", "load", "compute", "load", "compute"}));
  // Bursts are back to back: 4 beats each.
  for (std::size_t i = 2; i < at.size(); ++i) EXPECT_EQ(at[i], at[i - 1] + 4) << i;
  const Slice l = trace.on("load", "LOAD").at(0);
  const Slice c = trace.on("compute", "LOAD").at(0);
  EXPECT_EQ(l.cycle + 2, at[1]);  // issue, 1 padding cycle, request granted at once
  EXPECT_EQ(c.cycle + 1, at[1]);  // compute raised in the same cycle, lost the tie
}

// Every cycle of each module falls in exactly one activity.
TEST(CsimTiming, ActivitiesSumToTotalCycles) {
  const HwConfig cfg = timing_config(32, 8, 256, 2, 2);
  auto [stats, trace] =
      run_traced(cfg, {dma(Opcode::kLoad, MemType::kInp, 0, 64, 4, 8, 8, deps(0, 0, 0, 1)),
                       gemm(40, 1, 1, deps(1, 0, 0, 1)),
                       dma(Opcode::kStore, MemType::kOut, 0, 64, 1, 8, 8, deps(1, 0, 1, 0)),
                       gemm(10, 1, 1, deps(0, 1, 0, 0)), finish()});
  const std::uint64_t total = stats.get("cycles.total");
  for (const std::string m : {"fetch", "load", "compute", "store"}) {
    const std::uint64_t sum = stats.get(m + ".busy") + stats.get(m + ".idle") +
                              stats.get(m + ".stall.token") + stats.get(m + ".stall.token_full") +
                              stats.get(m + ".stall.queue_full");
    EXPECT_EQ(sum, total) << m;
    EXPECT_LE(stats.get(m + ".stall.mem"), stats.get(m + ".busy")) << m;
  }
  EXPECT_EQ(stats.get("mem.bytes.write"), 64u);
  EXPECT_EQ(stats.get("mem.bytes.read"), 5u * 16 + 4 * 64);
}

}  // namespace
}  // namespace tandem::sim::csim_test
