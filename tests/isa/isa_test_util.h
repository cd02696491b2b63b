// Helpers shared by the isa tests: preset loading, a generator of random
// valid instructions / micro-ops / programs, and error-message matchers.
//
// Random generation draws every field of an instruction's format uniformly
// within its width (from isa::insn_layout), then repairs only what
// isa::validate() forbids, so all legal corners of the encoding are reached.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>

#include "isa/codec.h"
#include "isa/error.h"
#include "isa/hw_config.h"
#include "isa/layout.h"
#include "isa/program.h"

namespace tandem::isa::testing {

inline const char* const kPresets[] = {"tandem-8x8", "vta-16x16"};

inline const HwConfig& preset(const std::string& name) {
  static const HwConfig a = HwConfig::load_preset("tandem-8x8");
  static const HwConfig b = HwConfig::load_preset("vta-16x16");
  if (name == "tandem-8x8") return a;
  if (name == "vta-16x16") return b;
  throw Error("unknown test preset " + name);
}

// Runs `fn`, expects a tandem::Error whose message contains every string of
// `parts`; returns the message (empty if none was thrown).
inline std::string expect_error(const std::function<void()>& fn,
                                std::initializer_list<std::string> parts) {
  try {
    fn();
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "message lacks '" << p << "': " << msg;
    return msg;
  }
  ADD_FAILURE() << "no tandem::Error thrown (expected one mentioning '"
                << (parts.size() ? *parts.begin() : std::string()) << "')";
  return {};
}

inline std::uint64_t field_max(const Field& f) {
  return f.width >= 64 ? ~0ull : (1ull << f.width) - 1;
}

// A random instruction of opcode `op` that passes validate() for `cfg`.
inline Instruction random_insn(const HwConfig& cfg, Opcode op, std::mt19937_64& rng) {
  Instruction i;
  for (const Field& f : insn_layout(cfg, op)) {
    if (f.name == "opcode") continue;
    std::int64_t v;
    if (f.is_signed) {
      const std::int64_t lo = -(std::int64_t{1} << (f.width - 1));
      const std::int64_t hi = (std::int64_t{1} << (f.width - 1)) - 1;
      v = std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    } else {
      v = static_cast<std::int64_t>(
          std::uniform_int_distribution<std::uint64_t>(0, field_max(f))(rng));
    }
    set_field(i, f.name, v);
  }
  i.opcode = op;
  auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
  };
  switch (op) {
    case Opcode::kLoad:
      i.mem_type = static_cast<MemType>(pick(0, 3));  // uop, wgt, inp, acc
      if (i.mem_type == MemType::kUop) i.y_pad_0 = i.y_pad_1 = i.x_pad_0 = i.x_pad_1 = 0;
      if (i.mem_type == MemType::kInp || i.mem_type == MemType::kWgt)
        i.dep.pop_prev = i.dep.push_prev = false;
      if (i.y_size > 1 && i.x_stride < i.x_size) std::swap(i.x_stride, i.x_size);
      break;
    case Opcode::kStore:
      i.mem_type = MemType::kOut;
      i.y_pad_0 = i.y_pad_1 = i.x_pad_0 = i.x_pad_1 = 0;
      i.dep.pop_next = i.dep.push_next = false;
      if (i.y_size > 1 && i.x_stride < i.x_size) std::swap(i.x_stride, i.x_size);
      break;
    case Opcode::kGemm:
    case Opcode::kAlu:
      i.uop_end = pick(0, cfg.uop_depth);
      i.uop_bgn = pick(0, std::min(i.uop_end, cfg.uop_depth - 1));
      if (op == Opcode::kAlu) i.alu_op = static_cast<AluOp>(pick(0, 4));
      break;
    case Opcode::kFinish:
      break;
  }
  return i;
}

inline Uop random_uop(const HwConfig& cfg, std::mt19937_64& rng) {
  const auto f = uop_layout(cfg);
  auto r = [&](const Field& x) {
    return static_cast<std::uint32_t>(
        std::uniform_int_distribution<std::uint64_t>(0, field_max(x))(rng));
  };
  return Uop{r(f[0]), r(f[1]), r(f[2])};
}

// A random valid program: `n` instructions of all kinds, micro-ops, a few
// buffers (some with names that need quoting) and one relocation per
// LOAD/STORE (in instruction order, raw dram field 0) for most of them.
inline Program random_program(const HwConfig& cfg, std::mt19937_64& rng, int n) {
  Program p;
  p.config_name = cfg.name;
  const char* names[] = {"A", "w.conv1/0", "x y", "q\"\\\n\t\x01\xff", "_z-9"};
  for (const char* nm : names)
    p.buffers.push_back(
        DramBuffer{nm, std::uniform_int_distribution<std::uint64_t>(0, 1ull << 40)(rng)});
  for (int k = 0; k < n; ++k) {
    const auto op = static_cast<Opcode>(std::uniform_int_distribution<int>(0, 4)(rng));
    Instruction i = random_insn(cfg, op, rng);
    if ((op == Opcode::kLoad || op == Opcode::kStore) && rng() % 4 != 0) {
      i.dram_base = 0;
      const bool uops = i.mem_type == MemType::kUop && rng() % 2;
      p.relocs.push_back(Relocation{static_cast<std::uint32_t>(k),
                                    uops ? kUopBufferName : names[rng() % 5],
                                    rng() % 3 ? rng() % 100000 : rng()});
    }
    p.insns.push_back(i);
  }
  const int nu = static_cast<int>(rng() % 40);
  for (int k = 0; k < nu; ++k) p.uops.push_back(random_uop(cfg, rng));
  return p;
}

}  // namespace tandem::isa::testing
