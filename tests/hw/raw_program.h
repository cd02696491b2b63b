// Raw programs for the RTL tests and the cycle table: instructions,
// micro-ops and DRAM data at absolute addresses, written straight into a
// device's DRAM and run (no driver, no relocation). No gtest dependency.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "isa/codec.h"
#include "isa/device.h"
#include "isa/hw_config.h"
#include "isa/insn.h"

namespace tandem::hw_test {

inline constexpr std::uint64_t kInsnAddr = 0x10000;   // instruction stream
inline constexpr std::uint64_t kUopAddr = 0x40000;    // micro-op image
inline constexpr std::uint64_t kDataAddr = 0x100000;  // data region
inline constexpr std::uint64_t kDataBytes = 0x100000;

struct RawProgram {
  std::vector<isa::Instruction> insns;
  std::vector<isa::Uop> uops;      // written at kUopAddr (uop element kUopAddr/4 + i)
  std::vector<std::uint8_t> data;  // written at kDataAddr
};

inline std::uint32_t uop_dram_base() {
  return static_cast<std::uint32_t>(kUopAddr / 4);
}
// dram_base of element `byte_offset / eb` of the data region.
inline std::uint32_t data_base(const HwConfig& c, isa::MemType m, std::uint64_t byte_offset) {
  return static_cast<std::uint32_t>((kDataAddr + byte_offset) / c.elem_bytes(static_cast<int>(m)));
}

inline isa::DepFlags deps(bool pop_prev, bool pop_next, bool push_prev, bool push_next) {
  isa::DepFlags d;
  d.pop_prev = pop_prev;
  d.pop_next = pop_next;
  d.push_prev = push_prev;
  d.push_next = push_next;
  return d;
}

inline isa::Instruction dma(isa::Opcode op, isa::MemType m, std::uint32_t sram, std::uint32_t dram,
                            std::uint32_t y, std::uint32_t x, std::uint32_t stride,
                            isa::DepFlags d = {}) {
  isa::Instruction i;
  i.opcode = op;
  i.mem_type = m;
  i.sram_base = sram;
  i.dram_base = dram;
  i.y_size = y;
  i.x_size = x;
  i.x_stride = stride;
  i.dep = d;
  return i;
}

inline isa::Instruction core(isa::Opcode op, std::uint32_t bgn, std::uint32_t end,
                             std::uint32_t iter_out = 1, std::uint32_t iter_in = 1,
                             isa::DepFlags d = {}) {
  isa::Instruction i;
  i.opcode = op;
  i.uop_bgn = bgn;
  i.uop_end = end;
  i.iter_out = iter_out;
  i.iter_in = iter_in;
  i.dep = d;
  return i;
}

inline isa::Instruction finish(isa::DepFlags d = {}) {
  isa::Instruction i;
  i.opcode = isa::Opcode::kFinish;
  i.dep = d;
  return i;
}

// Writes the program into `dev` (data, micro-ops, instructions).
inline void load(isa::Device& dev, const RawProgram& p) {
  const isa::Codec codec(dev.config());
  if (!p.data.empty()) dev.write_dram(kDataAddr, p.data.data(), p.data.size());
  std::vector<std::uint8_t> u;
  for (const isa::Uop& x : p.uops) {
    const std::uint32_t w = codec.encode_uop(x);
    for (int b = 0; b < 4; ++b) u.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
  }
  if (!u.empty()) dev.write_dram(kUopAddr, u.data(), u.size());
  std::vector<std::uint8_t> bytes;
  for (const auto& i : p.insns) {
    const isa::Word128 w = codec.encode(i);
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::uint8_t>(w.lo >> (8 * b)));
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::uint8_t>(w.hi >> (8 * b)));
  }
  dev.write_dram(kInsnAddr, bytes.data(), bytes.size());
}

inline isa::Stats run(isa::Device& dev, const RawProgram& p) {
  load(dev, p);
  dev.launch(kInsnAddr, static_cast<std::uint32_t>(p.insns.size()));
  dev.wait();
  return dev.stats();
}

inline std::vector<std::uint8_t> data_region(const isa::Device& dev) {
  std::vector<std::uint8_t> v(kDataBytes);
  dev.read_dram(kDataAddr, v.data(), v.size());
  return v;
}

inline std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

}  // namespace tandem::hw_test
