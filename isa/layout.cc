// Field widths of every instruction format, derived from the HwConfig.
#include "isa/layout.h"

#include <algorithm>

#include "isa/error.h"

namespace tandem::isa {
namespace {

unsigned width_of(const HwConfig& c, Opcode op, std::string_view f) {
  const unsigned sram_bits = static_cast<unsigned>(std::max(
      {c.log_uop_depth, c.log_inp_depth, c.log_wgt_depth, c.log_acc_depth, c.log_out_depth}));
  if (f == "opcode") return kOpcodeBits;
  if (f == "pop_prev" || f == "pop_next" || f == "push_prev" || f == "push_next") return 1;
  if (f == "mem_type") return kMemTypeBits;
  if (f == "sram_base") return sram_bits;
  if (f == "dram_base") return kDramBaseBits;
  if (f == "y_size" || f == "x_size" || f == "x_stride") return kSizeBits;
  if (f == "y_pad_0" || f == "y_pad_1" || f == "x_pad_0" || f == "x_pad_1") return kPadBits;
  if (f == "reset" || f == "use_imm") return 1;
  if (f == "uop_bgn") return static_cast<unsigned>(c.log_uop_depth);
  if (f == "uop_end") return static_cast<unsigned>(c.log_uop_depth) + 1;
  if (f == "iter_out" || f == "iter_in") return kIterBits;
  if (f == "dst_factor_out" || f == "dst_factor_in") return static_cast<unsigned>(c.log_acc_depth);
  if (f == "src_factor_out" || f == "src_factor_in")
    return static_cast<unsigned>(op == Opcode::kAlu ? c.log_acc_depth : c.log_inp_depth);
  if (f == "wgt_factor_out" || f == "wgt_factor_in") return static_cast<unsigned>(c.log_wgt_depth);
  if (f == "alu_op") return kAluOpBits;
  if (f == "imm") return kImmBits;
  TANDEM_ASSERT(false, "unknown field " << f);
}

void append(std::vector<Field>& out, const HwConfig& c, Opcode op, std::string_view name) {
  unsigned off = out.empty() ? 0 : out.back().offset + out.back().width;
  out.push_back(Field{name, off, width_of(c, op, name), name == "imm"});
}

}  // namespace

std::vector<Field> insn_layout(const HwConfig& cfg, Opcode op) {
  std::vector<Field> f;
#define TANDEM_APPEND(name) append(f, cfg, op, #name);
  TANDEM_COMMON_FIELDS(TANDEM_APPEND)
  switch (op) {
    case Opcode::kLoad:
    case Opcode::kStore:
      TANDEM_MEM_FIELDS(TANDEM_APPEND)
      break;
    case Opcode::kGemm:
      TANDEM_GEMM_FIELDS(TANDEM_APPEND)
      break;
    case Opcode::kAlu:
      TANDEM_ALU_FIELDS(TANDEM_APPEND)
      break;
    case Opcode::kFinish:
      break;
  }
#undef TANDEM_APPEND
  return f;
}

std::vector<Field> uop_layout(const HwConfig& cfg) {
  const unsigned acc = static_cast<unsigned>(cfg.log_acc_depth);
  const unsigned src = static_cast<unsigned>(std::max(cfg.log_inp_depth, cfg.log_acc_depth));
  const unsigned wgt = static_cast<unsigned>(cfg.log_wgt_depth);
  return {Field{"dst", 0, acc, false}, Field{"src", acc, src, false},
          Field{"wgt", acc + src, wgt, false}};
}

unsigned layout_bits(const std::vector<Field>& fields) {
  return fields.empty() ? 0 : fields.back().offset + fields.back().width;
}

std::int64_t get_field(const Instruction& i, std::string_view f) {
  if (f == "opcode") return static_cast<std::int64_t>(i.opcode);
  if (f == "pop_prev") return i.dep.pop_prev;
  if (f == "pop_next") return i.dep.pop_next;
  if (f == "push_prev") return i.dep.push_prev;
  if (f == "push_next") return i.dep.push_next;
  if (f == "mem_type") return static_cast<std::int64_t>(i.mem_type);
  if (f == "reset") return i.reset;
  if (f == "alu_op") return static_cast<std::int64_t>(i.alu_op);
  if (f == "use_imm") return i.use_imm;
  if (f == "imm") return i.imm;
#define TANDEM_GET(name) \
  if (f == #name) return i.name;
  TANDEM_GET(sram_base) TANDEM_GET(dram_base) TANDEM_GET(y_size) TANDEM_GET(x_size)
  TANDEM_GET(x_stride) TANDEM_GET(y_pad_0) TANDEM_GET(y_pad_1) TANDEM_GET(x_pad_0)
  TANDEM_GET(x_pad_1) TANDEM_GET(uop_bgn) TANDEM_GET(uop_end) TANDEM_GET(iter_out)
  TANDEM_GET(iter_in) TANDEM_GET(dst_factor_out) TANDEM_GET(dst_factor_in)
  TANDEM_GET(src_factor_out) TANDEM_GET(src_factor_in) TANDEM_GET(wgt_factor_out)
  TANDEM_GET(wgt_factor_in)
#undef TANDEM_GET
  throw Error(Msg() << "unknown instruction field '" << f << "'");
}

void set_field(Instruction& i, std::string_view f, std::int64_t v) {
  if (f == "opcode") { i.opcode = static_cast<Opcode>(v); return; }
  if (f == "pop_prev") { i.dep.pop_prev = v != 0; return; }
  if (f == "pop_next") { i.dep.pop_next = v != 0; return; }
  if (f == "push_prev") { i.dep.push_prev = v != 0; return; }
  if (f == "push_next") { i.dep.push_next = v != 0; return; }
  if (f == "mem_type") { i.mem_type = static_cast<MemType>(v); return; }
  if (f == "reset") { i.reset = v != 0; return; }
  if (f == "alu_op") { i.alu_op = static_cast<AluOp>(v); return; }
  if (f == "use_imm") { i.use_imm = v != 0; return; }
  if (f == "imm") { i.imm = static_cast<std::int32_t>(v); return; }
#define TANDEM_SET(name)                          \
  if (f == #name) {                               \
    i.name = static_cast<std::uint32_t>(v);       \
    return;                                       \
  }
  TANDEM_SET(sram_base) TANDEM_SET(dram_base) TANDEM_SET(y_size) TANDEM_SET(x_size)
  TANDEM_SET(x_stride) TANDEM_SET(y_pad_0) TANDEM_SET(y_pad_1) TANDEM_SET(x_pad_0)
  TANDEM_SET(x_pad_1) TANDEM_SET(uop_bgn) TANDEM_SET(uop_end) TANDEM_SET(iter_out)
  TANDEM_SET(iter_in) TANDEM_SET(dst_factor_out) TANDEM_SET(dst_factor_in)
  TANDEM_SET(src_factor_out) TANDEM_SET(src_factor_in) TANDEM_SET(wgt_factor_out)
  TANDEM_SET(wgt_factor_in)
#undef TANDEM_SET
  throw Error(Msg() << "unknown instruction field '" << f << "'");
}

}  // namespace tandem::isa
