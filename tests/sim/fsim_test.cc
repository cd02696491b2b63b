// fsim device: end-to-end programs from raw instruction words, token
// schedules that work, every deadlock kind (empty pop, full command queue,
// full token queue), leftover tokens, FINISH rules, malformed words, DRAM
// bounds of the instruction fetch, stats and launch/wait protocol.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/fsim.h"
#include "sim_test_util.h"

namespace tandem::sim::testing {
namespace {

constexpr std::uint64_t kProgAddr = 0x80000;
constexpr std::uint64_t kInp = 0x20000, kWgt = 0x30000, kUops = 0x10000, kOut = 0x60000;

HwConfig queue_config(std::uint32_t cmd_depth, std::uint32_t token_depth) {
  HwConfig c = small_config();
  c.cmd_queue_depth = cmd_depth;
  c.token_queue_depth = token_depth;
  c.finalize();
  return c;
}

struct Fsim {
  explicit Fsim(const HwConfig& c) : cfg(c), dev(make_fsim(c)), codec(c) {}

  void write_program(const std::vector<Instruction>& prog) {
    std::vector<isa::Word128> words;
    for (const Instruction& i : prog) words.push_back(codec.encode(i));
    dev->write_dram(kProgAddr, words.data(), words.size() * sizeof(isa::Word128));
  }
  void run(const std::vector<Instruction>& prog) {
    write_program(prog);
    dev->launch(kProgAddr, static_cast<std::uint32_t>(prog.size()));
    dev->wait();
  }
  std::uint32_t elem(std::uint64_t byte_addr, MemType mt) const {
    return static_cast<std::uint32_t>(byte_addr / cfg.elem_bytes(static_cast<int>(mt)));
  }
  // Identity weights at wgt element 0 and the given uops at kUops.
  void put_common(const std::vector<Uop>& uops) {
    std::vector<std::int8_t> w(64, 0);
    for (int o = 0; o < 8; ++o) w[o * 8 + o] = 1;
    dev->write_dram(kWgt, w.data(), w.size());
    std::vector<std::uint32_t> words;
    for (const Uop& u : uops) words.push_back(codec.encode_uop(u));
    dev->write_dram(kUops, words.data(), words.size() * 4);
  }

