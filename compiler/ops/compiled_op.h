// A compiled accelerator operator: the relocatable program and its figures.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compiler/accel/build_accel.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/te.h"
#include "isa/program.h"

namespace tandem::ops {

struct CompileOptions {
  bool dump_ir = false;                 // fill CompiledOp::ir_dump with the IR after every pass
  std::ostream* dump_stream = nullptr;  // also/instead print it there as it is produced
};

struct CompiledOp {
  std::string name;
  isa::Program program;
  accel::AccelStats stats;
  double lower_seconds = 0;  // schedule -> lowered IR
  double accel_seconds = 0;  // accelerator passes + codegen
  double compile_seconds() const { return lower_seconds + accel_seconds; }
  std::string ir_dump;

  std::uint64_t insn_count() const { return program.insns.size(); }
  std::uint64_t uop_count() const { return program.uops.size(); }
  // Micro-ops executed by all GEMM/ALU instructions.
  std::uint64_t uops_executed() const;
};

}  // namespace tandem::ops

namespace tandem::ops {

// Lowers the schedule, runs the accelerator back end, times both and
// collects the IR dumps: the one path every operator goes through.
CompiledOp build_op(const std::string& name, const te::Schedule& s,
                    const std::vector<te::Tensor>& args, const HwConfig& cfg,
                    const CompileOptions& opts);

}  // namespace tandem::ops
