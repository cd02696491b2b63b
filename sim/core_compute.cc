// FunctionalCore: GEMM and ALU instructions (semantics in isa/insn.h).
//
// Bounds checks are hoisted out of the micro-op loops: one pass over the
// instruction's micro-ops finds the largest dst/src/wgt field, and since all
// affine factors are non-negative the largest index of each operand is
// max_field + (iter_out-1)*factor_out + (iter_in-1)*factor_in. Only when that
// exceeds the depth is the first offending micro-op (in execution order)
// located, in O(#uops), for the error message. An instruction that fails a
// check has no effect. Only operands an instruction actually reads are
// checked: a reset GEMM/ALU reads neither src nor wgt, an immediate ALU no src.
#include <algorithm>
#include <cstring>

#include "isa/error.h"
#include "sim/core.h"
#include "sim/core_kernels.h"

namespace tandem::sim {
namespace {

struct Operand {
  const char* field;    // "dst", "src", "wgt"
  const char* buffer;   // "acc", "inp", "wgt"
  std::uint32_t depth;  // depth of `buffer`
  std::uint32_t isa::Uop::*member;
  std::uint32_t f_out, f_in;
};

// First (i0, i1) in loop order with b + i0*fo + i1*fi >= depth, if any.
bool first_over(std::uint64_t b, std::uint64_t fo, std::uint64_t fi, std::uint64_t n0,
                std::uint64_t n1, std::uint64_t depth, std::uint64_t& i0, std::uint64_t& i1) {
  const std::uint64_t max_in = (n1 - 1) * fi;
  if (b + max_in >= depth) {
    i0 = 0;
  } else {
    if (fo == 0) return false;
    i0 = (depth - b - max_in + fo - 1) / fo;
    if (i0 >= n0) return false;
  }
  const std::uint64_t base = b + i0 * fo;
  i1 = base >= depth ? 0 : (depth - base + fi - 1) / fi;  // fi > 0 here
  return true;
}

// Throws if any index formed by the instruction's loops leaves its buffer.
void check_operands(const isa::Instruction& insn, std::size_t index,
                    const std::vector<isa::Uop>& uops, const Operand* ops, int n_ops) {
  std::uint64_t max_field[3] = {0, 0, 0};
  for (std::uint32_t u = insn.uop_bgn; u < insn.uop_end; ++u)
    for (int k = 0; k < n_ops; ++k)
      max_field[k] = std::max<std::uint64_t>(max_field[k], uops[u].*(ops[k].member));
  bool ok = true;
  for (int k = 0; k < n_ops; ++k) {
    const std::uint64_t max_index = max_field[k] + std::uint64_t{insn.iter_out - 1} * ops[k].f_out +
                                    std::uint64_t{insn.iter_in - 1} * ops[k].f_in;
    ok = ok && max_index < ops[k].depth;
  }
  if (ok) return;
  // Locate the first offending (i0, i1, uop, operand) in execution order.
  bool found = false;
  std::uint64_t best[4] = {0, 0, 0, 0};
  for (std::uint32_t u = insn.uop_bgn; u < insn.uop_end; ++u) {
    for (int k = 0; k < n_ops; ++k) {
      std::uint64_t i0, i1;
      if (!first_over(uops[u].*(ops[k].member), ops[k].f_out, ops[k].f_in, insn.iter_out,
                      insn.iter_in, ops[k].depth, i0, i1))
        continue;
      const std::uint64_t cand[4] = {i0, i1, u, static_cast<std::uint64_t>(k)};
      if (!found || std::lexicographical_compare(cand, cand + 4, best, best + 4)) {
        std::copy(cand, cand + 4, best);
        found = true;
      }
    }
  }
  TANDEM_ASSERT(found, "bounds pre-check failed but no offending micro-op was found");
  const Operand& op = ops[best[3]];
  const isa::Uop& up = uops[best[2]];
  const std::uint64_t field = up.*(op.member);
  const std::uint64_t idx = field + best[0] * op.f_out + best[1] * op.f_in;
  throw Error(Msg() << "instruction " << index << " (" << isa::opcode_name(insn.opcode)
                    << "): " << op.buffer << " index " << idx << " is out of range (" << op.buffer
                    << " depth " << op.depth << ") at iter_out " << best[0] << ", iter_in "
                    << best[1] << ", uop " << best[2] << ": " << op.field << " " << field << " + "
                    << best[0] << "*" << op.field << "_factor_out " << op.f_out << " + " << best[1]
                    << "*" << op.field << "_factor_in " << op.f_in);
}

// Zeroes acc and out rows of every dst index the loops form.
void reset_rows(const isa::Instruction& insn, const isa::Uop* uops, std::int32_t* acc,
                std::int8_t* out, std::size_t row_elems) {
  for (std::uint32_t i0 = 0; i0 < insn.iter_out; ++i0)
    for (std::uint32_t i1 = 0; i1 < insn.iter_in; ++i1)
      for (std::uint32_t u = insn.uop_bgn; u < insn.uop_end; ++u) {
        const std::size_t a = uops[u].dst + i0 * insn.dst_factor_out + i1 * insn.dst_factor_in;
        std::memset(acc + a * row_elems, 0, row_elems * sizeof(std::int32_t));
        std::memset(out + a * row_elems, 0, row_elems);
      }
}

struct OpMin {
  static std::int32_t f(std::int32_t x, std::int32_t y) { return x < y ? x : y; }
};
struct OpMax {
  static std::int32_t f(std::int32_t x, std::int32_t y) { return x > y ? x : y; }
};
struct OpAdd {
  static std::int32_t f(std::int32_t x, std::int32_t y) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) + static_cast<std::uint32_t>(y));
  }
};
struct OpMul {
  static std::int32_t f(std::int32_t x, std::int32_t y) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) * static_cast<std::uint32_t>(y));
  }
};
struct OpShr {
  static std::int32_t f(std::int32_t x, std::int32_t y) {
    if (y >= 0) return x >> (y > 31 ? 31 : y);
    const std::int64_t s = -static_cast<std::int64_t>(y);
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << (s > 31 ? 31 : s));
  }
};

