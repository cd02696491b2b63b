// Encoding of micro-op kernel headers in the IR (see calls.h).
#include "compiler/accel/calls.h"

#include <sstream>

#include "compiler/ir/op.h"
#include "isa/error.h"

namespace tandem::accel {

ir::Expr encode_kernel_header(const KernelHeader& h) {
  std::vector<ir::Expr> a = {ir::Expr(static_cast<int>(h.op.opcode)), ir::Expr(h.op.reset ? 1 : 0),
                             ir::Expr(static_cast<int>(h.op.alu_op)),
                             ir::Expr(h.op.use_imm ? 1 : 0), ir::Expr(h.op.imm)};
  for (const isa::KernelLoop& l : h.loops) {
    a.push_back(ir::Expr(static_cast<std::int64_t>(l.extent)));
    a.push_back(ir::Expr(static_cast<std::int64_t>(l.dst_factor)));
    a.push_back(ir::Expr(static_cast<std::int64_t>(l.src_factor)));
    a.push_back(ir::Expr(static_cast<std::int64_t>(l.wgt_factor)));
  }
  return ir::call(ir::DType::kInt32, kKernelHeader, std::move(a));
}

KernelHeader decode_kernel_header(const ir::Expr& e) {
  const auto* c = e.as<ir::CallNode>();
  TANDEM_ASSERT(c != nullptr && c->name == kKernelHeader && c->args.size() == 13,
                "uop_kernel attribute without a kernel_header");
  std::int64_t v[13];
  for (int k = 0; k < 13; ++k) {
    const std::int64_t* p = ir::as_const_int(c->args[static_cast<std::size_t>(k)]);
    TANDEM_ASSERT(p != nullptr, "kernel_header argument " << k << " is not constant");
    v[k] = *p;
  }
  KernelHeader h;
  h.op.opcode = static_cast<isa::Opcode>(v[0]);
  h.op.reset = v[1] != 0;
  h.op.alu_op = static_cast<isa::AluOp>(v[2]);
  h.op.use_imm = v[3] != 0;
  h.op.imm = static_cast<std::int32_t>(v[4]);
  for (int l = 0; l < 2; ++l) {
    h.loops[l].extent = static_cast<std::uint32_t>(v[5 + 4 * l]);
    h.loops[l].dst_factor = static_cast<std::uint32_t>(v[6 + 4 * l]);
    h.loops[l].src_factor = static_cast<std::uint32_t>(v[7 + 4 * l]);
    h.loops[l].wgt_factor = static_cast<std::uint32_t>(v[8 + 4 * l]);
  }
  return h;
}

std::string describe(const KernelHeader& h) {
  std::ostringstream s;
  if (h.op.opcode == isa::Opcode::kGemm) {
    s << (h.op.reset ? "gemm reset" : "gemm");
  } else {
    s << "alu " << (h.op.reset ? std::string("reset") : std::string(isa::alu_op_name(h.op.alu_op)));
    if (!h.op.reset && h.op.use_imm) s << " imm " << h.op.imm;
  }
  for (int l = 0; l < 2; ++l)
    s << (l == 0 ? " out" : " in") << "(x" << h.loops[l].extent << " dst+" << h.loops[l].dst_factor
      << " src+" << h.loops[l].src_factor << " wgt+" << h.loops[l].wgt_factor << ")";
  return s.str();
}

bool is_accel_call(const std::string& name) {
  return name == kDmaLoad || name == kDmaStore || name == kUop;
}

}  // namespace tandem::accel
