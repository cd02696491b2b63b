// Static bound inference.
//
// For every computable stage: the region of its output it must compute at
// its attach point (root_region: absolute min, possibly symbolic in the loop
// variables outside the attach point, and a CONSTANT extent), the extent of
// every axis (root, derived, leaf; all loops run over [0, extent)), the value
// of every axis as an expression of the leaf loop variables, and the guards
// needed when a split factor does not divide an extent.
//
// Regions come from the consumers' accesses: interval analysis of each load
// index over the consumer loops inside the attach point, unioned. Outputs
// are computed whole. A region whose extent is not constant is bounded by
// its constant maximum and clipped to the tensor's shape. Errors (tandem::Error):
// a stage computed at a loop its consumers are not nested in, unbounded
// accesses.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "compiler/schedule/graph.h"

namespace tandem::te {

struct StageBound {
  std::vector<Range> root_region;  // per root iter var (spatial then reduce)
  std::map<const IterVarNode*, std::int64_t> extent;
  std::map<const IterVarNode*, Expr> value;  // offset within the axis' range, in leaf vars
  std::vector<Expr> guards;                  // in leaf vars
  // Absolute index of root axis i: root_region[i].min + value(root i).
  Expr root_index(const StageNode* s, size_t i) const;
};

using BoundMap = std::map<const StageNode*, StageBound>;

BoundMap infer_bound(const StageGraph& g);

// Position of `iv` among the leaf axes of `s` (tandem::Error naming both when absent).
size_t leaf_index(const StageNode* s, const IterVar& iv, const char* what);

}  // namespace tandem::te
