// The RTL's own checks, below the harness (which validates programs before
// running them): a standalone user of tandem_top (the SV testbench, an FPGA
// driver) relies on the RTL flagging malformed words and launches itself.
#include <gtest/gtest.h>

#include "hw/rtl_engine.h"
#include "isa/codec.h"
#include "sim/dram.h"
#include "tests/hw/raw_program.h"

namespace tandem::hw_test {
namespace {

struct Engine {
  HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  sim::Dram dram{cfg.dram_bytes};
  std::unique_ptr<hw::RtlEngine> eng;
  Engine() {
    for (const auto& m : hw::rtl_models())
      if (std::string(m.preset) == cfg.name) eng = m.make(cfg, dram);
  }
  void put(std::uint64_t addr, const isa::Instruction& i) {
    const isa::Word128 w = isa::Codec(cfg).encode(i);
    dram.write(addr, &w.lo, 8);
    dram.write(addr + 8, &w.hi, 8);
  }
};

TEST(RtlEngine, ModelsForBothPresets) {
  std::vector<std::string> names;
  for (const auto& m : hw::rtl_models()) names.push_back(m.preset);
  EXPECT_EQ(names, (std::vector<std::string>{"tandem-8x8", "vta-16x16"}));
}

TEST(RtlEngine, RtlFlagsMalformedWordsAndLaunches) {
  Engine e;
  ASSERT_TRUE(e.eng);
  // opcode 7
  const std::uint64_t bad[2] = {7, 0};
  e.dram.write(kInsnAddr, bad, 16);
  hw::RunOutcome o = e.eng->run(kInsnAddr, 1, 10000);
  EXPECT_TRUE(o.status.done && o.status.error);
  EXPECT_EQ(o.status.err_code, hw::kErrIllegal);
  EXPECT_EQ(o.status.err_aux, 1u);  // ILL_OPCODE
  // FINISH that is not the last instruction
  e.put(kInsnAddr, finish());
  e.put(kInsnAddr + 16, finish());
  o = e.eng->run(kInsnAddr, 2, 10000);
  EXPECT_EQ(o.status.err_code, hw::kErrIllegal);
  EXPECT_EQ(o.status.err_aux, 3u);  // ILL_FINISH_NOT_LAST
  EXPECT_EQ(o.status.err_insn, 0u);
  // last instruction not a FINISH
  e.put(kInsnAddr, core(isa::Opcode::kGemm, 0, 0));
  o = e.eng->run(kInsnAddr, 1, 10000);
  EXPECT_EQ(o.status.err_aux, 4u);  // ILL_LAST_NOT_FINISH
  // a STORE of inp
  e.put(kInsnAddr, dma(isa::Opcode::kStore, isa::MemType::kInp, 0, 0, 1, 1, 1));
  e.put(kInsnAddr + 16, finish());
  o = e.eng->run(kInsnAddr, 2, 10000);
  EXPECT_EQ(o.status.err_aux, 2u);  // ILL_MEM_TYPE
  // empty and misaligned launches
  o = e.eng->run(kInsnAddr, 0, 10000);
  EXPECT_EQ(o.status.err_aux, 8u);  // ILL_EMPTY
  e.put(kInsnAddr + 16, finish());
  o = e.eng->run(kInsnAddr + 8, 1, 10000);
  EXPECT_EQ(o.status.err_aux, 7u);  // ILL_INSN_ADDR
  // and a good run afterwards
  e.put(kInsnAddr, finish());
  o = e.eng->run(kInsnAddr, 1, 10000);
  EXPECT_TRUE(o.status.done);
  EXPECT_FALSE(o.status.error);
  // fetch completes in L+1, dispatch L+2, issue L+3, execute and done L+4
  EXPECT_EQ(o.status.cycles, e.cfg.mem_latency_cycles + 5u);
}

}  // namespace
}  // namespace tandem::hw_test
