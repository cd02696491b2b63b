// Errors of the RTL backend: deadlocks (reported by the RTL itself, not by
// a timeout), leftover tokens, out-of-range DRAM and SRAM accesses, DRAM
// addresses beyond 32 bits, malformed programs, configs without a model,
// misuse of launch/wait. Every one is a tandem::Error naming the thing.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hw/rtl_device.h"
#include "hw_test_util.h"
#include "isa/error.h"

namespace tandem::hw_test {
namespace {

using isa::MemType;
using isa::Opcode;

HwConfig cfg8() {
  return HwConfig::load_preset("tandem-8x8");
}

// Runs `p` on the RTL and returns the Error message ("" if none).
std::string rtl_error(const HwConfig& cfg, const RawProgram& p) {
  auto dev = hw::make_rtl(cfg);
  try {
    run(*dev, p);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string fsim_error(const HwConfig& cfg, const RawProgram& p) {
  auto dev = sim::make_fsim(cfg);
  try {
    run(*dev, p);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(RtlErrors, DeadlockOnMissingTokenIsReportedByTheRtl) {
  RawProgram p;
  p.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, data_base(cfg8(), MemType::kInp, 0), 1, 4,
                        4, deps(false, true, false, false)));  // pops compute->load: never
  p.insns.push_back(finish());
  const auto t0 = std::chrono::steady_clock::now();
  const std::string e = rtl_error(cfg8(), p);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
  EXPECT_NE(e.find("load blocked at instruction 0 (LOAD inp)"), std::string::npos) << e;
  EXPECT_NE(e.find("compute->load"), std::string::npos) << e;
  EXPECT_LT(secs, 5.0);
  EXPECT_NE(fsim_error(cfg8(), p), "");
}

TEST(RtlErrors, ComputeWaitingOnLoadDeadlocks) {
  RawProgram p;
  p.insns.push_back(core(Opcode::kGemm, 0, 1, 1, 1, deps(true, false, false, false)));
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg8(), p);
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
  EXPECT_NE(e.find("compute blocked at instruction 0 (GEMM) waiting for a token in load->compute"),
            std::string::npos)
      << e;
}

TEST(RtlErrors, FullTokenQueueDeadlocks) {
  const HwConfig cfg = cfg8();
  RawProgram p;
  for (std::uint32_t i = 0; i <= cfg.token_queue_depth; ++i)
    p.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, data_base(cfg, MemType::kInp, 0), 1, 1,
                          1, deps(false, false, false, true)));
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg, p);
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
  EXPECT_NE(e.find("waiting for room in load->compute"), std::string::npos) << e;
  EXPECT_NE(e.find("load->compute=128"), std::string::npos) << e;
}

TEST(RtlErrors, LeftoverTokens) {
  RawProgram p;
  p.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, data_base(cfg8(), MemType::kInp, 0), 1, 1,
                        1, deps(false, false, false, true)));
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg8(), p);
  EXPECT_NE(e.find("tokens left"), std::string::npos) << e;
  EXPECT_NE(e.find("load->compute=1"), std::string::npos) << e;
  EXPECT_NE(fsim_error(cfg8(), p), "");
}

TEST(RtlErrors, DramReadOutOfRange) {
  const HwConfig cfg = cfg8();
  RawProgram p;
  const std::uint32_t last_elem = static_cast<std::uint32_t>(cfg.dram_bytes / 8) - 2;
  p.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, last_elem, 1, 4, 4));  // 2 past the end
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg, p);
  EXPECT_NE(e.find("outside the DRAM"), std::string::npos) << e;
  EXPECT_NE(e.find("instruction 0 (LOAD inp)"), std::string::npos) << e;
  EXPECT_NE(e.find("at byte address 0x10000000"), std::string::npos) << e;  // the second burst
  EXPECT_NE(fsim_error(cfg, p), "");
}

TEST(RtlErrors, DramWriteOutOfRange) {
  const HwConfig cfg = cfg8();
  RawProgram p;
  const std::uint32_t past = static_cast<std::uint32_t>(cfg.dram_bytes / 8);
  p.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0, past, 1, 1, 1));
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg, p);
  EXPECT_NE(e.find("write of 8 bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("store module at instruction 0 (STORE out)"), std::string::npos) << e;
}

TEST(RtlErrors, DramAddressBeyond32Bits) {
  RawProgram p;
  p.insns.push_back(dma(Opcode::kLoad, MemType::kWgt, 0, 0xfffffff0u, 1, 1, 1));
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg8(), p);
  EXPECT_NE(e.find("32-bit address space"), std::string::npos) << e;
}

