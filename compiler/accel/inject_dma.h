// Accelerator pass: DMA injection.
//
// Replaces every AttrStmt("dma_copy") loop nest (one Store copying between a
// "global" tensor and an inp/wgt/acc SRAM buffer, see compiler/README.md) by
// 2D dma_load / dma_store calls (compiler/accel/calls.h):
//  * scalar loops inside one SRAM element are dropped (element_group.h);
//  * adjacent loops contiguous on both sides are merged;
//  * the innermost loop contiguous on both sides becomes x (x_size), the next
//    one whose SRAM step is the row width becomes y (y_size, x_stride = its
//    DRAM step); every other loop stays a For around the call (one DMA per
//    iteration after unrolling);
//  * a padded copy, Select(cond, Load, 0) with cond a conjunction of affine
//    comparisons, becomes y_pad/x_pad and a clipped transfer; the bounds are
//    expressions of the enclosing loops, evaluated per tile by the codegen.
// Stores read an acc buffer through its narrowed out copy (lower_alu rewrites
// out buffers as views of acc buffers). Copies the DMA cannot express (a
// non-affine index, padding with a non-zero value, a condition coupling x and
// y, a type conversion) raise tandem::Error naming the stage.
#pragma once

#include "compiler/ir/ir.h"
#include "isa/hw_config.h"

namespace tandem::accel {

ir::Stmt inject_dma(const ir::Stmt& body, const HwConfig& cfg);

}  // namespace tandem::accel
