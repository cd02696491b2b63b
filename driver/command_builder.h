// Command builder: writing accelerator programs by hand.
//
// The driver's command builder IS isa::ProgramBuilder (isa/program_builder.h):
// 2D DMA with relocation against named buffers, dependency push/pop with
// folding into neighbouring instructions, micro-op kernels with two loop
// levels and a resident-kernel cache, raw instructions, FINISH. It lives in
// isa/ so that the compiler (which may not depend on the driver) emits
// programs through the same code. This header only gives it its driver name;
// nothing is implemented twice.
//
// Typical use (see tests/integration/ for many more):
//   driver::CommandBuilder b(cfg);
//   b.declare_buffer("X", bytes);
//   b.load(isa::MemType::kAcc, 0, {"X", 0}, 1, rows, rows);
//   b.kernel(isa::KernelOp::alu_imm(isa::AluOp::kMax, 0), {{rows, 1, 1, 0}}, {{0, 0, 0}});
//   b.push_dep(isa::Module::kCompute, isa::Module::kStore);
//   b.pop_dep(isa::Module::kCompute, isa::Module::kStore);
//   b.store(0, {"Y", 0}, 1, rows, rows);
//   isa::Program p = b.finish();
//   runtime.run(p);
#pragma once

#include "isa/program_builder.h"

namespace tandem::driver {

using CommandBuilder = isa::ProgramBuilder;
using isa::DramRef;
using isa::KernelLoop;
using isa::KernelOp;
using isa::Pad;

}  // namespace tandem::driver
