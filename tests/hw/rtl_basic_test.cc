// Hand-written programs on the RTL: bit-exact against fsim on both presets
// (loads with padding and strides, micro-op loads at odd offsets, GEMM with
// both loop levels, every ALU op, stores), and the closed-form cycle counts
// of docs/microarch.md section 8.
#include <gtest/gtest.h>

#include "hw_test_util.h"

namespace tandem::hw_test {
namespace {

using isa::AluOp;
using isa::MemType;
using isa::Opcode;

class RtlBasic : public testing::TestWithParam<std::string> {
 protected:
  HwConfig cfg = HwConfig::load_preset(GetParam());
  std::uint32_t eb(MemType m) const { return cfg.elem_bytes(static_cast<int>(m)); }
};

// Data region layout (byte offsets): inp at 0, wgt at 0x10000, acc at 0x40000,
// out at 0x80000.
constexpr std::uint64_t kInp = 0, kWgt = 0x10000, kAcc = 0x40000, kOut = 0x80000;

TEST_P(RtlBasic, GemmWithPaddingAndStoreMatchesFsim) {
  RawProgram p;
  p.data = random_bytes(kDataBytes, 7);
  // uops: dst a, src s, wgt w; used with iter_out 2 (dst +8, src +1) and iter_in 3 (src +2, wgt +1)
  for (std::uint32_t u = 0; u < 5; ++u) p.uops.push_back({u, u * 3 % 7, u % 4});
  // uop load at an odd SRAM offset and an odd DRAM element (packed beats)
  p.insns.push_back(dma(Opcode::kLoad, MemType::kUop, 3, uop_dram_base() + 0, 1, 5, 5));
  // inp: 4 rows of 5 with stride 9, padded (1,2,2,1): 7 x 8 elements
  p.insns.push_back(
      dma(Opcode::kLoad, MemType::kInp, 1, data_base(cfg, MemType::kInp, kInp) + 3, 4, 5, 9));
  p.insns.back().y_pad_0 = 1;
  p.insns.back().y_pad_1 = 2;
  p.insns.back().x_pad_0 = 2;
  p.insns.back().x_pad_1 = 1;
  p.insns.push_back(dma(Opcode::kLoad, MemType::kWgt, 0, data_base(cfg, MemType::kWgt, kWgt), 2, 4,
                        6, deps(false, false, false, true)));
  // acc: 2 rows of 10 (stride 12) with right padding
  p.insns.push_back(
      dma(Opcode::kLoad, MemType::kAcc, 4, data_base(cfg, MemType::kAcc, kAcc) + 1, 2, 10, 12));
  p.insns.back().x_pad_1 = 3;
  isa::Instruction g = core(Opcode::kGemm, 3, 8, 2, 3, deps(true, false, false, false));
  g.dst_factor_out = 8;
  g.src_factor_out = 1;
  g.src_factor_in = 2;
  g.wgt_factor_in = 1;
  p.insns.push_back(g);
  g.dep = deps(false, false, false, true);
  g.iter_out = 1;
  p.insns.push_back(g);
  p.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0, data_base(cfg, MemType::kOut, kOut), 3, 9,
                        11, deps(true, false, true, false)));
  p.insns.push_back(finish(deps(false, true, false, false)));
  const isa::Stats s = expect_same_as_fsim(cfg, p);
  EXPECT_GT(s.get("cycles.total"), 0u);
  EXPECT_EQ(s.get("insn.total"), p.insns.size());
}

