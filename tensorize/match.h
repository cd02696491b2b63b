// The tensorize matcher: compares one scheduled loop region with an
// Intrinsic's compute definition and, on success, returns the calls that
// replace the region.
//
// The caller (compiler/lower/schedule_ops) describes the region at the
// tensorize axis: the loops from that axis inwards, the stage's store target
// (n-D indices) and its per-point value, all in terms of the region's loop
// variables and of outer variables. The matcher
//  1. pairs the region's spatial loops with the intrinsic's spatial axes and
//     its reduce loops with the intrinsic's reduce axes, in order (extent-1
//     loops and extent-1 intrinsic axes are ignored), checking extents;
//  2. checks dtype, scope and access pattern of the output and of every load:
//     the trailing dimensions of each buffer must be indexed exactly by the
//     intrinsic's axes (base + axis var), leading dimensions must not depend
//     on the region, and all trailing dimensions but the first must have the
//     intrinsic operand's extent (so the tile is contiguous);
//  3. compares the value with the intrinsic body structurally (commutative
//     operators in either order), binding the intrinsic's parameters to
//     constants within [param_min, param_max].
// Any failure throws tandem::Error naming intrinsic, stage and axis, printing
// the first mismatching sub-expression of both sides, and saying what to
// change. The returned statements are
//   Evaluate(name(tensor_addr(Load(buf, base...), elem_size), ..., params...))
// where each operand address is kept as a `tensor_addr` call around a Load so
// that storage flattening rewrites its indices; compiler/lower/intrin_offsets
// turns them into element offsets (see compiler/README.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "tensorize/intrinsic.h"

namespace tandem::tensorize {

struct RegionLoop {
  ir::Var var;
  std::int64_t extent = 1;
  bool reduce = false;
  std::string name;       // loop (leaf axis) name
  std::string root_name;  // the root axis it was derived from, for hints
};

struct TensorizeRequest {
  std::string stage;  // for messages
  std::string axis;
  std::vector<RegionLoop> loops;  // from the tensorize axis inwards
  ir::Buffer output;
  std::vector<ir::Expr> output_indices;
  ir::Expr value;                         // per-point value (reductions: the source)
  std::optional<ir::ReduceOp> reduce_op;  // set when the stage is a reduction
};

struct TensorizeCalls {
  ir::Stmt reset;   // reductions only: writes the identity over the output tile
  ir::Stmt update;  // one whole intrinsic computation
};

TensorizeCalls match_intrinsic(const Intrinsic& intrin, const TensorizeRequest& req);

// Name of the address-of call wrapping operand loads before intrin_offsets.
inline constexpr const char* kTensorAddr = "tensor_addr";

}  // namespace tandem::tensorize
