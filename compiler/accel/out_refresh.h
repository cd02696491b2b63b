// Part of lower_alu: out refresh for acc buffers stored straight from a DMA.
//
// The out SRAM only mirrors acc elements written by GEMM/ALU instructions.
// When a "dma_copy" stores int8(acc[a]) of an acc buffer that a DMA also
// fills (e.g. an int32 tensor loaded and narrowed without any arithmetic),
// out[a] would be stale; this pass inserts, right before such a store, an
// "alu" nest acc[a] = acc[a] + 0 over the same loops, which rewrites out[a].
#pragma once

#include "compiler/ir/ir.h"

namespace tandem::accel {

ir::Stmt refresh_dma_filled_acc(const ir::Stmt& body);

}  // namespace tandem::accel
