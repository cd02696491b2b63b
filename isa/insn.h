// Instruction and micro-op formats of the Tandem ISA (VTA semantics).
//
// Every instruction is 128 bits. Field widths are derived from the HwConfig
// (see isa/layout.h); this header holds the decoded, width-independent form.
//
// Exact semantics (all addresses count elements of the addressed buffer):
//
// LOAD  (mem_type inp|wgt -> load module; uop|acc -> compute module)
//   W = x_pad_0 + x_size + x_pad_1;  H = y_pad_0 + y_size + y_pad_1
//   for y in [0,H), x in [0,W):
//     sram[sram_base + y*W + x] =
//        (y < y_pad_0 || y >= y_pad_0+y_size || x < x_pad_0 || x >= x_pad_0+x_size)
//          ? 0 : dram[dram_base + (y-y_pad_0)*x_stride + (x-x_pad_0)]
//   uop loads may not pad. x_stride >= x_size is required when y_size > 1.
// STORE (mem_type out -> store module; pads must be zero)
//   for y in [0,y_size), x in [0,x_size):
//     dram[dram_base + y*x_stride + x] = out[sram_base + y*x_size + x]
// GEMM  (compute module)
//   for i0 in [0,iter_out), i1 in [0,iter_in), u in [uop_bgn,uop_end):
//     a = uop[u].dst + i0*dst_factor_out + i1*dst_factor_in      (acc index)
//     s = uop[u].src + i0*src_factor_out + i1*src_factor_in      (inp index)
//     w = uop[u].wgt + i0*wgt_factor_out + i1*wgt_factor_in      (wgt index)
//     reset:  acc[a][b][o] = 0
//     else:   acc[a][b][o] += sum_i inp[s][b][i] * wgt[w][o][i]   (int32, wraps)
//     out[a] = narrow(acc[a])   (two's-complement truncation to the out width)
// ALU   (compute module; wgt factors must be zero)
//   same loops; a = dst index, s = src index (both into acc);
//   x = acc[a][b][o];  y = use_imm ? imm (sign-extended 16 bit) : acc[s][b][o]
//   MIN: min(x,y)  MAX: max(x,y)  ADD: x+y (wraps)  MUL: x*y (wraps, low 32 bits)
//   SHR: y >= 0 ? x >> min(y,31) (arithmetic) : x << min(-y,31) (wraps)
//   reset: result = 0.   acc[a] = result; out[a] = narrow(result)
// FINISH (compute module): ends the program once every module has drained.
//
// Dependency flags (tokens carry no data; pops happen before an instruction
// executes, pushes after it completes):
//   load module:    pop_next = pop compute->load,  push_next = push load->compute
//   compute module: pop_prev = pop load->compute,  pop_next = pop store->compute,
//                   push_prev = push compute->load, push_next = push compute->store
//   store module:   pop_prev = pop compute->store, push_prev = push store->compute
// A load-module instruction with pop_prev/push_prev, or a store with
// pop_next/push_next, is malformed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tandem::isa {

enum class Opcode : std::uint8_t { kLoad = 0, kStore = 1, kGemm = 2, kFinish = 3, kAlu = 4 };
enum class MemType : std::uint8_t { kUop = 0, kWgt = 1, kInp = 2, kAcc = 3, kOut = 4 };
enum class AluOp : std::uint8_t { kMin = 0, kMax = 1, kAdd = 2, kShr = 3, kMul = 4 };
enum class Module : std::uint8_t { kLoad = 0, kCompute = 1, kStore = 2 };

// The four token queues.
enum class TokenQueue : std::uint8_t {
  kLoadToCompute = 0,
  kComputeToLoad = 1,
  kComputeToStore = 2,
  kStoreToCompute = 3
};

struct DepFlags {
  bool pop_prev = false;
  bool pop_next = false;
  bool push_prev = false;
  bool push_next = false;
  bool operator==(const DepFlags&) const = default;
};

struct Instruction {
  Opcode opcode = Opcode::kFinish;
  DepFlags dep;
  // LOAD / STORE
  MemType mem_type = MemType::kUop;
  std::uint32_t sram_base = 0;
  std::uint32_t dram_base = 0;
  std::uint32_t y_size = 0;
  std::uint32_t x_size = 0;
  std::uint32_t x_stride = 0;
  std::uint32_t y_pad_0 = 0;
  std::uint32_t y_pad_1 = 0;
  std::uint32_t x_pad_0 = 0;
  std::uint32_t x_pad_1 = 0;
  // GEMM / ALU
  bool reset = false;
  std::uint32_t uop_bgn = 0;
  std::uint32_t uop_end = 0;
  std::uint32_t iter_out = 0;
  std::uint32_t iter_in = 0;
  std::uint32_t dst_factor_out = 0;
  std::uint32_t dst_factor_in = 0;
  std::uint32_t src_factor_out = 0;
  std::uint32_t src_factor_in = 0;
  std::uint32_t wgt_factor_out = 0;
  std::uint32_t wgt_factor_in = 0;
  // ALU only
  AluOp alu_op = AluOp::kMin;
  bool use_imm = false;
  std::int32_t imm = 0;

  bool operator==(const Instruction&) const = default;
};

// One micro-op: indices into acc (dst), inp or acc (src), and wgt.
struct Uop {
  std::uint32_t dst = 0;
  std::uint32_t src = 0;
  std::uint32_t wgt = 0;
  bool operator==(const Uop&) const = default;
};

// The module an instruction is dispatched to.
Module module_of(const Instruction& insn);

// Names used by the assembler, disassembler, traces and error messages.
std::string_view opcode_name(Opcode op);
std::string_view mem_type_name(MemType m);
std::string_view alu_op_name(AluOp op);
std::string_view module_name(Module m);
std::string_view token_queue_name(TokenQueue q);

// Number of micro-ops a GEMM/ALU instruction executes.
inline std::uint64_t uop_count(const Instruction& i) {
  return static_cast<std::uint64_t>(i.iter_out) * i.iter_in *
         (i.uop_end > i.uop_bgn ? i.uop_end - i.uop_bgn : 0);
}

}  // namespace tandem::isa
