// Symbolic interval evaluation (see interval.h): exact for affine forms,
// conservative for the non-linear atoms.
#include "compiler/ir/interval.h"

#include "compiler/ir/linear.h"
#include "compiler/ir/op.h"
#include "compiler/ir/substitute.h"

namespace tandem::ir {

namespace {

class IntervalEval {
 public:
  IntervalEval(const IntervalMap& dom, const Analyzer& an) : dom_(dom), an_(an) {
    for (const auto& [v, _] : dom) vars_.insert(v);
  }

  Interval eval(const Expr& e) {
    if (!uses_var(e, vars_)) return Interval::point(e);
    if (const VarNode* v = e.as<VarNode>()) return dom_.at(v);
    switch (e.node_type()) {
      case NodeType::kAdd:
      case NodeType::kSub:
      case NodeType::kMul:
        return linear(e);
      case NodeType::kFloorDiv: {
        auto* n = e.as<FloorDivNode>();
        const std::int64_t* c = as_const_int(n->b);
        if (!c || *c <= 0) return {};
        Interval a = eval(n->a);
        return {a.min.defined() ? floordiv(a.min, n->b) : Expr(),
                a.max.defined() ? floordiv(a.max, n->b) : Expr()};
      }
      case NodeType::kFloorMod: {
        auto* n = e.as<FloorModNode>();
        const std::int64_t* c = as_const_int(n->b);
        if (!c || *c <= 0) return {};
        return {make_const(e.dtype(), 0), make_const(e.dtype(), *c - 1)};
      }
      case NodeType::kMin: {
        auto* n = e.as<MinNode>();
        Interval a = eval(n->a), b = eval(n->b);
        return {both(a.min, b.min, [](Expr x, Expr y) { return min(x, y); }),
                a.max.defined() && b.max.defined() ? min(a.max, b.max)
                                                   : (a.max.defined() ? a.max : b.max)};
      }
      case NodeType::kMax: {
        auto* n = e.as<MaxNode>();
        Interval a = eval(n->a), b = eval(n->b);
        return {a.min.defined() && b.min.defined() ? max(a.min, b.min)
                                                   : (a.min.defined() ? a.min : b.min),
                both(a.max, b.max, [](Expr x, Expr y) { return max(x, y); })};
      }
      case NodeType::kSelect: {
        auto* n = e.as<SelectNode>();
        return union_of(eval(n->true_value), eval(n->false_value));
      }
      case NodeType::kCast: {
        auto* n = e.as<CastNode>();
        if (dtype_bits(n->dtype) < dtype_bits(n->value.dtype())) return {};
        Interval a = eval(n->value);
        return {a.min.defined() ? cast(e.dtype(), a.min) : Expr(),
                a.max.defined() ? cast(e.dtype(), a.max) : Expr()};
      }
      default:
        return {};
    }
  }

 private:
  template <typename F>
  static Expr both(const Expr& a, const Expr& b, F f) {
    return a.defined() && b.defined() ? f(a, b) : Expr();
  }
  static Interval union_of(const Interval& a, const Interval& b) {
    return {both(a.min, b.min, [](Expr x, Expr y) { return min(x, y); }),
            both(a.max, b.max, [](Expr x, Expr y) { return max(x, y); })};
  }

  // Affine combination: each term contributes coeff * interval(atom).
  Interval linear(const Expr& e) {
    LinearForm f = to_linear(e);
    Expr lo = make_const(e.dtype(), f.constant), hi = lo;
    for (const LinearTerm& t : f.terms) {
      // A product of two non-constants over varying vars: not affine.
      if (t.atom.node_type() == NodeType::kMul && uses_var(t.atom, vars_)) return {};
      Interval a = eval(t.atom);
      Expr c = make_const(e.dtype(), t.coeff);
      Expr tmin = t.coeff > 0 ? a.min : a.max;
      Expr tmax = t.coeff > 0 ? a.max : a.min;
      lo = lo.defined() && tmin.defined() ? lo + tmin * c : Expr();
      hi = hi.defined() && tmax.defined() ? hi + tmax * c : Expr();
    }
    return {lo, hi};
  }

  const IntervalMap& dom_;
  const Analyzer& an_;
  VarSet vars_;
};

}  // namespace

Interval eval_interval(const Expr& e, const IntervalMap& dom, const Analyzer& analyzer) {
  IntervalEval ev(dom, analyzer);
  Interval r = ev.eval(e);
  if (r.min.defined()) r.min = analyzer.simplify(r.min);
  if (r.max.defined()) r.max = analyzer.simplify(r.max);
  return r;
}

Interval union_interval(const Interval& a, const Interval& b, const Analyzer& analyzer) {
  Interval r;
  if (a.min.defined() && b.min.defined()) r.min = analyzer.simplify(min(a.min, b.min));
  if (a.max.defined() && b.max.defined()) r.max = analyzer.simplify(max(a.max, b.max));
  return r;
}

}  // namespace tandem::ir
