// Bit layout of the 128-bit instruction word and the micro-op word.
//
// Field lists are declared once (X-macros below); widths derive from the
// HwConfig. The SystemVerilog package generator prints this same layout, so
// the C++ and the RTL cannot disagree about a bit.
//
// Every instruction starts with: opcode[2:0], pop_prev, pop_next, push_prev,
// push_next (bits 3..6); the opcode-specific fields follow in list order,
// packed from bit 7 upward. Micro-ops pack dst, src, wgt from bit 0 upward.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "isa/hw_config.h"
#include "isa/insn.h"

// X(field): fields after the common header, in bit order.
#define TANDEM_COMMON_FIELDS(X) X(opcode) X(pop_prev) X(pop_next) X(push_prev) X(push_next)
#define TANDEM_MEM_FIELDS(X) \
  X(mem_type) X(sram_base) X(dram_base) X(y_size) X(x_size) X(x_stride) X(y_pad_0) X(y_pad_1) \
  X(x_pad_0) X(x_pad_1)
#define TANDEM_GEMM_FIELDS(X)                                                                   \
  X(reset) X(uop_bgn) X(uop_end) X(iter_out) X(iter_in) X(dst_factor_out) X(dst_factor_in)      \
  X(src_factor_out) X(src_factor_in) X(wgt_factor_out) X(wgt_factor_in)
#define TANDEM_ALU_FIELDS(X)                                                                    \
  X(reset) X(uop_bgn) X(uop_end) X(iter_out) X(iter_in) X(dst_factor_out) X(dst_factor_in)      \
  X(src_factor_out) X(src_factor_in) X(alu_op) X(use_imm) X(imm)
#define TANDEM_UOP_FIELDS(X) X(dst) X(src) X(wgt)

namespace tandem::isa {

struct Field {
  std::string_view name;
  unsigned offset = 0;  // lowest bit
  unsigned width = 0;
  bool is_signed = false;
};

// Fixed widths shared by every config.
inline constexpr unsigned kOpcodeBits = 3;
inline constexpr unsigned kMemTypeBits = 3;
inline constexpr unsigned kDramBaseBits = 32;
inline constexpr unsigned kSizeBits = 16;  // y_size, x_size, x_stride
inline constexpr unsigned kPadBits = 4;
inline constexpr unsigned kIterBits = 14;
inline constexpr unsigned kAluOpBits = 3;
inline constexpr unsigned kImmBits = 16;
inline constexpr unsigned kInsnBits = 128;
inline constexpr unsigned kUopBits = 32;

// Fields of an instruction with the given opcode (common header first).
std::vector<Field> insn_layout(const HwConfig& cfg, Opcode op);
// Fields of the micro-op word.
std::vector<Field> uop_layout(const HwConfig& cfg);
// Total bits used by a layout.
unsigned layout_bits(const std::vector<Field>& fields);

// Raw field access by name (used by the codec, assembler and generators).
// Signed fields are returned sign-extended in an int64.
std::int64_t get_field(const Instruction& insn, std::string_view field);
void set_field(Instruction& insn, std::string_view field, std::int64_t value);

}  // namespace tandem::isa
