// Accelerator pass: micro-op kernel extraction.
//
// Finds every compute region (a subtree made only of loops, attributes and
// GEMM/ALU calls: gemm_reset, gemm_update, alu_reset, alu_<op>[_imm]) and
// turns it into micro-op kernels, one per call site:
//  * loops around calls of different kinds are distributed (loop fission),
//    which is legal for the spatial/element-wise loops tensorize and
//    lower_alu produce (every element keeps its order of operations);
//  * ALU calls are made in place (the hardware computes acc[dst] =
//    op(acc[dst], y)): D[d] = op(S[s], y) with D[d] != S[s] first copies S
//    into D (alu_reset + add), commutative ops may swap their operands;
//  * two loops are folded into the instruction's iter_out/iter_in with their
//    dst/src/wgt factors: the two largest foldable ones (non-negative
//    factors that fit the fields, extent < 2^14) when the order of micro-ops
//    does not matter (GEMM, resets, immediates, ALU ops reading another
//    buffer), else the two outermost;
//  * the other loops stay inside the kernel: the codegen enumerates them
//    into the micro-op list.
// Output: AttrStmt("uop_kernel", kernel_header(...), text = stage, body)
// whose body holds loops around uop<bufs>(dst, src, wgt) calls (calls.h).
// A kernel with more micro-ops than the uop SRAM holds raises tandem::Error.
#pragma once

#include "compiler/ir/ir.h"
#include "isa/hw_config.h"

namespace tandem::accel {

ir::Stmt fold_uop_kernels(const ir::Stmt& body, const HwConfig& cfg);

}  // namespace tandem::accel