TEST_P(RtlBasic, EveryAluOpMatchesFsim) {
  for (AluOp op : {AluOp::kMin, AluOp::kMax, AluOp::kAdd, AluOp::kShr, AluOp::kMul}) {
    for (bool imm : {false, true}) {
      SCOPED_TRACE(std::string(isa::alu_op_name(op)) + (imm ? " imm" : " tensor"));
      RawProgram p;
      p.data = random_bytes(kDataBytes, 11 + static_cast<int>(op));
      // shift amounts in acc row 0..3 must be small: SHR reads acc[src] as the shift
      for (std::uint32_t u = 0; u < 4; ++u) p.uops.push_back({u + 8, u, 0});
      p.uops.push_back({9, 9, 0});  // src == dst
      p.insns.push_back(dma(Opcode::kLoad, MemType::kUop, 0, uop_dram_base(), 1, 5, 5));
      p.insns.push_back(
          dma(Opcode::kLoad, MemType::kAcc, 0, data_base(cfg, MemType::kAcc, kAcc), 1, 24, 24));
      isa::Instruction a = core(Opcode::kAlu, 0, 5, 2, 2);
      a.alu_op = op;
      a.use_imm = imm;
      a.imm = op == AluOp::kShr ? -3 : -1234;
      a.dst_factor_out = 4;
      a.dst_factor_in = 1;
      a.src_factor_in = 1;
      a.dep = deps(false, false, false, true);
      p.insns.push_back(a);
      p.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0, data_base(cfg, MemType::kOut, kOut),
                            1, 24, 24, deps(true, false, false, false)));
      p.insns.push_back(finish());
      // back-to-back micro-ops on one row (u=4 with dst 9 twice per iteration) exercise forwarding
      expect_same_as_fsim(cfg, p);
    }
  }
}

TEST_P(RtlBasic, ResetGemmAndEmptyInstructionsMatchFsim) {
  RawProgram p;
  p.data = random_bytes(kDataBytes, 5);
  p.uops = {{0, 0, 0}, {1, 1, 1}, {1, 2, 0}};
  p.insns.push_back(dma(Opcode::kLoad, MemType::kUop, 0, uop_dram_base(), 1, 3, 3));
  p.insns.push_back(
      dma(Opcode::kLoad, MemType::kAcc, 0, data_base(cfg, MemType::kAcc, kAcc), 1, 4, 4));
  p.insns.push_back(core(Opcode::kGemm, 0, 0, 5, 5));  // n = 0
  p.insns.push_back(core(Opcode::kGemm, 0, 3, 0, 2));  // n = 0
  p.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, data_base(cfg, MemType::kInp, 0), 0, 4,
                        4));                                            // no data, no padding
  p.insns.push_back(dma(Opcode::kLoad, MemType::kWgt, 0, 0, 0, 0, 0));  // nothing
  isa::Instruction pad_only = dma(Opcode::kLoad, MemType::kInp, 2, 0, 0, 3, 3);
  pad_only.y_pad_0 = 2;  // W = 3, H = 2: six zero elements
  pad_only.dep = deps(false, false, false, true);
  p.insns.push_back(pad_only);
  isa::Instruction r = core(Opcode::kGemm, 0, 2, 1, 1, deps(true, false, false, false));
  r.reset = true;
  p.insns.push_back(r);
  p.insns.push_back(core(Opcode::kGemm, 2, 3, 1, 1, deps(false, false, false, true)));
  p.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0, data_base(cfg, MemType::kOut, kOut), 1, 4,
                        4, deps(true, false, false, false)));
  p.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0, 0, 0, 4, 4));  // no data
  p.insns.push_back(finish());
  expect_same_as_fsim(cfg, p);
}

// docs/microarch.md section 8 on an otherwise idle machine (P = 8, L from
// the config, Bmax = 256): fetch requests the 2-instruction program in
// cycle 0 (4 beats), it completes in L+3; LOAD is dispatched in L+4 and
// FINISH in L+5; load issues in L+5 and its burst of `beats` is granted in
// L+6 and completes in 2L+5+beats; FINISH executes in L+7; done in the
// cycle after load's last execute cycle: total = 2L+7+beats.
TEST_P(RtlBasic, SingleLoadClosedForm) {
  for (std::uint32_t x : {1u, 4u, 8u}) {
    SCOPED_TRACE(x);
    RawProgram p;
    p.insns.push_back(
        dma(Opcode::kLoad, MemType::kInp, 0, data_base(cfg, MemType::kInp, 0), 1, x, x));
    p.insns.push_back(finish());
    auto dev = hw::make_rtl(cfg);
    const isa::Stats s = run(*dev, p);
    const std::uint64_t L = cfg.mem_latency_cycles;
    const std::uint64_t beats = (x * eb(MemType::kInp) + 7) / 8;
    EXPECT_EQ(s.get("cycles.total"), 2 * L + 7 + beats);
  }
}

