// RandomProgramGen: seeded random valid programs for differential tests
// (tests/hw/rtl_random_test.cc) and the RTL-vs-csim cycle table
// (bench/bench_cycle_table.cc).
//
// A program is a sequence of rounds. In each round the load module loads
// inp/wgt tiles (random shapes, strides and padding); compute loads micro-ops
// and accumulators and runs random GEMM/ALU instructions (random loop
// factors and extents, all indices in bounds); store writes random out
// regions. Tokens order the rounds so that no two modules ever touch the same
// SRAM at once: load -> compute (load->compute), compute -> store
// (compute->store), compute -> next round's load (compute->load) and store ->
// next round's compute (store->compute); the last FINISH pops the final
// store->compute token. Load of round r+1 overlaps store of round r, and
// fetch runs ahead as far as the command queues allow. Every SRAM row a
// program reads is written by its prologue first; DRAM regions of different
// memory types never overlap, so loads never race stores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "tests/hw/raw_program.h"

namespace tandem::hw_test {

inline constexpr std::uint32_t kRows = 96;  // every SRAM index used stays below this
inline constexpr std::uint32_t kUops = 48;  // micro-op SRAM entries used

class RandomProgramGen {
 public:
  RandomProgramGen(const HwConfig& cfg, std::uint32_t seed) : cfg_(cfg), rng_(seed) {}

  RawProgram make(int rounds) {
    RawProgram p;
    p.data = random_bytes(kDataBytes, static_cast<std::uint32_t>(rng_()));
    // acc words feed SHR amounts and products; keep them moderate so every
    // ALU op is exercised with both small and clamped shifts
    for (std::uint32_t i = 0; i < 512; ++i) p.uops.push_back(random_uop(i % 2 == 0));
    // prologue: define every SRAM row that can be read
    p.insns.push_back(
        dma(isa::Opcode::kLoad, isa::MemType::kUop, 0, uop_dram_base(), 1, kUops, kUops));
    p.insns.push_back(load_full(isa::MemType::kAcc, 0));
    p.insns.push_back(load_full(isa::MemType::kInp, 0));
    p.insns.push_back(load_full(isa::MemType::kWgt, 0));
    bool first = true;
    for (int r = 0; r < rounds; ++r) {
      // ---- load ----
      std::vector<isa::Instruction> l;
      const int nl = pick(0, 3);
      for (int i = 0; i < nl; ++i)
        l.push_back(random_load(pick(0, 1) ? isa::MemType::kInp : isa::MemType::kWgt));
      l.push_back(random_load(isa::MemType::kWgt));
      if (!first) l.front().dep.pop_next = true;  // compute of the previous round is done
      l.back().dep.push_next = true;
      for (auto& i : l) p.insns.push_back(i);
      // ---- compute ----
      std::vector<isa::Instruction> c;
      const int nc = pick(1, 5);
      for (int i = 0; i < nc; ++i) c.push_back(random_compute());
      c.front().dep.pop_prev = true;
      if (!first) c.front().dep.pop_next = true;  // store of the previous round is done
      c.back().dep.push_next = true;              // to store
      c.back().dep.push_prev = true;              // next round's load may overwrite inp/wgt
      for (auto& i : c) p.insns.push_back(i);
      // ---- store ----
      const int ns = pick(1, 2);
      for (int i = 0; i < ns; ++i) {
        isa::Instruction st = random_store();
        if (i == 0) st.dep.pop_prev = true;
        if (i == ns - 1) st.dep.push_prev = true;
        p.insns.push_back(st);
      }
      first = false;
    }
    // consume the last compute->load token and the last store->compute token
    isa::Instruction ld = random_load(isa::MemType::kInp);
    ld.dep.pop_next = true;
    p.insns.push_back(ld);
    p.insns.push_back(finish(deps(false, true, false, false)));
    return p;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::uint32_t upick(std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng_);
  }
  std::uint32_t eb(isa::MemType m) const { return cfg_.elem_bytes(static_cast<int>(m)); }

  isa::Uop random_uop(bool small) {
    const std::uint32_t lim = small ? 24 : 40;
    return {upick(0, lim), upick(0, lim), upick(0, lim)};
  }

