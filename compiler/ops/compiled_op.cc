// CompiledOp helpers (see compiled_op.h).
#include "compiler/ops/compiled_op.h"

namespace tandem::ops {

std::uint64_t CompiledOp::uops_executed() const {
  std::uint64_t n = 0;
  for (const isa::Instruction& i : program.insns)
    if (i.opcode == isa::Opcode::kGemm || i.opcode == isa::Opcode::kAlu) n += isa::uop_count(i);
  return n;
}

}  // namespace tandem::ops

#include <chrono>
#include <sstream>

#include "compiler/build.h"

namespace tandem::ops {

CompiledOp build_op(const std::string& name, const te::Schedule& s,
                    const std::vector<te::Tensor>& args, const HwConfig& cfg,
                    const CompileOptions& opts) {
  using clock = std::chrono::steady_clock;
  CompiledOp op;
  op.name = name;
  std::ostringstream dump;
  compiler::LowerOptions lo;
  std::ostream* out = opts.dump_stream ? opts.dump_stream : (opts.dump_ir ? &dump : nullptr);
  lo.dump_stream = out;
  const auto t0 = clock::now();
  compiler::LoweredFunc f = compiler::lower(s, args, name, lo);
  const auto t1 = clock::now();
  accel::AccelOptions ao;
  ao.dump_stream = out;
  accel::AccelProgram p = accel::build_accel(f, cfg, ao);
  const auto t2 = clock::now();
  op.program = std::move(p.program);
  op.stats = p.stats;
  op.lower_seconds = std::chrono::duration<double>(t1 - t0).count();
  op.accel_seconds = std::chrono::duration<double>(t2 - t1).count();
  op.ir_dump = dump.str();
  return op;
}

}  // namespace tandem::ops