// Padding adds Z cycles: the burst is requested after the Z padding cycles.
TEST_P(RtlBasic, PaddedLoadAddsPadCycles) {
  RawProgram p;
  isa::Instruction ld =
      dma(Opcode::kLoad, MemType::kInp, 0, data_base(cfg, MemType::kInp, 0), 2, 4, 4);
  ld.x_pad_0 = 1;
  ld.y_pad_1 = 1;  // W = 5, H = 3: Z = 15 - 8 = 7
  p.insns.push_back(ld);
  p.insns.push_back(finish());
  auto dev = hw::make_rtl(cfg);
  const isa::Stats s = run(*dev, p);
  const std::uint64_t L = cfg.mem_latency_cycles;
  // two rows: burst 1 granted at L+6+7, burst 2 requested the cycle after,
  // granted when the bus frees (beats later), completes L + beats - 1 later
  const std::uint64_t beats = 4 * eb(MemType::kInp) / 8;
  const std::uint64_t g1 = L + 6 + 7, g2 = g1 + beats, done2 = g2 + L + beats - 1;
  EXPECT_EQ(s.get("cycles.total"), done2 + 2);
}

// GEMM of n micro-ops: E = n + 2 (1 + n + 2 cycles of the compute module).
TEST_P(RtlBasic, GemmClosedForm) {
  for (std::uint32_t n : {0u, 1u, 7u}) {
    SCOPED_TRACE(n);
    RawProgram p;
    p.insns.push_back(core(Opcode::kGemm, 0, n == 0 ? 0 : 1, n == 0 ? 1 : n, 1));
    p.insns.push_back(finish());
    auto dev = hw::make_rtl(cfg);
    const isa::Stats s = run(*dev, p);
    const std::uint64_t L = cfg.mem_latency_cycles;
    // fetch completes in L+3, GEMM dispatched L+4, issued L+5, executes
    // L+6 .. L+5+n+2; FINISH dispatched L+5, issued L+n+8, executes L+n+9
    EXPECT_EQ(s.get("cycles.total"), L + n + 10);
    EXPECT_EQ(s.get("compute.busy"), (n + 3) + 2);
  }
}

// More compute instructions than the command queue holds, queued behind a
// token wait: fetch stalls on the full queue and the run still matches fsim.
TEST_P(RtlBasic, FullCommandQueueStallsFetch) {
  RawProgram p;
  p.data = random_bytes(kDataBytes, 3);
  p.uops = {{0, 0, 0}, {1, 1, 1}};
  p.insns.push_back(dma(Opcode::kLoad, MemType::kWgt, 0, data_base(cfg, MemType::kWgt, kWgt), 8, 8,
                        8, deps(false, false, false, true)));
  p.insns.push_back(dma(Opcode::kLoad, MemType::kUop, 0, uop_dram_base(), 1, 2, 2));
  p.insns.push_back(core(Opcode::kGemm, 0, 2, 1, 1, deps(true, false, false, false)));
  for (std::uint32_t k = 0; k < cfg.cmd_queue_depth + 10; ++k)
    p.insns.push_back(core(Opcode::kGemm, 0, 2, 2, 1));
  p.insns.back().dep.push_next = true;
  p.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0, data_base(cfg, MemType::kOut, kOut), 1, 2,
                        2, deps(true, false, true, false)));
  p.insns.push_back(finish(deps(false, true, false, false)));
  const isa::Stats s = expect_same_as_fsim(cfg, p);
  EXPECT_GT(s.get("fetch.stall.queue_full"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Presets, RtlBasic, testing::Values("tandem-8x8", "vta-16x16"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace tandem::hw_test
