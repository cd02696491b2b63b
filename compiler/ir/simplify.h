// The arithmetic simplifier.
//
// What it does:
//  - constant folding of every integer/bool operator (with dtype wrapping);
//  - canonical linear form for int32 arithmetic: sums of coeff*term + const,
//    terms sorted by Var id (non-linear sub-terms such as loads or floordivs
//    are atoms ordered structurally), so affine index arithmetic folds:
//    (i*16 + j) - (i*16) -> j,  (x + 3) - 1 -> x + 2;
//  - floordiv/floormod by positive constants: (a*c + b) / c -> a + b/c and
//    (a*c + b) % c -> b % c; b/c -> 0 and b%c -> b when 0 <= b < c is
//    provable from the known ranges; nested divisions (x/a)/b -> x/(a*b);
//  - min/max with constants and provable orderings;
//  - comparisons decided from the known ranges of variables (loop extents,
//    bindings), And/Or/Not/Select with known conditions;
//  - statements: For with extent <= 0 removed (unit loops are kept; see the
//    remove_unit_loops pass), IfThenElse with provable conditions removed,
//    loop ranges used while
//    simplifying the body, empty Seqs dropped.
// Ranges are constant intervals; a var without a known range is unbounded.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "compiler/ir/ir.h"

namespace tandem::ir {

// Inclusive constant bounds; nullopt side = unbounded.
struct ConstBounds {
  std::optional<std::int64_t> min;
  std::optional<std::int64_t> max;
  bool is_point() const { return min && max && *min == *max; }
};

class Analyzer {
 public:
  // v ranges over [min, min + extent).
  void bind(const Var& v, std::int64_t min, std::int64_t extent);
  // Binds from a Range whose bounds are constant after simplification (else ignored).
  void bind(const Var& v, const Range& r);
  void unbind(const Var& v);
  // Bounds of an expression (interval arithmetic over the bound vars).
  ConstBounds bounds(const Expr& e) const;
  Expr simplify(const Expr& e) const;
  Stmt simplify(const Stmt& s) const;
  // True when cond (bool) is provably true for every value of the bound vars.
  bool can_prove(const Expr& cond) const;
  // True when a == b for all values (simplify(a - b) == 0).
  bool can_prove_equal(const Expr& a, const Expr& b) const;

  const std::unordered_map<const VarNode*, ConstBounds>& ranges() const { return ranges_; }

 private:
  std::unordered_map<const VarNode*, ConstBounds> ranges_;
};

Expr simplify(const Expr& e);
Stmt simplify(const Stmt& s);
bool can_prove(const Expr& cond);

}  // namespace tandem::ir