TEST(RtlErrors, GemmIndexOutOfRange) {
  const HwConfig cfg = cfg8();
  RawProgram p;
  p.uops = {{cfg.acc_depth - 2, 0, 0}};
  p.insns.push_back(dma(Opcode::kLoad, MemType::kUop, 0, uop_dram_base(), 1, 1, 1));
  isa::Instruction g = core(Opcode::kGemm, 0, 1, 3, 1);
  g.dst_factor_out = 1;  // dst acc_depth-2, -1, acc_depth
  p.insns.push_back(g);
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg, p);
  EXPECT_NE(e.find("instruction 1 (GEMM): acc index 2048 is out of range (acc depth 2048)"),
            std::string::npos)
      << e;
  EXPECT_NE(fsim_error(cfg, p), "");
}

TEST(RtlErrors, LoadSramRangeOutOfRange) {
  const HwConfig cfg = cfg8();
  RawProgram p;
  p.insns.push_back(dma(Opcode::kLoad, MemType::kWgt, cfg.wgt_depth - 1, 0, 1, 2, 2));
  p.insns.push_back(finish());
  const std::string e = rtl_error(cfg, p);
  EXPECT_NE(e.find("instruction 0 (LOAD wgt): wgt index 512 is out of range (wgt depth 512)"),
            std::string::npos)
      << e;
}

TEST(RtlErrors, MalformedProgramsAreRejectedBeforeRunning) {
  RawProgram p;
  p.insns.push_back(finish());
  p.insns.push_back(finish());
  EXPECT_NE(rtl_error(cfg8(), p).find("only the last instruction"), std::string::npos);
  p.insns = {core(Opcode::kGemm, 0, 0, 1, 1)};
  EXPECT_NE(rtl_error(cfg8(), p).find("must be FINISH"), std::string::npos);
  // an undecodable word
  auto dev = hw::make_rtl(cfg8());
  const std::uint64_t bad[2] = {7, 0};
  dev->write_dram(kInsnAddr, bad, sizeof(bad));
  dev->launch(kInsnAddr, 1);
  EXPECT_THROW(dev->wait(), Error);
  dev->launch(kInsnAddr, 0);
  EXPECT_THROW(dev->wait(), Error);
  dev->launch(kInsnAddr + 8, 1);
  EXPECT_THROW(dev->wait(), Error);
}

TEST(RtlErrors, LaunchTwiceWithoutWait) {
  auto dev = hw::make_rtl(cfg8());
  dev->launch(kInsnAddr, 1);
  EXPECT_THROW(dev->launch(kInsnAddr, 1), Error);
}

TEST(RtlErrors, ConfigWithoutModelNamesTheField) {
  HwConfig c = cfg8();
  c.block_in = 16;
  c.finalize();
  try {
    hw::make_rtl(c);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("block_in = 16 (the model has 8)"), std::string::npos) << m;
    EXPECT_NE(m.find("tandem-8x8"), std::string::npos) << m;
    EXPECT_NE(m.find("vta-16x16"), std::string::npos) << m;
  }
  HwConfig l = cfg8();
  l.mem_latency_cycles = 0;
  EXPECT_THROW(hw::make_rtl(l), Error);
  HwConfig free_fields = cfg8();  // latency, DRAM size and clock are the memory's
  free_fields.mem_latency_cycles = 7;
  free_fields.clock_mhz = 50;
  free_fields.dram_bytes = 1u << 24;
  EXPECT_NO_THROW(hw::make_rtl(free_fields));
}

TEST(RtlErrors, DeviceStaysUsableAfterAnError) {
  const HwConfig cfg = cfg8();
  auto dev = hw::make_rtl(cfg);
  RawProgram bad;
  bad.insns.push_back(core(Opcode::kGemm, 0, 1, 1, 1, deps(true, false, false, false)));
  bad.insns.push_back(finish());
  EXPECT_THROW(run(*dev, bad), Error);
  RawProgram good;
  good.insns.push_back(finish());
  EXPECT_NO_THROW(run(*dev, good));
  EXPECT_GT(dev->stats().get("cycles.total"), 0u);
}

TEST(RtlErrors, WaveformIsWritten) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "tandem_rtl_wave_test.vcd").string();
  std::filesystem::remove(path);
  {
    isa::DeviceOptions o;
    o.vcd_path = path;
    auto dev = hw::make_rtl(cfg8(), o);
    RawProgram p;
    p.insns.push_back(finish());
    run(*dev, p);
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("ctrl_done"), std::string::npos);
  EXPECT_NE(ss.str().find("$enddefinitions"), std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tandem::hw_test
