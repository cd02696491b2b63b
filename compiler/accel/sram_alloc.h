// Accelerator pass: SRAM allocation and capacity check.
//
// Every Allocate of an inp/wgt/acc buffer gets a base address (in SRAM
// elements) in its SRAM, stack-like: a buffer lives for the body of its
// Allocate, so siblings reuse the same space. The acc SRAM also backs the out
// SRAM index for index (GEMM/ALU write out[a] = narrow(acc[a])), so acc
// buffers are bounded by both depths (equal by HwConfig rule). A buffer that
// does not fit raises tandem::Error naming the buffer, its size, what else is
// live, the capacity, and that the tile factors of its stage (or the number
// of virtual threads) must shrink. Out or host-scope Allocates left at this
// point are an Error (nothing on the accelerator can use them).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "compiler/ir/ir.h"
#include "isa/hw_config.h"

namespace tandem::accel {

struct SramPlan {
  std::unordered_map<const ir::BufferNode*, std::uint32_t> base;  // in SRAM elements
  std::uint32_t peak_inp = 0, peak_wgt = 0, peak_acc = 0;         // in SRAM elements
};

SramPlan plan_sram(const ir::Stmt& body, const HwConfig& cfg,
                   const std::unordered_set<const ir::BufferNode*>& vthread_expanded = {});

}  // namespace tandem::accel