template <class Op, bool kImm>
void alu_loop(const isa::Instruction& insn, const isa::Uop* uops, std::int32_t* acc,
              std::int8_t* out, std::size_t E) {
  const std::int32_t imm = insn.imm;
  for (std::uint32_t i0 = 0; i0 < insn.iter_out; ++i0)
    for (std::uint32_t i1 = 0; i1 < insn.iter_in; ++i1)
      for (std::uint32_t u = insn.uop_bgn; u < insn.uop_end; ++u) {
        const std::size_t a = uops[u].dst + i0 * insn.dst_factor_out + i1 * insn.dst_factor_in;
        std::int32_t* x = acc + a * E;
        std::int8_t* o = out + a * E;
        if constexpr (kImm) {
          for (std::size_t e = 0; e < E; ++e) {
            const std::int32_t r = Op::f(x[e], imm);
            x[e] = r;
            o[e] = static_cast<std::int8_t>(r);
          }
        } else {
          const std::size_t s = uops[u].src + i0 * insn.src_factor_out + i1 * insn.src_factor_in;
          const std::int32_t* y = acc + s * E;  // may alias x (s == a): same element only
          for (std::size_t e = 0; e < E; ++e) {
            const std::int32_t r = Op::f(x[e], y[e]);
            x[e] = r;
            o[e] = static_cast<std::int8_t>(r);
          }
        }
      }
}

template <class Op>
void alu_dispatch_imm(const isa::Instruction& insn, const isa::Uop* uops, std::int32_t* acc,
                      std::int8_t* out, std::size_t E) {
  if (insn.use_imm)
    alu_loop<Op, true>(insn, uops, acc, out, E);
  else
    alu_loop<Op, false>(insn, uops, acc, out, E);
}

}  // namespace

