// The lowering entry point: schedule -> lowered loop IR.
//
// lower() runs the generic passes in order (one pass per file in
// compiler/lower/, each Stmt -> Stmt):
//   schedule_ops      bound inference + loop nests, compute_at placement,
//                     inlining, reduction init, pragmas, tensorize calls
//   storage_flatten   n-D Load/Store/Allocate -> 1-D with row-major strides
//   simplify          arithmetic simplification with loop ranges
//   intrin_offsets    tensor-intrinsic operands -> element offsets
//   remove_unit_loops extent-1 loops substituted away (not pragma'd loops)
//   simplify          final cleanup
// and can report the IR after each pass. The result is the input of the
// accelerator passes (compiler/accel) and of the jit; its exact form is
// described in compiler/README.md, "Contract with the accelerator back end".
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/schedule/schedule.h"

namespace tandem::compiler {

struct LowerOptions {
  // Called after each pass with the pass name and the IR it produced.
  std::function<void(const std::string& pass, const ir::Stmt& body)> dump_ir;
  // If set, the IR after each pass is printed there under "// ---- <pass> ----".
  std::ostream* dump_stream = nullptr;
  bool remove_unit_loops = true;
};

struct LoweredFunc {
  std::string name;
  // Flattened (1-D, scope "global") buffers of the arguments, in the order
  // given to lower(); the body reads/writes exactly these buffer nodes.
  std::vector<ir::Buffer> args;
  // Original n-D shapes of the arguments, same order.
  std::vector<std::vector<std::int64_t>> arg_shapes;
  ir::Stmt body;
};

// args: the placeholders and outputs the caller will bind (every placeholder
// reachable from the outputs and every output must be listed; tandem::Error).
LoweredFunc lower(const te::Schedule& sch, const std::vector<te::Tensor>& args,
                  const std::string& name, const LowerOptions& options = {});

// The pass names, in the order lower() runs them.
std::vector<std::string> lower_pass_names();

}  // namespace tandem::compiler
