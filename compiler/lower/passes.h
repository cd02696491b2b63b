// The generic lowering passes, one per file in compiler/lower/, in the order
// compiler::lower() runs them. Each takes the whole function body.
#pragma once

#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/schedule/schedule.h"

namespace tandem::pass {

// schedule_ops.cc: bound inference, loop nests of every stage, compute_at
// placement, inlining, reduction init, pragmas, For kinds, tensorize calls
// (with tensor_addr operands). Buffers are still n-D; `args` are the tensors
// the caller binds (stored in place, never allocated).
ir::Stmt schedule_ops(const te::Schedule& sch, const std::vector<te::Tensor>& args);

// storage_flatten.cc: every buffer becomes 1-D (row-major); `flat_args`
// receives the flattened buffers of `args`, same order.
ir::Stmt storage_flatten(const ir::Stmt& body, const std::vector<ir::Buffer>& args,
                         std::vector<ir::Buffer>* flat_args);

// simplify_pass.cc: the range-aware arithmetic simplifier over the body.
ir::Stmt simplify_pass(const ir::Stmt& body);

// intrin_offsets.cc: tensor_addr(Load(buf, {flat}), elem) operands of
// intrinsic calls -> the call's buffers + element offsets flat/elem
// (divisibility proven; tandem::Error otherwise).
ir::Stmt intrin_offsets(const ir::Stmt& body);

// remove_unit_loops.cc: For loops of extent 1 are replaced by their body
// with the loop variable substituted by the loop min.
ir::Stmt remove_unit_loops(const ir::Stmt& body);

}  // namespace tandem::pass
