// The token schedule on its own: fetch asks for each instruction once and in
// order (the lazy-decode path of long programs relies on it), and tokens
// order data between modules against the natural round-robin order.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/fsim_scheduler.h"
#include "sim_test_util.h"

namespace tandem::sim::testing {
namespace {

Instruction deps(Instruction i, bool pop_prev, bool pop_next, bool push_prev, bool push_next) {
  i.dep = {pop_prev, pop_next, push_prev, push_next};
  return i;
}

TEST(FsimSchedule, SourceIsAskedOnceInOrder) {
  HwConfig cfg = small_config();
  cfg.cmd_queue_depth = 2;
  cfg.finalize();
  CoreHarness h(cfg);
  std::vector<Instruction> prog;
  for (int i = 0; i < 20; ++i)
    prog.push_back(i % 2 ? deps(alu(AluOp::kAdd, 0, 0), 1, 0, 0, 0)
                         : deps(load(MemType::kInp, 0, 0, 1, 1, 1), 0, 0, 0, 1));
  prog.push_back(finish());
  std::vector<std::uint32_t> asked;
  const InsnSource src = [&](std::uint32_t i) {
    asked.push_back(i);
    return prog[i];
  };
  EXPECT_EQ(run_token_schedule(cfg, h.core, static_cast<std::uint32_t>(prog.size()), src), 21u);
  ASSERT_EQ(asked.size(), prog.size());
  for (std::uint32_t i = 0; i < asked.size(); ++i) EXPECT_EQ(asked[i], i);
  EXPECT_EQ(h.core.counters().insn_load, 10u);
  EXPECT_EQ(h.core.counters().insn_alu, 10u);
}

TEST(FsimSchedule, TokensOrderComputeAfterStore) {
  // compute writes out row 0 = 1, store copies it to DRAM element 100, and
  // only then (store->compute token) may compute overwrite it with 2 for the
  // second store to element 101. Without the token wait, the round-robin
  // would run both ALUs before either store.
  const HwConfig cfg = small_config();
  CoreHarness h(cfg);
  h.put_uops({{0, 0, 0}});
  Instruction set1 = alu(AluOp::kAdd, 0, 1, true, 1);
  set1.reset = false;
  const std::vector<Instruction> prog = {
      deps(set1, 0, 0, 0, 1), deps(store(0, 100, 1, 1, 1), 1, 0, 1, 0),
      deps(alu(AluOp::kAdd, 0, 1, true, 1), 0, 1, 0, 1), deps(store(0, 101, 1, 1, 1), 1, 0, 1, 0),
      deps(finish(), 0, 1, 0, 0)};
  run_token_schedule(cfg, h.core, static_cast<std::uint32_t>(prog.size()),
                     [&](std::uint32_t i) { return prog[i]; });
  std::int8_t a[8], b[8];
  h.dram.read(100 * 8, a, 8);
  h.dram.read(101 * 8, b, 8);
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(b[0], 2);
}

}  // namespace
}  // namespace tandem::sim::testing
