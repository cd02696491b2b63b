// Accelerator code generation: the lowered, accelerator-pass IR -> isa::Program.
//
// Walks the IR left by lower_alu, inject_dma, fold_uop_kernels and
// inject_vthread, unrolling every remaining loop at compile time (the
// accelerator has no branches): each dma_load / dma_store call becomes a
// LOAD / STORE relocated against the global buffer it names, each
// uop_kernel becomes a GEMM/ALU instruction over a micro-op kernel (the
// ProgramBuilder keeps kernels resident and reuses them). SRAM addresses
// come from plan_sram(). Two passes: the instruction list with its SRAM
// ranges is built first, the DependencyTracker plans the tokens, then
// everything is emitted through isa::ProgramBuilder (which folds the
// tokens into the instructions).
// Errors (tandem::Error): a statement the accelerator cannot run (a scalar
// store, a host buffer), a DMA whose padding exceeds the 4-bit pad fields, a
// micro-op index that does not fit its buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/accel/sram_alloc.h"
#include "compiler/ir/ir.h"
#include "isa/hw_config.h"
#include "isa/program.h"

namespace tandem::accel {

struct CodegenStats {
  std::uint64_t loads = 0, stores = 0, kernels = 0;  // DMA and GEMM/ALU instructions planned
  std::uint64_t tokens = 0;                          // push/pop pairs
  std::uint64_t kernel_hits = 0, uop_loads = 0;      // ProgramBuilder kernel cache
};

// `args`: the global buffers (each becomes a DramBuffer of its byte size).
isa::Program codegen(const ir::Stmt& body, const std::vector<ir::Buffer>& args,
                     const SramPlan& plan, const HwConfig& cfg, CodegenStats* stats = nullptr);

}  // namespace tandem::accel