void FunctionalCore::gemm(const isa::Instruction& insn, std::size_t index) {
  const std::uint64_t n = isa::uop_count(insn);
  if (n > 0) {
    Operand ops[3] = {
        {"dst", "acc", cfg_.acc_depth, &isa::Uop::dst, insn.dst_factor_out, insn.dst_factor_in},
        {"src", "inp", cfg_.inp_depth, &isa::Uop::src, insn.src_factor_out, insn.src_factor_in},
        {"wgt", "wgt", cfg_.wgt_depth, &isa::Uop::wgt, insn.wgt_factor_out, insn.wgt_factor_in}};
    check_operands(insn, index, uop_, ops, insn.reset ? 1 : 3);
  }
  ++counters_.insn_gemm;
  counters_.uop_gemm += n;
  if (n == 0) return;
  const std::size_t row_elems = static_cast<std::size_t>(cfg_.batch) * cfg_.block_out;
  if (insn.reset) {
    counters_.uop_gemm_reset += n;
    reset_rows(insn, uop_.data(), acc_.data(), out_.data(), row_elems);
    return;
  }
  counters_.macs += n * cfg_.macs_per_gemm_uop();
  GemmKernelArgs a;
  a.uops = uop_.data();
  a.uop_bgn = insn.uop_bgn;
  a.uop_end = insn.uop_end;
  a.iter_out = insn.iter_out;
  a.iter_in = insn.iter_in;
  a.dst_out = insn.dst_factor_out;
  a.dst_in = insn.dst_factor_in;
  a.src_out = insn.src_factor_out;
  a.src_in = insn.src_factor_in;
  a.wgt_out = insn.wgt_factor_out;
  a.wgt_in = insn.wgt_factor_in;
  a.acc = acc_.data();
  a.out = out_.data();
  a.inp = inp_.data();
  a.wgt = wgt_.data();
  a.batch = cfg_.batch;
  a.block_in = cfg_.block_in;
  a.block_out = cfg_.block_out;
  gemm_kernel_(a);
}

void FunctionalCore::alu(const isa::Instruction& insn, std::size_t index) {
  TANDEM_CHECK(insn.imm >= -32768 && insn.imm <= 32767,
               "instruction " << index << " (ALU): imm " << insn.imm
                              << " does not fit the 16-bit signed immediate (-32768..32767)");
  const std::uint64_t n = isa::uop_count(insn);
  if (n > 0) {
    Operand ops[2] = {
        {"dst", "acc", cfg_.acc_depth, &isa::Uop::dst, insn.dst_factor_out, insn.dst_factor_in},
        {"src", "acc", cfg_.acc_depth, &isa::Uop::src, insn.src_factor_out, insn.src_factor_in}};
    check_operands(insn, index, uop_, ops, insn.reset || insn.use_imm ? 1 : 2);
  }
  ++counters_.insn_alu;
  counters_.uop_alu += n;
  if (n == 0) return;
  const std::size_t E = static_cast<std::size_t>(cfg_.batch) * cfg_.block_out;
  if (insn.reset) {
    reset_rows(insn, uop_.data(), acc_.data(), out_.data(), E);
    return;
  }
  std::int32_t* acc = acc_.data();
  std::int8_t* out = out_.data();
  switch (insn.alu_op) {
    case isa::AluOp::kMin:
      return alu_dispatch_imm<OpMin>(insn, uop_.data(), acc, out, E);
    case isa::AluOp::kMax:
      return alu_dispatch_imm<OpMax>(insn, uop_.data(), acc, out, E);
    case isa::AluOp::kAdd:
      return alu_dispatch_imm<OpAdd>(insn, uop_.data(), acc, out, E);
    case isa::AluOp::kShr:
      return alu_dispatch_imm<OpShr>(insn, uop_.data(), acc, out, E);
    case isa::AluOp::kMul:
      return alu_dispatch_imm<OpMul>(insn, uop_.data(), acc, out, E);
  }
  TANDEM_ASSERT(false, "validate() let alu_op " << static_cast<int>(insn.alu_op) << " through");
}

}  // namespace tandem::sim
