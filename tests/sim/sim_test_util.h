// Helpers for the sim tests: small configs and raw instruction builders.
//
// Tests build isa::Instruction values field by field (no ProgramBuilder), so
// they exercise exactly the instruction words they describe.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/codec.h"
#include "isa/error.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/core.h"
#include "sim/dram.h"

namespace tandem::sim::testing {

using isa::AluOp;
using isa::Instruction;
using isa::MemType;
using isa::Opcode;
using isa::Uop;

// A small config: depths uop 64, inp 128, wgt 64, acc 128, out 128.
inline HwConfig small_config(int batch = 1, int block_in = 8, int block_out = 8) {
  HwConfig c;
  c.name = "sim-test";
  c.batch = batch;
  c.block_in = block_in;
  c.block_out = block_out;
  c.uop_buff_bytes = 256;
  c.inp_buff_bytes = static_cast<std::uint32_t>(128 * batch * block_in);
  c.wgt_buff_bytes = static_cast<std::uint32_t>(64 * block_out * block_in);
  c.acc_buff_bytes = static_cast<std::uint32_t>(128 * batch * block_out * 4);
  c.out_buff_bytes = static_cast<std::uint32_t>(128 * batch * block_out);
  c.dram_bytes = 1u << 20;
  c.finalize();
  return c;
}

inline Instruction mem(Opcode op, MemType mt, std::uint32_t sram, std::uint32_t dram,
                       std::uint32_t y, std::uint32_t x, std::uint32_t stride) {
  Instruction i;
  i.opcode = op;
  i.mem_type = mt;
  i.sram_base = sram;
  i.dram_base = dram;
  i.y_size = y;
  i.x_size = x;
  i.x_stride = stride;
  return i;
}
inline Instruction load(MemType mt, std::uint32_t sram, std::uint32_t dram, std::uint32_t y,
                        std::uint32_t x, std::uint32_t stride) {
  return mem(Opcode::kLoad, mt, sram, dram, y, x, stride);
}
inline Instruction store(std::uint32_t sram, std::uint32_t dram, std::uint32_t y, std::uint32_t x,
                         std::uint32_t stride) {
  return mem(Opcode::kStore, MemType::kOut, sram, dram, y, x, stride);
}

// GEMM over uops [bgn,end) with the given loop extents; factors default to 0.
inline Instruction gemm(std::uint32_t bgn, std::uint32_t end, std::uint32_t iter_out = 1,
                        std::uint32_t iter_in = 1, bool reset = false) {
  Instruction i;
  i.opcode = Opcode::kGemm;
  i.uop_bgn = bgn;
  i.uop_end = end;
  i.iter_out = iter_out;
  i.iter_in = iter_in;
  i.reset = reset;
  return i;
}

inline Instruction alu(AluOp op, std::uint32_t bgn, std::uint32_t end, bool use_imm = false,
                       std::int32_t imm = 0, std::uint32_t iter_out = 1,
                       std::uint32_t iter_in = 1) {
  Instruction i;
  i.opcode = Opcode::kAlu;
  i.alu_op = op;
  i.uop_bgn = bgn;
  i.uop_end = end;
  i.use_imm = use_imm;
  i.imm = imm;
  i.iter_out = iter_out;
  i.iter_in = iter_in;
  return i;
}

inline Instruction finish() {
  Instruction i;
  i.opcode = Opcode::kFinish;
  return i;
}

// Runs `f`, expects a tandem::Error, and checks its message contains every
// string of `parts`.
template <class F>
void expect_error(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const std::string& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "missing '" << p << "' in: " << msg;
    return;
  }
  ADD_FAILURE() << "expected a tandem::Error";
}

// A FunctionalCore with its DRAM and helpers to put data into its SRAMs.
struct CoreHarness {
  explicit CoreHarness(const HwConfig& c) : cfg(c), dram(c.dram_bytes), core(cfg, dram), codec(c) {}

  // DRAM byte regions (multiples of every element size used in the tests).
  static constexpr std::uint64_t kUopAddr = 0x10000, kInpAddr = 0x20000, kWgtAddr = 0x30000,
                                 kAccAddr = 0x40000, kOutAddr = 0x60000;

  std::uint32_t elem_addr(std::uint64_t byte_addr, MemType mt) const {
    return static_cast<std::uint32_t>(byte_addr / cfg.elem_bytes(static_cast<int>(mt)));
  }

  void put_uops(const std::vector<Uop>& uops, std::uint32_t sram_base = 0) {
    std::vector<std::uint32_t> words;
    for (const Uop& u : uops) words.push_back(codec.encode_uop(u));
    dram.write(kUopAddr, words.data(), words.size() * 4);
    core.execute(load(MemType::kUop, sram_base, elem_addr(kUopAddr, MemType::kUop), 1,
                      static_cast<std::uint32_t>(uops.size()), 0),
                 0);
  }
  // Loads `count` consecutive elements of int8 data (inp or wgt) at sram_base.
  void put_i8(MemType mt, const std::vector<std::int8_t>& data, std::uint32_t sram_base) {
    const std::uint32_t eb = cfg.elem_bytes(static_cast<int>(mt));
    ASSERT_EQ(data.size() % eb, 0u);
    const std::uint64_t addr = mt == MemType::kInp ? kInpAddr : kWgtAddr;
    dram.write(addr, data.data(), data.size());
    core.execute(load(mt, sram_base, elem_addr(addr, mt), 1,
                      static_cast<std::uint32_t>(data.size() / eb), 0),
                 0);
  }
  void put_acc(const std::vector<std::int32_t>& data, std::uint32_t sram_base) {
    const std::uint32_t row = static_cast<std::uint32_t>(cfg.batch * cfg.block_out);
    ASSERT_EQ(data.size() % row, 0u);
    dram.write(kAccAddr, data.data(), data.size() * 4);
    core.execute(load(MemType::kAcc, sram_base, elem_addr(kAccAddr, MemType::kAcc), 1,
                      static_cast<std::uint32_t>(data.size() / row), 0),
                 0);
  }
  std::vector<std::int32_t> acc_row(std::uint32_t a) const {
    const std::size_t n = static_cast<std::size_t>(cfg.batch) * cfg.block_out;
    return {core.acc_sram().begin() + a * n, core.acc_sram().begin() + (a + 1) * n};
  }
  std::vector<std::int8_t> out_row(std::uint32_t a) const {
    const std::size_t n = static_cast<std::size_t>(cfg.batch) * cfg.block_out;
    return {core.out_sram().begin() + a * n, core.out_sram().begin() + (a + 1) * n};
  }

  HwConfig cfg;
  Dram dram;
  FunctionalCore core;
  isa::Codec codec;
};

}  // namespace tandem::sim::testing
