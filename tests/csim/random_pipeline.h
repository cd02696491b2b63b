// Random race-free pipelined programs for the csim tests (shared by the
// fsim and RTL comparisons).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "driver/command_builder.h"
#include "driver/runtime.h"
#include "isa/hw_config.h"
#include "isa/program.h"

namespace tandem::sim::csim_test {

using isa::MemType;
using isa::Module;

// A random program in which iteration i works on SRAM half i%2: load fills
// inp/wgt halves, compute (GEMM/ALU/acc loads) works on the acc/out half,
// store writes the out half to a DRAM slot of its own. Tokens: load->compute
// (data ready), compute->load (halves free again), compute->store (results
// ready), store->compute (out half free again).
struct RandomProgram {
  isa::Program program;
  std::uint64_t out_bytes = 0;
};

inline RandomProgram random_program(const HwConfig& cfg, std::mt19937& rng, int iterations) {
  auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::uint32_t inp_half = cfg.inp_depth / 2, wgt_half = cfg.wgt_depth / 2,
                      acc_half = cfg.acc_depth / 2;
  constexpr std::uint32_t kSlot = 128;  // out elements per iteration in DRAM
  driver::CommandBuilder b(cfg);
  b.declare_buffer("IN", 4096ull * cfg.inp_elem_bytes);
  b.declare_buffer("WG", 1024ull * cfg.wgt_elem_bytes);
  b.declare_buffer("ACC", 1024ull * cfg.acc_elem_bytes);
  b.declare_buffer("OUT", std::uint64_t{kSlot} * iterations * cfg.out_elem_bytes);
  for (int i = 0; i < iterations; ++i) {
    const std::uint32_t h = i % 2;
    if (i >= 2) b.pop_dep(Module::kCompute, Module::kLoad);
    for (MemType mem : {MemType::kInp, MemType::kWgt}) {
      if (r(0, 3) == 0) continue;
      const std::uint32_t y = r(1, 4), x = r(1, 12), stride = x + r(0, 5);
      isa::Pad pad;
      if (mem == MemType::kInp && r(0, 1))
        pad = {std::uint32_t(r(0, 2)), std::uint32_t(r(0, 2)), std::uint32_t(r(0, 2)),
               std::uint32_t(r(0, 2))};
      const std::uint32_t half = mem == MemType::kInp ? inp_half : wgt_half;
      b.load(mem, h * half + r(0, 40),
             {mem == MemType::kInp ? "IN" : "WG", std::uint64_t(r(0, 900))}, y, x, stride, pad);
    }
    b.push_dep(Module::kLoad, Module::kCompute);
    b.pop_dep(Module::kLoad, Module::kCompute);
    if (i >= 2) b.pop_dep(Module::kStore, Module::kCompute);
    const int ops = r(1, 4);
    for (int op = 0; op < ops; ++op) {
      const int kind = r(0, 5);
      if (kind == 0) {
        b.load(MemType::kAcc, h * acc_half + r(0, 60), {"ACC", std::uint64_t(r(0, 900))}, r(1, 3),
               r(1, 8), 8);
        continue;
      }
      const bool alu = kind >= 4;
      isa::KernelOp k = isa::KernelOp::gemm(r(0, 7) == 0);
      if (alu) {
        const auto aop = static_cast<isa::AluOp>(r(0, 4));
        k = r(0, 1) ? isa::KernelOp::alu_imm(aop, aop == isa::AluOp::kShr ? r(-8, 8) : r(-300, 300))
                    : isa::KernelOp::alu_tensor(aop);
      }
      std::vector<isa::KernelLoop> loops;
      for (int l = r(0, 2); l > 0; --l)
        loops.push_back({std::uint32_t(r(1, 3)), std::uint32_t(r(0, 4)), std::uint32_t(r(0, 4)),
                         alu ? 0u : std::uint32_t(r(0, 4))});
      b.begin_kernel(k, loops);
      for (int u = r(1, 6); u > 0; --u) {
        const std::uint32_t dst = h * acc_half + r(0, 63);
        if (alu)
          b.push_uop(dst, h * acc_half + r(0, 63), 0);
        else
          b.push_uop(dst, h * inp_half + r(0, 63), h * wgt_half + r(0, 63));
      }
      b.end_kernel();
    }
    b.push_dep(Module::kCompute, Module::kLoad);
    b.push_dep(Module::kCompute, Module::kStore);
    b.pop_dep(Module::kCompute, Module::kStore);
    const std::uint32_t y = r(1, 4), x = r(1, 16);
    b.store(h * acc_half + r(0, 40), {"OUT", std::uint64_t{kSlot} * i}, y, x, x + r(0, 8));
    b.push_dep(Module::kStore, Module::kCompute);
  }
  for (int i = 0; i < std::min(iterations, 2); ++i) {
    b.pop_dep(Module::kCompute, Module::kLoad);
    b.pop_dep(Module::kStore, Module::kCompute);
  }
  RandomProgram p;
  p.out_bytes = std::uint64_t{kSlot} * iterations * cfg.out_elem_bytes;
  p.program = b.finish();
  return p;
}

inline std::vector<std::uint8_t> random_bytes(std::size_t n, std::mt19937& rng) {
  std::vector<std::uint8_t> v(n);
  for (auto& x : v) x = static_cast<std::uint8_t>(rng());
  return v;
}

// Allocates every buffer of `p` on `rt` with seeded random contents.
inline void fill_buffers(driver::Runtime& rt, const isa::Program& p, unsigned seed) {
  std::mt19937 data(seed);
  for (const auto& buf : p.buffers) {
    const auto bytes = random_bytes(buf.bytes, data);
    rt.allocate(buf.name, buf.bytes);
    rt.write(buf.name, bytes.data(), bytes.size());
  }
}

}  // namespace tandem::sim::csim_test
