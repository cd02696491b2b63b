// Symbolic interval analysis for bound inference.
//
// eval_interval() bounds an expression when some variables range over
// (possibly symbolic) intervals and all other variables are held fixed.
// Exact for affine expressions (sums of constant multiples of variables) and
// conservative for min/max/floordiv/floormod by positive constants, select
// and loads (loads are unbounded unless their dtype bounds them). The result
// bounds are simplified expressions in the fixed variables.
#pragma once

#include <unordered_map>

#include "compiler/ir/ir.h"
#include "compiler/ir/simplify.h"

namespace tandem::ir {

// Inclusive interval [min, max]; undefined side = unbounded.
struct Interval {
  Expr min;
  Expr max;
  bool bounded() const { return min.defined() && max.defined(); }
  static Interval point(const Expr& e) { return {e, e}; }
};

using IntervalMap = std::unordered_map<const VarNode*, Interval>;

// `analyzer` provides constant ranges of the fixed variables for simplification.
Interval eval_interval(const Expr& e, const IntervalMap& dom, const Analyzer& analyzer = {});
// Union of two intervals (min of mins, max of maxes), simplified.
Interval union_interval(const Interval& a, const Interval& b, const Analyzer& analyzer = {});

}  // namespace tandem::ir