  HwConfig cfg;
  std::unique_ptr<isa::Device> dev;
  isa::Codec codec;
};

Instruction with_dep(Instruction i, bool pop_prev, bool pop_next, bool push_prev, bool push_next) {
  i.dep = {pop_prev, pop_next, push_prev, push_next};
  return i;
}

TEST(Fsim, GemmProgramWithTokens) {
  Fsim f(small_config());
  EXPECT_EQ(f.dev->target(), "fsim");
  EXPECT_EQ(f.dev->dram_size(), 1u << 20);
  f.put_common({{0, 0, 0}});
  const std::vector<std::int8_t> x = {1, 2, 3, 4, -5, -6, 7, -128};
  f.dev->write_dram(kInp, x.data(), x.size());
  std::vector<Instruction> p = {
      with_dep(load(MemType::kInp, 0, f.elem(kInp, MemType::kInp), 1, 1, 1), 0, 0, 0, 1),
      with_dep(load(MemType::kWgt, 0, f.elem(kWgt, MemType::kWgt), 1, 1, 1), 0, 0, 0, 1),
      load(MemType::kUop, 0, f.elem(kUops, MemType::kUop), 1, 1, 1),
      with_dep(gemm(0, 1, 1, 1, true), 1, 0, 0, 0),
      with_dep(gemm(0, 1), 1, 0, 0, 1),
      with_dep(store(0, f.elem(kOut, MemType::kOut), 1, 1, 1), 1, 0, 1, 0),
      with_dep(finish(), 0, 1, 0, 0)};
  f.run(p);
  std::vector<std::int8_t> out(8);
  f.dev->read_dram(kOut, out.data(), out.size());
  EXPECT_EQ(out, x);
  const isa::Stats s = f.dev->stats();
  EXPECT_EQ(s.get("insn.total"), 7u);
  EXPECT_EQ(s.get("insn.load"), 3u);
  EXPECT_EQ(s.get("insn.gemm"), 2u);
  EXPECT_EQ(s.get("insn.store"), 1u);
  EXPECT_EQ(s.get("insn.finish"), 1u);
  EXPECT_EQ(s.get("uop.gemm"), 2u);
  EXPECT_EQ(s.get("uop.gemm_reset"), 1u);
  EXPECT_EQ(s.get("macs"), 64u);
  EXPECT_EQ(s.get("bytes.load.inp"), 8u);
  EXPECT_EQ(s.get("bytes.load.wgt"), 64u);
  EXPECT_EQ(s.get("bytes.load.uop"), 4u);
  EXPECT_EQ(s.get("bytes.store.out"), 8u);
  EXPECT_EQ(s.counters.count("cycles.total"), 0u);  // fsim has no cycles
  // Counters restart at the next launch.
  f.run({finish()});
  EXPECT_EQ(f.dev->stats().get("insn.total"), 1u);
  EXPECT_EQ(f.dev->stats().get("macs"), 0u);
}

// N iterations of load -> compute -> store with every token direction used.
std::vector<Instruction> pipeline(const Fsim& f, std::uint32_t n) {
  std::vector<Instruction> p;
  p.push_back(load(MemType::kWgt, 0, f.elem(kWgt, MemType::kWgt), 1, 1, 1));
  p.push_back(load(MemType::kUop, 0, f.elem(kUops, MemType::kUop), 1, n, n));
  for (std::uint32_t i = 0; i < n; ++i) {
    p.push_back(
        with_dep(load(MemType::kInp, i, f.elem(kInp, MemType::kInp) + i, 1, 1, 1), 0, i > 0, 0, 1));
    p.push_back(with_dep(gemm(i, i + 1), 1, i > 0, i + 1 < n, 1));
    p.push_back(with_dep(store(i, f.elem(kOut, MemType::kOut) + i, 1, 1, 1), 1, 0, 1, 0));
  }
  p.push_back(with_dep(finish(), 0, 1, 0, 0));
  return p;
}

TEST(Fsim, PipelinedScheduleWorksWithTinyQueues) {
  const std::uint32_t n = 12;
  for (auto [qc, qt] : {std::pair{1u, 1u}, {2u, 1u}, {1u, 3u}, {64u, 128u}}) {
    Fsim f(queue_config(qc, qt));
    std::vector<Uop> uops;
    for (std::uint32_t i = 0; i < n; ++i) uops.push_back(Uop{i, i, 0});
    f.put_common(uops);
    std::vector<std::int8_t> x(n * 8);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<std::int8_t>(k * 7 - 50);
    f.dev->write_dram(kInp, x.data(), x.size());
    f.run(pipeline(f, n));
    std::vector<std::int8_t> out(n * 8);
    f.dev->read_dram(kOut, out.data(), out.size());
    EXPECT_EQ(out, x) << "cmd_queue_depth " << qc << ", token_queue_depth " << qt;
    EXPECT_EQ(f.dev->stats().get("insn.total"), 3 * n + 3);
  }
}

TEST(Fsim, DeadlockPopWithNothingToPushIt) {
  Fsim f(small_config());
  expect_error(
      [&] {
        f.run({with_dep(gemm(0, 0), 1, 0, 0, 0), finish()});
      },
      {"deadlock", "compute module blocked at instruction 0 (GEMM)",
       "waiting to pop a token from load->compute (empty)",
       "tokens: load->compute=0, compute->load=0, compute->store=0, store->compute=0"});
  // The store waits for compute after FINISH has executed.
  expect_error(
      [&] {
        f.run({with_dep(store(0, 0, 1, 1, 1), 1, 0, 0, 0), finish()});
      },
      {"deadlock", "store module blocked at instruction 0 (STORE)", "compute->store (empty)"});
  // A compute instruction popping both queues names both empty queues.
  expect_error(
      [&] {
        f.run({with_dep(store(0, 0, 1, 1, 1), 0, 0, 1, 0), with_dep(gemm(0, 0), 1, 1, 0, 0),
               finish()});
      },
      {"compute module blocked at instruction 1 (GEMM)", "load->compute (empty)",
       "store->compute=1"});
}

TEST(Fsim, DeadlockThroughFullCommandQueue) {
  // The GEMM waits for the LOAD's token, but with one compute queue slot the
  // ALU behind it blocks fetch, so the LOAD is never dispatched.
  auto prog = [](const Fsim& f) {
    return std::vector<Instruction>{
        with_dep(gemm(0, 0), 1, 0, 0, 0), alu(AluOp::kAdd, 0, 0),
        with_dep(load(MemType::kInp, 0, f.elem(kInp, MemType::kInp), 1, 1, 1), 0, 0, 0, 1),
        finish()};
  };
  Fsim small(queue_config(1, 128));
  expect_error([&] { small.run(prog(small)); },
               {"deadlock after 0 of 4 instructions", "compute module blocked at instruction 0",
                "fetch blocked at instruction 1 (ALU): the compute command queue is full (1/1)",
                "load->compute=0"});
  Fsim big(queue_config(2, 128));
  big.run(prog(big));
  EXPECT_EQ(big.dev->stats().get("insn.total"), 4u);
}

std::vector<Instruction> mutual_pushes(const Fsim& f) {
  const std::uint32_t inp = f.elem(kInp, MemType::kInp);
  return {with_dep(load(MemType::kInp, 0, inp, 1, 1, 1), 0, 0, 0, 1),
          with_dep(gemm(0, 0), 0, 0, 1, 0),
          with_dep(load(MemType::kInp, 0, inp, 1, 1, 1), 0, 0, 0, 1),
          with_dep(gemm(0, 0), 0, 0, 1, 0),
          with_dep(load(MemType::kInp, 0, inp, 1, 1, 1), 0, 1, 0, 0),
          with_dep(load(MemType::kInp, 0, inp, 1, 1, 1), 0, 1, 0, 0),
          with_dep(gemm(0, 0), 1, 0, 0, 0),
          with_dep(finish(), 1, 0, 0, 0)};
}

TEST(Fsim, DeadlockThroughFullTokenQueue) {
  // Load and compute each push twice before popping: fine with room for two
  // tokens, a deadlock with room for one.
  Fsim ok(queue_config(64, 2));
  ok.run(mutual_pushes(ok));
  EXPECT_EQ(ok.dev->stats().get("insn.total"), 8u);
  Fsim f(queue_config(64, 1));
  expect_error([&] { f.run(mutual_pushes(f)); },
               {"deadlock after 4 of 8 instructions",
                "load module blocked after instruction 2 (LOAD), waiting to push a token into "
                "load->compute (full, 1/1)",
                "compute module blocked after instruction 3 (GEMM), waiting to push a token into "
                "compute->load (full, 1/1)",
                "load->compute=1, compute->load=1"});
}

TEST(Fsim, LeftoverTokensAreAnError) {
  Fsim f(small_config());
  expect_error(
      [&] {
        f.run({with_dep(load(MemType::kInp, 0, 0, 1, 1, 1), 0, 0, 0, 1),
               with_dep(store(0, 0, 1, 1, 1), 0, 0, 1, 0),
               with_dep(store(0, 0, 1, 1, 1), 0, 0, 1, 0), finish()});
      },
      {"tokens left", "load->compute holds 1", "store->compute holds 2"});
}

TEST(Fsim, FinishRules) {
  Fsim f(small_config());
  expect_error([&] { f.run({gemm(0, 0)}); }, {"last instruction (0, GEMM) must be FINISH"});
  expect_error(
      [&] {
        f.run({finish(), gemm(0, 0), finish()});
      },
      {"instruction 0 is a FINISH", "only the last instruction (2)"});
  expect_error(
      [&] {
        f.dev->launch(kProgAddr, 0);
        f.dev->wait();
      },
      {"0 instructions"});
}

TEST(Fsim, MalformedWordsAndInvalidInstructions) {
  Fsim f(small_config());
  // Instruction 0 would store 0x11 bytes if the program ran.
  std::vector<std::int8_t> probe(8, 0x33);
  f.dev->write_dram(kOut, probe.data(), probe.size());
  f.write_program({store(0, f.elem(kOut, MemType::kOut), 1, 1, 1), finish(), finish()});
  isa::Word128 bad{7, 0};  // opcode 7
  f.dev->write_dram(kProgAddr + 16, &bad, 16);
  f.dev->launch(kProgAddr, 3);
  expect_error([&] { f.dev->wait(); }, {"instruction 1", "opcode 7", "0x80010"});
  std::vector<std::int8_t> back(8);
  f.dev->read_dram(kOut, back.data(), back.size());
  EXPECT_EQ(back, probe) << "a malformed program must not run at all";
  // Unused high bits set.
  isa::Word128 fin = f.codec.encode(finish());
  fin.hi |= 1ull << 63;
  f.dev->write_dram(kProgAddr + 16, &fin, 16);
  f.dev->launch(kProgAddr, 2);
  expect_error([&] { f.dev->wait(); }, {"instruction 1", "FINISH", "must be zero"});
  // A word that decodes but breaks a structural rule (store with padding).
  Instruction s = store(0, 0, 1, 1, 1);
  s.y_pad_0 = 2;
  f.write_program({s, finish()});
  f.dev->launch(kProgAddr, 2);
  expect_error([&] { f.dev->wait(); }, {"instruction 0 (STORE)", "cannot pad"});
}

TEST(Fsim, BoundsErrorsNameTheInstruction) {
  Fsim f(small_config());
  expect_error(
      [&] {
        f.dev->launch(f.dev->dram_size() - 16, 2);
        f.dev->wait();
      },
      {"instruction fetch of 2 instructions", "32 bytes", "capacity of 1048576"});
  expect_error(
      [&] {
        f.run({alu(AluOp::kAdd, 0, 0), load(MemType::kAcc, 126, 0, 1, 4, 4), finish()});
      },
      {"instruction 1 (LOAD acc)", "acc index 128", "acc depth 128"});
  expect_error(
      [&] {
        f.run({store(0, 0x7fffffff, 1, 1, 1), finish()});
      },
      {"instruction 0 (STORE out) DRAM write", "capacity of 1048576"});
  std::uint8_t b[4] = {};
  expect_error([&] { f.dev->write_dram(f.dev->dram_size() - 2, b, 4); }, {"DRAM write"});
  // The device is usable after errors.
  f.run({finish()});
  EXPECT_EQ(f.dev->stats().get("insn.finish"), 1u);
}

TEST(Fsim, LaunchWaitProtocol) {
  Fsim f(small_config());
  f.dev->wait();  // nothing launched: returns at once
  f.write_program({finish()});
  f.dev->launch(kProgAddr, 1);
  expect_error([&] { f.dev->launch(kProgAddr, 1); }, {"launch()", "wait()"});
  f.dev->wait();
  EXPECT_EQ(f.dev->stats().get("insn.total"), 1u);
  EXPECT_EQ(f.dev->config().name, "sim-test");
}

}  // namespace
}  // namespace tandem::sim::testing
