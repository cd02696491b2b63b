// The exact integer semantics of every IR operator on constants, shared by
// the simplifier (constant folding) and the interpreter, so both agree.
//
//  - results wrap to the dtype (two's complement);
//  - FloorDiv/FloorMod round toward minus infinity (mod has the divisor's
//    sign); division by zero is reported through `ok = false`;
//  - Shr(x, s): s >= 0 -> arithmetic x >> min(s, bits-1); s < 0 -> x << -s;
//    Shl(x, s) = Shr(x, -s) (matches the accelerator's ALU SHR);
//  - comparisons and And/Or give 0/1.
#pragma once

#include <cstdint>

#include "compiler/ir/ir.h"

namespace tandem::ir {

// op must be a binary node type. `d` is the operand dtype.
std::int64_t fold_binary(NodeType op, DType d, std::int64_t a, std::int64_t b, bool* ok);
std::int64_t floor_div(std::int64_t a, std::int64_t b);  // b != 0
std::int64_t floor_mod(std::int64_t a, std::int64_t b);  // b != 0

}  // namespace tandem::ir