  // A 2D DRAM range of the data region (byte offset chosen per memory type
  // so loads and stores of one type never alias across types).
  std::uint32_t dram_elem(isa::MemType m, std::uint32_t y, std::uint32_t x, std::uint32_t stride) {
    const std::uint64_t region = kDataBytes / 8;
    const std::uint64_t base = region * static_cast<std::uint64_t>(m);
    const std::uint64_t span = (std::uint64_t{y ? y - 1 : 0} * stride + x + 1) * eb(m);
    const std::uint64_t room = region > span ? region - span : 1;
    const std::uint64_t off = std::uniform_int_distribution<std::uint64_t>(0, room / eb(m))(rng_);
    return data_base(cfg_, m, base + off * eb(m));
  }

  isa::Instruction load_full(isa::MemType m, std::uint32_t sram) {
    const std::uint32_t rows = 8, cols = kRows / rows;
    return dma(isa::Opcode::kLoad, m, sram, dram_elem(m, rows, cols, cols + 3), rows, cols,
               cols + 3);
  }

  isa::Instruction random_load(isa::MemType m) {
    isa::Instruction i;
    i.opcode = isa::Opcode::kLoad;
    i.mem_type = m;
    i.y_size = pick(0, 9) == 0 ? 0 : upick(1, 5);
    i.x_size = pick(0, 12) == 0 ? 0 : upick(1, 9);
    i.x_stride = i.x_size + upick(0, 6);
    if (m != isa::MemType::kUop && pick(0, 2) > 0) {
      i.y_pad_0 = upick(0, 3);
      i.y_pad_1 = upick(0, 3);
      i.x_pad_0 = upick(0, 3);
      i.x_pad_1 = upick(0, 3);
    }
    const std::uint32_t hw =
        (i.y_pad_0 + i.y_size + i.y_pad_1) * (i.x_pad_0 + i.x_size + i.x_pad_1);
    i.sram_base = hw >= kRows ? 0 : upick(0, kRows - hw);
    if (hw > kRows) {  // too large for the used range: shrink to one padded row
      i.y_size = 1;
      i.y_pad_0 = i.y_pad_1 = 0;
    }
    i.dram_base = dram_elem(m, i.y_size, i.x_size, i.x_stride);
    return i;
  }

  isa::Instruction random_compute() {
    const int kind = pick(0, 9);
    if (kind == 0) {  // reload part of the micro-ops
      const std::uint32_t n = upick(1, 13);
      const std::uint32_t at = upick(0, kUops - n);
      return dma(isa::Opcode::kLoad, isa::MemType::kUop, at, uop_dram_base() + upick(0, 400), 1, n,
                 n);
    }
    if (kind == 1) {
      isa::Instruction a = random_load(isa::MemType::kAcc);
      return a;
    }
    isa::Instruction i;
    i.opcode = kind <= 5 ? isa::Opcode::kGemm : isa::Opcode::kAlu;
    i.uop_bgn = upick(0, kUops - 1);
    i.uop_end = std::min<std::uint32_t>(kUops, i.uop_bgn + upick(0, 6));
    i.iter_out = upick(pick(0, 15) == 0 ? 0 : 1, 3);
    i.iter_in = upick(1, 4);
    // every index = field (<= 40) + (iter-1)*factor sums stays < kRows
    i.dst_factor_out = upick(0, 8);
    i.dst_factor_in = upick(0, 5);
    i.src_factor_out = upick(0, 8);
    i.src_factor_in = upick(0, 5);
    if (i.opcode == isa::Opcode::kGemm) {
      i.wgt_factor_out = upick(0, 8);
      i.wgt_factor_in = upick(0, 5);
      i.reset = pick(0, 7) == 0;
    } else {
      i.alu_op = static_cast<isa::AluOp>(pick(0, 4));
      i.use_imm = pick(0, 1) == 0;
      i.imm = i.alu_op == isa::AluOp::kShr ? pick(-12, 12) : pick(-32768, 32767);
      i.reset = pick(0, 15) == 0;
    }
    return i;
  }

  isa::Instruction random_store() {
    isa::Instruction i;
    i.opcode = isa::Opcode::kStore;
    i.mem_type = isa::MemType::kOut;
    i.y_size = pick(0, 9) == 0 ? 0 : upick(1, 4);
    i.x_size = upick(1, 12);
    i.x_stride = i.x_size + upick(0, 5);
    i.sram_base = upick(0, kRows - i.y_size * i.x_size);
    i.dram_base = dram_elem(isa::MemType::kOut, i.y_size, i.x_size, i.x_stride);
    return i;
  }

  HwConfig cfg_;
  std::mt19937 rng_;
};

}  // namespace tandem::hw_test
