// Tests of driver::Runtime and the device registry on fsim: tensors, binding,
// relocation (and its errors), launch of a small program.
#include "driver/runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>

#include "driver/device_registry.h"
#include "isa/error.h"
#include "isa/program_builder.h"

namespace tandem::driver {
namespace {

HwConfig cfg8() {
  return HwConfig::load_preset("tandem-8x8");
}

TEST(DeviceRegistry, FsimAlwaysAvailableUnknownTargetListsAvailable) {
  const auto t = available_targets();
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t[0], "fsim");
  EXPECT_TRUE(target_available("fsim"));
  EXPECT_FALSE(target_available("gpu"));
  auto dev = make_device("fsim", cfg8());
  EXPECT_EQ(dev->target(), "fsim");
  try {
    make_device("gpu", cfg8());
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'gpu'"), std::string::npos) << m;
    EXPECT_NE(m.find("fsim"), std::string::npos) << m;
  }
}

TEST(Runtime, TensorsWriteReadAndErrors) {
  Runtime rt(cfg8());
  rt.allocate("x", 100);
  EXPECT_THROW(rt.allocate("x", 10), Error);
  std::vector<std::uint8_t> v(100);
  std::iota(v.begin(), v.end(), 0);
  rt.write("x", v.data(), v.size());
  std::vector<std::uint8_t> back(50);
  rt.read("x", back.data(), 50, 50);
  EXPECT_EQ(back[0], 50);
  EXPECT_EQ(back[49], 99);
  EXPECT_THROW(rt.write("x", v.data(), 51, 50), Error);
  EXPECT_THROW(rt.read("y", back.data(), 1), Error);
  rt.free("x");
  EXPECT_FALSE(rt.has("x"));
}

// acc <- C, ALU add imm 1 over n rows, store to D.
isa::Program add_one_program(const HwConfig& cfg, std::uint32_t n, std::uint64_t bytes_c,
                             std::uint64_t elem_offset = 0) {
  isa::ProgramBuilder b(cfg);
  b.declare_buffer("C", bytes_c);
  b.declare_buffer("D", n * cfg.out_elem_bytes);
  b.load(isa::MemType::kAcc, 0, {"C", elem_offset}, 1, n, n);
  b.kernel(isa::KernelOp::alu_imm(isa::AluOp::kAdd, 1), {{n, 1, 1, 0}}, {{0, 0, 0}});
  b.push_dep(isa::Module::kCompute, isa::Module::kStore);
  b.pop_dep(isa::Module::kCompute, isa::Module::kStore);
  b.store(0, {"D", 0}, 1, n, n);
  return b.finish();
}

TEST(Runtime, RunsAProgramAndReportsStats) {
  const HwConfig cfg = cfg8();
  Runtime rt(cfg);
  const std::uint32_t n = 4;
  const auto prog = add_one_program(cfg, n, n * cfg.acc_elem_bytes);
  rt.allocate("C", n * cfg.acc_elem_bytes);
  rt.allocate("out", n * cfg.out_elem_bytes);
  std::vector<std::int32_t> c(n * 8);
  std::iota(c.begin(), c.end(), -10);
  rt.write("C", c.data(), c.size() * 4);
  const auto stats = rt.run(prog, {{"D", "out"}});
  const auto d = rt.read_as<std::int8_t>("out");
  ASSERT_EQ(d.size(), c.size());
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(d[i], c[i] + 1) << i;
  EXPECT_EQ(stats.get("insn.alu"), 1u);
  EXPECT_EQ(stats.get("uop.alu"), n);
  // The scratch images are replaced, not leaked, by repeated runs.
  const auto blocks = rt.allocator().live_blocks();
  rt.run(prog, {{"D", "out"}});
  EXPECT_EQ(rt.allocator().live_blocks(), blocks);
}

TEST(Runtime, PrepareRelocatesAndExposesImages) {
  const HwConfig cfg = cfg8();
  Runtime rt(cfg);
  const auto prog = add_one_program(cfg, 2, 4 * cfg.acc_elem_bytes, 2);
  const auto& c = rt.allocate("C", 4 * cfg.acc_elem_bytes);
  const auto& d = rt.allocate("D", 2 * cfg.out_elem_bytes);
  const PreparedLaunch p = rt.prepare(prog);
  EXPECT_EQ(p.insn_count, prog.insns.size());
  ASSERT_EQ(p.images.size(), 2u);
  EXPECT_EQ(p.images[0].name, "__insns");
  EXPECT_EQ(p.images[0].addr, p.insn_addr);
  EXPECT_EQ(p.images[0].bytes.size(), 16 * prog.insns.size());
  EXPECT_EQ(p.images[1].name, isa::kUopBufferName);
  EXPECT_EQ(p.images[1].bytes.size(), 4 * prog.uops.size());
  EXPECT_EQ(p.insns[0].dram_base, c.addr / cfg.acc_elem_bytes + 2);
  EXPECT_EQ(p.insns[1].dram_base, p.uop_addr / 4);
  EXPECT_EQ(p.insns[3].dram_base, d.addr / cfg.out_elem_bytes);
  EXPECT_EQ(p.buffers.at("C").addr, c.addr);
  isa::Codec codec(cfg);
  isa::Word128 w;
  std::memcpy(&w.lo, p.images[0].bytes.data(), 8);
  std::memcpy(&w.hi, p.images[0].bytes.data() + 8, 8);
  EXPECT_EQ(codec.decode(w), p.insns[0]);
}

TEST(Runtime, BindingAndRelocationErrors) {
  const HwConfig cfg = cfg8();
  Runtime rt(cfg);
  const auto prog = add_one_program(cfg, 4, 4 * cfg.acc_elem_bytes);
  EXPECT_THROW(rt.prepare(prog), Error);  // nothing allocated
  rt.allocate("C", 4 * cfg.acc_elem_bytes);
  rt.allocate("small", 1);
  EXPECT_THROW(rt.prepare(prog, {{"D", "small"}}), Error);  // too small
  EXPECT_THROW(rt.prepare(prog, {{"E", "small"}}), Error);  // no such buffer
  rt.allocate("D", 4 * cfg.out_elem_bytes);
  EXPECT_NO_THROW(rt.prepare(prog));

  // Footprint beyond the bound tensor (a hand-edited relocation).
  auto bad = prog;
  bad.relocs[0].elem_offset = 1;
  EXPECT_THROW(rt.prepare(bad), Error);
  // dram_base overflowing 32 bits.
  bad.relocs[0].elem_offset = 1ull << 33;
  try {
    rt.prepare(bad);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("32 bits"), std::string::npos) << e.what();
  }
  // Program for another config.
  auto other = prog;
  other.config_name = "vta-16x16";
  EXPECT_THROW(rt.prepare(other), Error);
}

}  // namespace
}  // namespace tandem::driver
