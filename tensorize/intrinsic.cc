// The accelerator's GEMM and ALU intrinsics, declared from the HwConfig.
#include "tensorize/intrinsic.h"

#include "compiler/ir/op.h"
#include "isa/error.h"

namespace tandem::tensorize {

using ir::Buffer;
using ir::DType;
using ir::Expr;
using ir::Var;

namespace {
DType int_of_width(int log_bits, const char* what) {
  switch (log_bits) {
    case 3:
      return DType::kInt8;
    case 4:
      return DType::kInt16;
    case 5:
      return DType::kInt32;
    default:
      break;
  }
  throw Error(Msg() << "tensorize: " << what << " width 2^" << log_bits
                    << " bits is not supported by the compiler (8, 16 or 32)");
}
}  // namespace

Intrinsic make_gemm(const HwConfig& hw) {
  Intrinsic in;
  in.name = "gemm";
  DType ti = int_of_width(hw.log_inp_width, "input");
  DType tw = int_of_width(hw.log_wgt_width, "weight");
  DType ta = int_of_width(hw.log_acc_width, "accumulator");
  Buffer a("A", ti, {hw.batch, hw.block_in}, "inp");
  Buffer b("B", tw, {hw.block_out, hw.block_in}, "wgt");
  Buffer c("C", ta, {hw.batch, hw.block_out}, "acc");
  Var i("b"), j("o"), k("i");
  in.output = c;
  in.inputs = {a, b};
  in.axes = {{i, hw.batch, "BATCH"}, {j, hw.block_out, "BLOCK_OUT"}};
  in.reduce_axes = {{k, hw.block_in, "BLOCK_IN"}};
  in.reduce_op = ir::ReduceOp::kSum;
  in.body = ir::cast(ta, ir::load(a, {i, k})) * ir::cast(ta, ir::load(b, {j, k}));
  in.update_call = "gemm_update";
  in.reset_call = "gemm_reset";
  return in;
}

std::string alu_call_name(isa::AluOp op, bool imm) {
  std::string n = "alu_";
  switch (op) {
    case isa::AluOp::kMin:
      n += "min";
      break;
    case isa::AluOp::kMax:
      n += "max";
      break;
    case isa::AluOp::kAdd:
      n += "add";
      break;
    case isa::AluOp::kShr:
      n += "shr";
      break;
    case isa::AluOp::kMul:
      n += "mul";
      break;
  }
  return imm ? n + "_imm" : n;
}

Intrinsic make_alu(const HwConfig& hw, isa::AluOp op, bool imm) {
  Intrinsic in;
  in.name = alu_call_name(op, imm);
  DType ta = int_of_width(hw.log_acc_width, "accumulator");
  Buffer d("D", ta, {hw.batch, hw.block_out}, "acc");
  Buffer s("S", ta, {hw.batch, hw.block_out}, "acc");
  Var i("b"), j("o");
  in.output = d;
  in.inputs = {s};
  in.axes = {{i, hw.batch, "BATCH"}, {j, hw.block_out, "BLOCK_OUT"}};
  Expr x = ir::load(s, {i, j});
  Expr y;
  if (imm) {
    Var p("imm", ta);
    in.params = {p};
    y = p;
  } else {
    Buffer t("T", ta, {hw.batch, hw.block_out}, "acc");
    in.inputs.push_back(t);
    y = ir::load(t, {i, j});
  }
  switch (op) {
    case isa::AluOp::kMin:
      in.body = ir::min(x, y);
      break;
    case isa::AluOp::kMax:
      in.body = ir::max(x, y);
      break;
    case isa::AluOp::kAdd:
      in.body = x + y;
      break;
    case isa::AluOp::kShr:
      in.body = x >> y;
      break;
    case isa::AluOp::kMul:
      in.body = x * y;
      break;
  }
  in.update_call = in.name;
  return in;
}

}  // namespace tandem::tensorize
