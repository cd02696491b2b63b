// The accelerator back end: lowered function -> relocatable isa::Program.
//
// build_accel() runs the accelerator passes in order on compiler::lower()'s
// output (compiler/README.md, "Contract with the accelerator back end"):
//   lower_alu          in-place ALU storage, out views, "alu" stages -> ALU calls
//   inject_dma         "dma_copy" nests -> 2D dma_load / dma_store calls
//   fold_uop_kernels   GEMM/ALU call nests -> micro-op kernels (2 folded loops)
//   inject_vthread     virtual threads -> per-thread buffers, interleaved leaves
//   plan_sram          SRAM addresses + capacity check
//   codegen            unrolled emission through isa::ProgramBuilder with
//                      dependency tokens (dependency.h)
// The program's DRAM buffers are the function's arguments, by name.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "compiler/accel/codegen.h"
#include "compiler/build.h"
#include "isa/hw_config.h"
#include "isa/program.h"

namespace tandem::accel {

struct AccelOptions {
  // Called after each IR pass with the pass name and its output.
  std::function<void(const std::string& pass, const ir::Stmt& body)> dump_ir;
  // If set, the IR after each pass is printed there under "// ---- <pass> ----".
  std::ostream* dump_stream = nullptr;
};

struct AccelStats {
  CodegenStats codegen;
  std::uint32_t peak_inp = 0, peak_wgt = 0, peak_acc = 0;  // SRAM elements in use at peak
};

struct AccelProgram {
  isa::Program program;
  AccelStats stats;
};

AccelProgram build_accel(const compiler::LoweredFunc& f, const HwConfig& cfg,
                         const AccelOptions& options = {});

std::vector<std::string> accel_pass_names();

}  // namespace tandem::accel
