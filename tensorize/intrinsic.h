// Tensor intrinsics: hardware operations declared as tensor computations.
//
// An Intrinsic is the compute definition of one hardware operation over small
// declared operand buffers (shape, dtype, scope), written in the loop IR:
// output[axes] = body (or output[axes] <combiner>= body over reduce_axes), plus
// the names of the calls that implement it. tensorize/match.h compares a
// scheduled loop nest against this definition and, on success, replaces the
// nest with the calls.
//
// The accelerator intrinsics are built from a HwConfig:
//  - gemm: C[b, o] += int32(A[b, i]) * int32(B[o, i]) over i < BLOCK_IN,
//    A: int8 [BATCH, BLOCK_IN] in "inp", B: int8 [BLOCK_OUT, BLOCK_IN] in
//    "wgt", C: int32 [BATCH, BLOCK_OUT] in "acc". Calls gemm_reset /
//    gemm_update.
//  - alu: D[b, o] = op(S[b, o], imm) or op(S[b, o], T[b, o]) on int32
//    [BATCH, BLOCK_OUT] tiles in "acc", op in add, min, max, shr, mul
//    (shr: S >> imm, arithmetic). Calls alu_<op>_imm / alu_<op>.
// Exact call signatures: compiler/README.md, "Contract with the accelerator
// back end".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "isa/hw_config.h"
#include "isa/insn.h"

namespace tandem::tensorize {

struct IntrinsicAxis {
  ir::Var var;
  std::int64_t extent = 1;
  std::string param;  // hardware parameter the extent comes from ("BLOCK_IN"), for hints
};

struct Intrinsic {
  std::string name;                 // "gemm", "alu_add_imm", ...
  ir::Buffer output;                // declared operand: shape, dtype, scope
  std::vector<ir::Buffer> inputs;   // declared operands read by body
  std::vector<IntrinsicAxis> axes;  // spatial axes, one per output dimension, in order
  std::vector<IntrinsicAxis> reduce_axes;
  std::optional<ir::ReduceOp> reduce_op;  // set for reductions
  ir::Expr body;                          // value (or combiner source) at the axis vars
  std::vector<ir::Var> params;            // scalar parameters of body (ALU immediate)
  std::string update_call;                // call replacing one whole intrinsic computation
  std::string reset_call;                 // reductions: call writing the combiner identity
  // Immediate range for params (inclusive), checked by the matcher.
  std::int64_t param_min = -32768;
  std::int64_t param_max = 32767;
};

// The GEMM intrinsic of the configured block shape.
Intrinsic make_gemm(const HwConfig& hw);
// The ALU intrinsic for op; `imm` selects the immediate form (one tensor
// operand + a constant) over the two-tensor form.
Intrinsic make_alu(const HwConfig& hw, isa::AluOp op, bool imm);
// The call name prefix of an ALU op: "alu_add", "alu_min", ...
std::string alu_call_name(isa::AluOp op, bool imm);

}  // namespace tandem::tensorize
