// The intrinsic calls the accelerator passes produce and consume.
//
// Input (from compiler/lower + tensorize, see compiler/README.md): gemm_reset,
// gemm_update, alu_<op>_imm, alu_<op>. Produced here:
//   dma_load<S:inp|wgt|acc, G:global>(sram, dram, y_size, x_size, x_stride,
//                                      y_pad0, y_pad1, x_pad0, x_pad1)
//   dma_store<S:acc, G:global>(sram, dram, y_size, x_size, x_stride)
//       (S is the acc buffer whose narrowed copy the out SRAM holds: GEMM and
//        ALU write out[a] = narrow(acc[a]), so an out tile IS its acc tile)
//   alu_reset<D:acc>(d)                          D[d] = 0
//   uop<C:acc, S:inp|acc, W:wgt>(dst, src, wgt)  one micro-op of a kernel
//   AttrStmt("uop_kernel", kernel_header(...), text, body of uop calls)
// Every SRAM index counts whole SRAM elements from the start of its buffer;
// every DRAM index counts elements of the DMA's memory type from the start of
// the global buffer. Argument k of dma_* / uop indexes buffers[k].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "isa/insn.h"
#include "isa/program_builder.h"

namespace tandem::accel {

inline constexpr const char* kDmaLoad = "dma_load";
inline constexpr const char* kDmaStore = "dma_store";
inline constexpr const char* kAluReset = "alu_reset";
inline constexpr const char* kUop = "uop";
inline constexpr const char* kUopKernelAttr = "uop_kernel";
inline constexpr const char* kKernelHeader = "kernel_header";

// The folded part of a micro-op kernel: what the GEMM/ALU instruction does
// and its two loop levels (extent 1 and zero factors when unused).
struct KernelHeader {
  isa::KernelOp op;
  isa::KernelLoop loops[2];
};

ir::Expr encode_kernel_header(const KernelHeader& h);
// tandem::Error (internal) when e is not a kernel_header call of constants.
KernelHeader decode_kernel_header(const ir::Expr& e);
std::string describe(const KernelHeader& h);

// dma_load, dma_store, uop: calls whose argument k indexes buffers[k].
bool is_accel_call(const std::string& name);

}  // namespace tandem::accel
