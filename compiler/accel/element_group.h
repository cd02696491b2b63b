// Grouping scalar loop nests into SRAM elements.
//
// After storage flattening every index counts scalars, but the accelerator
// moves and computes whole SRAM elements (inp: BATCH*BLOCK_IN int8, wgt:
// BLOCK_OUT*BLOCK_IN int8, acc/out: BATCH*BLOCK_OUT). group_elements() finds
// the loops of a nest that walk the scalars INSIDE one element (their
// coefficients in the first access form the mixed radix 1, e0, e0*e1, ... up
// to the element size, and every other access uses them identically), drops
// them, and divides every remaining index by the element size. Anything else
// (a partial element, a misaligned offset) is a tandem::Error naming `what`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/accel/affine.h"
#include "isa/hw_config.h"
#include "isa/insn.h"

namespace tandem::accel {

struct LoopInfo {
  ir::Var var;
  std::int64_t extent = 1;
};

struct GroupedNest {
  std::vector<LoopInfo> loops;  // element loops, outer to inner
  std::vector<Affine> index;    // element indices, same order as the accesses
};

GroupedNest group_elements(const std::vector<LoopInfo>& loops, const std::vector<Affine>& access,
                           std::int64_t elem, const std::string& what);

// Scalars per SRAM element of a scope ("inp", "wgt", "acc", "out").
std::int64_t scalars_per_element(const HwConfig& cfg, const std::string& scope);
// The isa memory type of a scope (tandem::Error for other scopes).
isa::MemType mem_type_of_scope(const std::string& scope);
// Bits of one scalar of the scope's data type.
int scalar_bits_of_scope(const HwConfig& cfg, const std::string& scope);
bool is_sram_scope(const std::string& scope);

}  // namespace tandem::accel
