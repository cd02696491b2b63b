// csim's error paths: malformed launches, token deadlocks (every kind named
// in the message, detected without a timeout), leftover tokens, data-effect
// errors -- and that the shared SystemC model survives all of them and
// hundreds of runs from many devices in one process.
#include <chrono>

#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "sim/fsim.h"
#include "tests/csim/csim_test_util.h"

namespace tandem::sim::csim_test {
namespace {

using isa::MemType;
using isa::Opcode;

const auto kPushNext = deps(0, 0, 0, 1);
const auto kPopPrev = deps(1, 0, 0, 0);
const auto kPopNext = deps(0, 1, 0, 0);

TEST(CsimErrors, MalformedLaunchesFailInWait) {
  auto dev = make_csim(preset("tandem-8x8"));
  expect_error([&] { run_raw(*dev, {gemm(1)}); }, {"last instruction", "must be FINISH"});
  expect_error([&] { run_raw(*dev, {finish(), finish()}); }, {"instruction 0 is a FINISH"});
  expect_error(
      [&] {
        run_raw(*dev, {gemm(1), finish()}, kInsnAddr + 8);
      },
      {"not a multiple of 16"});
  dev->launch(kInsnAddr, 0);
  expect_error([&] { dev->wait(); }, {"0 instructions"});
  dev->launch(dev->dram_size() - 16, 2);
  expect_error([&] { dev->wait(); }, {"instruction fetch of 2"});
  // A word that does not decode (unknown opcode 7).
  const std::uint64_t bad[2] = {7, 0};
  dev->write_dram(kInsnAddr, bad, sizeof bad);
  dev->launch(kInsnAddr, 1);
  expect_error([&] { dev->wait(); }, {"csim: instruction 0"});
  dev->launch(kInsnAddr, 1);
  expect_error([&] { dev->launch(kInsnAddr, 1); }, {"has not been waited for"});
  EXPECT_THROW(dev->wait(), Error);
  // Still usable.
  EXPECT_EQ(run_raw(*dev, {gemm(2), finish()}).get("cycles.total"), 32u + 12);
}

TEST(CsimErrors, DataEffectErrorsNameTheInstruction) {
  auto dev = make_csim(preset("tandem-8x8"));
  // acc index 3000 fits the field (12 bits) but is past acc_depth 2048.
  expect_error(
      [&] {
        run_raw(*dev, {dma(Opcode::kLoad, MemType::kAcc, 3000, 0, 1, 1, 1), finish()});
      },
      {"instruction 0", "acc", "2048"});
  EXPECT_EQ(run_raw(*dev, {gemm(2), finish()}).get("cycles.total"), 32u + 12);
}

std::string deadlock(const HwConfig& cfg, const std::vector<isa::Instruction>& insns,
                     std::initializer_list<std::string> parts) {
  auto dev = make_csim(cfg);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string msg = expect_error([&] { run_raw(*dev, insns); }, parts);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  // fsim agrees that it deadlocks (the network is deterministic).
  auto f = make_fsim(cfg);
  EXPECT_THROW(run_raw(*f, insns), Error);
  return msg;
}

TEST(CsimErrors, TokenDeadlocksNameModulesInstructionsAndQueues) {
  const HwConfig cfg = preset("tandem-8x8");
  // Compute waits for a token nobody pushes.
  deadlock(cfg, {gemm(1, 1, 1, kPopPrev), finish()},
           {"csim: deadlock", "compute module blocked at instruction 0 (GEMM)",
            "load->compute (empty)", "tokens: load->compute=0, compute->load=0"});
  // Load and compute wait for each other.
  deadlock(cfg,
           {dma(Opcode::kLoad, MemType::kInp, 0, 0, 1, 1, 1, deps(0, 1, 0, 1)),
            gemm(1, 1, 1, deps(1, 0, 1, 0)), finish()},
           {"load module blocked at instruction 0 (LOAD)", "compute->load (empty)",
            "compute module blocked at instruction 1 (GEMM)"});
  // Store waits on compute while compute waits on store.
  deadlock(cfg,
           {dma(Opcode::kStore, MemType::kOut, 0, 0, 1, 1, 1, deps(1, 0, 1, 0)),
            gemm(1, 1, 1, kPopNext), finish()},
           {"store module blocked at instruction 0 (STORE)", "compute->store (empty)",
            "store->compute (empty)"});
}

TEST(CsimErrors, FullQueuesInDeadlockMessages) {
  // A full token queue: load pushes twice into a 1-deep queue nobody pops.
  const HwConfig tq = timing_config(32, 8, 256, 64, 1);
  deadlock(tq,
           {dma(Opcode::kLoad, MemType::kInp, 0, 0, 1, 1, 1, kPushNext),
            dma(Opcode::kLoad, MemType::kInp, 0, 0, 1, 1, 1, kPushNext), finish()},
           {"load module blocked after instruction 1 (LOAD)",
            "waiting to push a token into load->compute (full, 1/1)", "load->compute=1"});
  // A full command queue: compute is stuck, fetch cannot dispatch.
  const HwConfig cq = timing_config(32, 8, 256, 2, 128);
  deadlock(cq, {gemm(1, 1, 1, kPopPrev), gemm(1), gemm(1), gemm(1), finish()},
           {"compute module blocked at instruction 0", "fetch blocked at instruction 2 (GEMM)",
            "compute command queue is full (2/2)"});
}

TEST(CsimErrors, LeftoverTokensAreAnError) {
  auto dev = make_csim(preset("tandem-8x8"));
  expect_error(
      [&] {
        run_raw(*dev, {dma(Opcode::kLoad, MemType::kInp, 0, 0, 1, 1, 1, kPushNext), finish()});
      },
      {"tokens left", "load->compute holds 1"});
  EXPECT_EQ(run_raw(*dev, {gemm(3), finish()}).get("cycles.total"), 32u + 13);
}

// FINISH counts as completed in its execute cycle even when its own push is
// blocked (Clarification 2): the run ends with leftover tokens, not a deadlock.
TEST(CsimErrors, FinishWithABlockedPushEndsWithLeftoverTokens) {
  auto dev = make_csim(timing_config(32, 8, 256, 64, 1));
  isa::Instruction fin = finish();
  fin.dep.push_prev = true;
  expect_error(
      [&] {
        run_raw(*dev, {gemm(2, 1, 1, deps(0, 0, 1, 0)), fin});
      },
      {"tokens left", "compute->load holds 1"});
}

// Hundreds of runs in one process: several live devices of both presets,
// interleaved, with failures in between; every repeat gives the same cycles.
TEST(CsimErrors, HundredsOfRunsFromManyDevices) {
  const HwConfig a = preset("tandem-8x8"), b = preset("vta-16x16");
  std::vector<std::unique_ptr<isa::Device>> devs;
  for (int i = 0; i < 4; ++i) devs.push_back(make_csim(i % 2 ? b : a));
  const std::vector<isa::Instruction> good = {
      dma(Opcode::kLoad, MemType::kInp, 0, 0, 2, 4, 4, kPushNext), gemm(20, 2, 1, kPopPrev),
      dma(Opcode::kLoad, MemType::kAcc, 0, 0, 1, 3, 3), finish()};
  const std::vector<isa::Instruction> stuck = {gemm(1, 1, 1, kPopPrev), finish()};
  std::uint64_t cycles[2] = {0, 0};
  int runs = 0;
  for (int round = 0; round < 100; ++round) {
    for (std::size_t d = 0; d < devs.size(); ++d) {
      if ((round + d) % 7 == 3) {
        EXPECT_THROW(run_raw(*devs[d], stuck), Error);
      } else {
        const std::uint64_t c = run_raw(*devs[d], good).get("cycles.total");
        std::uint64_t& want = cycles[d % 2];
        if (!want) want = c;
        EXPECT_EQ(c, want) << "round " << round << " device " << d;
      }
      ++runs;
    }
    if (round % 25 == 24) devs[round % 4] = make_csim(round % 2 ? b : a);  // replace one
  }
  EXPECT_EQ(runs, 400);
  EXPECT_NE(cycles[0], cycles[1]);  // the presets really differ
}

}  // namespace
}  // namespace tandem::sim::csim_test
