// The dataflow graph of a schedule as lowering sees it.
//
// Inlined stages are substituted into their readers first (the effective
// bodies), so "consumer" means a stage that reads the tensor after inlining.
// Only computable stages appear in `order` (not placeholders, not inlined).
#pragma once

#include <map>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace tandem::te {

struct StageGraph {
  std::vector<StageNode*> order;          // producers before consumers
  std::map<const StageNode*, Expr> body;  // effective body per computable stage
  std::map<const StageNode*, std::vector<StageNode*>> consumers;
  std::map<const ir::BufferNode*, StageNode*> stage_of;  // tensor buffer -> its stage (all stages)

  StageNode* find(const ir::Buffer& b) const {
    auto it = stage_of.find(b.get());
    return it == stage_of.end() ? nullptr : it->second;
  }
};

StageGraph build_graph(const Schedule& sch);

// Every Load of buffer b in e, as index vectors.
std::vector<std::vector<Expr>> accesses_of(const Expr& e, const ir::Buffer& b);

}  // namespace tandem::te
