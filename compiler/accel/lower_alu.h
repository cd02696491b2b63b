// Accelerator pass: ALU lowering.
//
// Three steps on the lowered IR (compiler/README.md, "Contract"):
//  1. In-place storage: an "alu" stage D = op(S, ...) whose source S is dead
//     afterwards (and whose index equals D's) takes over S's storage
//     (buffer_rewrite.h merge_storage), because the hardware ALU works in
//     place (acc[dst] = op(acc[dst], y)). Epilogue chains (bias add, shift,
//     clip, ReLU, residual add) thus all run on the GEMM accumulator.
//  2. Out views: a narrowing stage out[o] = int8(acc[a]) with a - o constant
//     emits nothing (every GEMM/ALU already writes out[a] = narrow(acc[a]));
//     its readers read the acc buffer instead (inject_dma stores it from the
//     out SRAM). If the acc buffer is also filled by a DMA (whose writes do
//     not reach out), the stage becomes an ALU add of 0 that refreshes out;
//     likewise before a store straight from such a buffer (out_refresh.h).
//  3. Every "alu" pragma nest becomes element-level loops around ALU calls:
//     alu_<op>_imm(d, s, imm) / alu_<op>(d, s, t) for + - min max * >> <<
//     with a constant or a second acc operand; a copy becomes alu_reset +
//     alu_add; a constant store (a reduction's init) becomes alu_reset, then
//     add and shift immediates (e.g. INT32_MIN = -32768 << 16).
// Anything else (an operand outside acc, a subtraction of two tensors, an
// immediate beyond 16 bits) raises tandem::Error naming the stage.
#pragma once

#include "compiler/ir/ir.h"
#include "isa/hw_config.h"

namespace tandem::accel {

ir::Stmt lower_alu(const ir::Stmt& body, const HwConfig& cfg);

}  // namespace tandem::accel
