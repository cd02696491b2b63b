// Internal to schedule_ops: the state shared by the whole-schedule driver
// (schedule_ops.cc) and the per-stage loop nest builder (make_nest.cc).
#pragma once

#include <map>
#include <set>
#include <vector>

#include "compiler/schedule/bound.h"

namespace tandem::pass {

// Where a stage's output lives during lowering.
struct Realized {
  ir::Buffer buffer;          // n-D; the tensor itself for arguments
  std::vector<ir::Expr> min;  // subtracted from absolute indices (empty: args)
  bool allocate = false;      // needs an Allocate at its attach point
};

struct LowerState {
  te::StageGraph graph;
  te::BoundMap bounds;
  std::map<const te::StageNode*, Realized> realized;
  // Stages computed at each (stage, leaf axis), producers first.
  std::map<std::pair<const te::StageNode*, const te::IterVarNode*>, std::vector<te::StageNode*>>
      attached;
};

// The loop nest of stage s, with the stages attached inside it.
ir::Stmt make_nest(LowerState& st, te::StageNode* s);
// Wraps `inner` (the code following s inside the same scope) with s's nest
// and, for intermediates, its Allocate.
ir::Stmt place_stage(LowerState& st, te::StageNode* s, const ir::Stmt& inner);
// Rewrites loads of realized tensors to their buffers, minus region mins.
ir::Expr rebase_loads(const LowerState& st, const ir::Expr& e);

}  // namespace tandem::pass
