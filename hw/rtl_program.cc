// Program inspection for the RTL harness (see hw/rtl_program.h).
#include "hw/rtl_program.h"

#include <cstring>

#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::hw {

std::string insn_label(const isa::Instruction& i) {
  std::string s(isa::opcode_name(i.opcode));
  if (i.opcode == isa::Opcode::kLoad || i.opcode == isa::Opcode::kStore)
    s += std::string(" ") + std::string(isa::mem_type_name(i.mem_type));
  return s;
}

namespace {

// Upper bound on the cycles an instruction can occupy its module, including
// waiting behind every other requester of the memory port.
std::uint64_t insn_bound(const HwConfig& c, const isa::Instruction& i) {
  const std::uint64_t L = c.mem_latency_cycles, P = c.mem_bytes_per_cycle, B = c.mem_burst_bytes;
  const std::uint64_t burst = 4 * (B / P + 1) + L + B / P + 4;
  switch (i.opcode) {
    case isa::Opcode::kGemm:
    case isa::Opcode::kAlu:
      return isa::uop_count(i) + 4;
    case isa::Opcode::kFinish:
      return 2;
    default: {
      const std::uint64_t eb = c.elem_bytes(static_cast<int>(i.mem_type));
      const std::uint64_t W = std::uint64_t{i.x_pad_0} + i.x_size + i.x_pad_1;
      const std::uint64_t H = std::uint64_t{i.y_pad_0} + i.y_size + i.y_pad_1;
      const std::uint64_t row_bursts = (std::uint64_t{i.x_size} * eb + B - 1) / B + 1;
      return H * W + 2 + std::uint64_t{i.y_size} * row_bursts * burst;
    }
  }
}

}  // namespace

ProgramInfo inspect_program(const HwConfig& cfg, const sim::Dram& dram, std::uint64_t insn_addr,
                            std::uint32_t insn_count) {
  TANDEM_CHECK(insn_count > 0, "rtl: launch of 0 instructions; a program must end with FINISH");
  TANDEM_CHECK(insn_addr % isa::kInsnBytes == 0, "rtl: instruction address 0x"
                                                     << std::hex << insn_addr << std::dec
                                                     << " is not a multiple of " << isa::kInsnBytes
                                                     << " bytes");
  TANDEM_CHECK(insn_addr + std::uint64_t{insn_count} * isa::kInsnBytes <= (std::uint64_t{1} << 32),
               "rtl: instructions [0x" << std::hex << insn_addr << ", 0x"
                                       << insn_addr + std::uint64_t{insn_count} * isa::kInsnBytes
                                       << std::dec << ") exceed the 32-bit address space");
  const std::string what =
      (Msg() << "rtl: instruction fetch of " << insn_count << " instructions").str();
  dram.check_range(insn_addr, std::uint64_t{insn_count} * isa::kInsnBytes, what.c_str());

  const isa::Codec codec(cfg);
  ProgramInfo info;
  info.insns.reserve(insn_count);
  auto& k = info.counters;
  for (const char* n :
       {"insn.load", "insn.store", "insn.gemm", "insn.alu", "insn.finish", "uop.gemm",
        "uop.gemm_reset", "uop.alu", "macs", "bytes.load.uop", "bytes.load.inp", "bytes.load.wgt",
        "bytes.load.acc", "bytes.store.out", "pad_elems"})
    k[n] = 0;
  const std::uint64_t P = cfg.mem_bytes_per_cycle, B = cfg.mem_burst_bytes;
  std::uint64_t budget = 10000 + (insn_count / (B / isa::kInsnBytes) + 2) *
                                     (4 * (B / P + 1) + cfg.mem_latency_cycles + B / P + 4);
  for (std::uint32_t n = 0; n < insn_count; ++n) {
    isa::Word128 w;
    const std::uint8_t* p = dram.data() + insn_addr + std::uint64_t{n} * isa::kInsnBytes;
    std::memcpy(&w.lo, p, 8);
    std::memcpy(&w.hi, p + 8, 8);
    isa::Instruction insn;
    try {
      insn = codec.decode(w);
    } catch (const Error& e) {
      throw Error(Msg() << "rtl: instruction " << n << " (at DRAM address 0x" << std::hex
                        << insn_addr + std::uint64_t{n} * isa::kInsnBytes << std::dec
                        << "): " << e.what());
    }
    isa::validate(cfg, insn, n);
    const bool last = n + 1 == insn_count;
    TANDEM_CHECK(last || insn.opcode != isa::Opcode::kFinish,
                 "rtl: instruction " << n << " is a FINISH but only the last instruction ("
                                     << insn_count - 1 << ") may be");
    TANDEM_CHECK(!last || insn.opcode == isa::Opcode::kFinish,
                 "rtl: the last instruction (" << n << ", " << isa::opcode_name(insn.opcode)
                                               << ") must be FINISH");
    budget += 2 * insn_bound(cfg, insn);
    const std::uint64_t uops = isa::uop_count(insn);
    const std::uint64_t elems = std::uint64_t{insn.y_size} * insn.x_size;
    switch (insn.opcode) {
      case isa::Opcode::kLoad: {
        ++k["insn.load"];
        const std::uint64_t W = std::uint64_t{insn.x_pad_0} + insn.x_size + insn.x_pad_1;
        const std::uint64_t H = std::uint64_t{insn.y_pad_0} + insn.y_size + insn.y_pad_1;
        k["pad_elems"] += H * W - elems;
        const std::uint64_t bytes = elems * cfg.elem_bytes(static_cast<int>(insn.mem_type));
        k[std::string("bytes.load.") + std::string(isa::mem_type_name(insn.mem_type))] += bytes;
        break;
      }
      case isa::Opcode::kStore:
        ++k["insn.store"];
        k["bytes.store.out"] += elems * cfg.out_elem_bytes;
        break;
      case isa::Opcode::kGemm:
        ++k["insn.gemm"];
        k["uop.gemm"] += uops;
        if (insn.reset)
          k["uop.gemm_reset"] += uops;
        else
          k["macs"] += uops * cfg.macs_per_gemm_uop();
        break;
      case isa::Opcode::kAlu:
        ++k["insn.alu"];
        k["uop.alu"] += uops;
        break;
      case isa::Opcode::kFinish:
        ++k["insn.finish"];
        break;
    }
    info.insns.push_back(insn);
  }
  k["insn.total"] = insn_count;
  info.budget = budget;
  return info;
}

}  // namespace tandem::hw
