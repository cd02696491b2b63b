// Expression rules of the simplifier (see simplify.h for the list).
#include <algorithm>

#include "compiler/ir/const_fold.h"
#include "compiler/ir/linear.h"
#include "compiler/ir/simplify_impl.h"

namespace tandem::ir {

namespace {

const std::int64_t* cint(const Expr& e) {
  return as_const_int(e);
}

Expr fold(NodeType t, const Expr& a, const Expr& b) {
  const std::int64_t* x = cint(a);
  const std::int64_t* y = cint(b);
  if (!x || !y) return Expr();
  bool ok = false;
  std::int64_t v = fold_binary(t, a.dtype(), *x, *y, &ok);
  if (!ok) return Expr();
  bool is_bool = t >= NodeType::kEQ && t <= NodeType::kOr;
  return make_const(is_bool ? DType::kBool : a.dtype(), v);
}

// Rebuild self only when the simplified children differ.
template <typename N>
Expr rebuild(const N* op, const Expr& self, const Expr& a, const Expr& b) {
  if (a.same_as(op->a) && b.same_as(op->b)) return self;
  return N::make(a, b);
}

Expr keep_if_same(const Expr& result, const Expr& self) {
  return compare_expr(result, self) == 0 && result.dtype() == self.dtype() ? self : result;
}

}  // namespace

namespace {
// (x/c)*(k*c) + (x%c)*k -> x*k: recombines what fuse and split take apart.
bool merge_div_mod(LinearForm& f) {
  for (size_t m = 0; m < f.terms.size(); ++m) {
    const FloorModNode* mod = f.terms[m].atom.as<FloorModNode>();
    const std::int64_t* c = mod ? cint(mod->b) : nullptr;
    if (!c || *c <= 0) continue;
    std::int64_t k = f.terms[m].coeff;
    for (size_t d = 0; d < f.terms.size(); ++d) {
      const FloorDivNode* div = f.terms[d].atom.as<FloorDivNode>();
      if (!div || !is_const_int(div->b, *c) || f.terms[d].coeff != k * *c) continue;
      if (compare_expr(div->a, mod->a) != 0) continue;
      Expr x = mod->a;
      f.terms.erase(f.terms.begin() + static_cast<std::ptrdiff_t>(std::max(m, d)));
      f.terms.erase(f.terms.begin() + static_cast<std::ptrdiff_t>(std::min(m, d)));
      f = add(f, scale(to_linear(x), k));
      return true;
    }
  }
  return false;
}
}  // namespace

Expr Simplifier::linear_arith(const Expr& rebuilt, const Expr& self) {
  LinearForm f = to_linear(rebuilt);
  while (merge_div_mod(f)) {
  }
  return keep_if_same(from_linear(f), self);
}

Expr Simplifier::visit(const AddNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kAdd, a, b); f.defined()) return f;
  return linear_arith(rebuild(op, self, a, b), self);
}

Expr Simplifier::visit(const SubNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kSub, a, b); f.defined()) return f;
  return linear_arith(rebuild(op, self, a, b), self);
}

Expr Simplifier::visit(const MulNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kMul, a, b); f.defined()) return f;
  if (!cint(a) && !cint(b)) {
    if (compare_expr(b, a) < 0) std::swap(a, b);  // canonical operand order
    Expr r = (a.same_as(op->a) && b.same_as(op->b)) ? self : MulNode::make(a, b);
    return r;
  }
  return linear_arith(rebuild(op, self, a, b), self);
}

// floordiv / floormod of a by a positive constant c.
Expr Simplifier::div_mod(bool is_div, const Expr& a, std::int64_t c) {
  DType d = a.dtype();
  // Nested: (x / c1) / c -> x / (c1 * c);  (x % c1) % c -> x % c when c | c1.
  if (const FloorDivNode* inner = a.as<FloorDivNode>(); is_div && inner) {
    const std::int64_t* c1 = cint(inner->b);
    if (c1 && *c1 > 0 && *c1 * c <= dtype_max(d)) return div_mod(true, inner->a, *c1 * c);
  }
  if (const FloorModNode* inner = a.as<FloorModNode>(); !is_div && inner) {
    const std::int64_t* c1 = cint(inner->b);
    if (c1 && *c1 > 0 && *c1 % c == 0) return div_mod(false, inner->a, c);
  }
  // a = c*q + r: split the linear form by coefficient divisibility.
  LinearForm f = to_linear(a);
  LinearForm q, r;
  q.dtype = r.dtype = d;
  for (const LinearTerm& t : f.terms) {
    if (t.coeff % c == 0) {
      q.terms.push_back(LinearTerm{t.atom, t.coeff / c});
    } else {
      r.terms.push_back(t);
    }
  }
  q.constant = floor_div(f.constant, c);
  r.constant = floor_mod(f.constant, c);
  Expr re = from_linear(r);
  ConstBounds br = bounds(re);
  std::int64_t k = 0;  // floor(r / c) when it is a known constant
  bool known = br.min && br.max && floor_div(*br.min, c) == floor_div(*br.max, c);
  if (known) k = floor_div(*br.min, c);
  if (is_div) {
    if (known) {
      q.constant = wrap_to(d, q.constant + k);
      return from_linear(q);
    }
    ConstBounds ba = bounds(a);
    if (ba.min && ba.max && floor_div(*ba.min, c) == floor_div(*ba.max, c)) {
      return make_const(d, floor_div(*ba.min, c));
    }
    Expr tail = FloorDivNode::make(re, make_const(d, c));
    if (const FloorDivNode* in = re.as<FloorDivNode>()) {  // (x/c1)/c -> x/(c1*c)
      const std::int64_t* c1 = cint(in->b);
      if (c1 && *c1 > 0 && *c1 * c <= dtype_max(d)) tail = div_mod(true, in->a, *c1 * c);
    }
    if (q.is_const() && q.constant == 0) return tail;
    return from_linear(add(q, to_linear(tail)));
  }
  if (known) {
    r.constant = wrap_to(d, r.constant - k * c);
    return from_linear(r);
  }
  // The whole numerator within one block of c: a % c = a - q*c.
  ConstBounds ba = bounds(a);
  if (ba.min && ba.max && floor_div(*ba.min, c) == floor_div(*ba.max, c)) {
    f.constant = wrap_to(d, f.constant - floor_div(*ba.min, c) * c);
    return from_linear(f);
  }
  return FloorModNode::make(re, make_const(d, c));
}

Expr Simplifier::visit(const FloorDivNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kFloorDiv, a, b); f.defined()) return f;
  const std::int64_t* c = cint(b);
  if (c && *c == 1) return a;
  if (c && *c > 0) return keep_if_same(div_mod(true, a, *c), self);
  return rebuild(op, self, a, b);
}

Expr Simplifier::visit(const FloorModNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kFloorMod, a, b); f.defined()) return f;
  const std::int64_t* c = cint(b);
  if (c && *c == 1) return make_const(a.dtype(), 0);
  if (c && *c > 0) return keep_if_same(div_mod(false, a, *c), self);
  return rebuild(op, self, a, b);
}

namespace {
// Sign of a - b when provable: -1 (a <= b), +1 (a >= b), 0 unknown.
int order(const Simplifier& s, const Expr& a, const Expr& b) {
  if (compare_expr(a, b) == 0) return -1;
  LinearForm d = sub(to_linear(a), to_linear(b));
  ConstBounds bd = s.bounds(from_linear(d));
  if (bd.max && *bd.max <= 0) return -1;
  if (bd.min && *bd.min >= 0) return 1;
  return 0;
}
}  // namespace

Expr Simplifier::visit(const MinNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kMin, a, b); f.defined()) return f;
  int o = order(*this, a, b);
  if (o < 0) return a;
  if (o > 0) return b;
  if (cint(a)) std::swap(a, b);
  // min(min(x, c1), c2) -> min(x, min(c1, c2))
  if (const MinNode* in = a.as<MinNode>(); in && cint(in->b) && cint(b)) {
    return MinNode::make(in->a, make_const(a.dtype(), std::min(*cint(in->b), *cint(b))));
  }
  return rebuild(op, self, a, b);
}

Expr Simplifier::visit(const MaxNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kMax, a, b); f.defined()) return f;
  int o = order(*this, a, b);
  if (o < 0) return b;
  if (o > 0) return a;
  if (cint(a)) std::swap(a, b);
  if (const MaxNode* in = a.as<MaxNode>(); in && cint(in->b) && cint(b)) {
    return MaxNode::make(in->a, make_const(a.dtype(), std::max(*cint(in->b), *cint(b))));
  }
  return rebuild(op, self, a, b);
}

Expr Simplifier::visit(const ShlNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kShl, a, b); f.defined()) return f;
  if (is_const_int(b, 0)) return a;
  return rebuild(op, self, a, b);
}

Expr Simplifier::visit(const ShrNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (Expr f = fold(NodeType::kShr, a, b); f.defined()) return f;
  if (is_const_int(b, 0)) return a;
  return rebuild(op, self, a, b);
}

// Comparisons: decided from the bounds of a - b, else canonicalized to
// "terms OP constant" when one side is a constant.
Expr Simplifier::compare(NodeType t, const Expr& a, const Expr& b, const Expr& self) {
  if (Expr f = fold(t, a, b); f.defined()) return f;
  LinearForm d = sub(to_linear(a), to_linear(b));
  ConstBounds bd = bounds(from_linear(d));
  auto decided = [&](bool v) { return make_bool(v); };
  auto lo = bd.min, hi = bd.max;
  switch (t) {
    case NodeType::kLT:
      if (hi && *hi < 0) return decided(true);
      if (lo && *lo >= 0) return decided(false);
      break;
    case NodeType::kLE:
      if (hi && *hi <= 0) return decided(true);
      if (lo && *lo > 0) return decided(false);
      break;
    case NodeType::kGT:
      if (lo && *lo > 0) return decided(true);
      if (hi && *hi <= 0) return decided(false);
      break;
    case NodeType::kGE:
      if (lo && *lo >= 0) return decided(true);
      if (hi && *hi < 0) return decided(false);
      break;
    case NodeType::kEQ:
      if (d.is_const()) return decided(d.constant == 0);
      if ((lo && *lo > 0) || (hi && *hi < 0)) return decided(false);
      break;
    case NodeType::kNE:
      if (d.is_const()) return decided(d.constant != 0);
      if ((lo && *lo > 0) || (hi && *hi < 0)) return decided(true);
      break;
    default:
      break;
  }
  if (a.dtype() == DType::kBool || (!cint(a) && !cint(b))) {
    Expr r;
    switch (t) {
#define TANDEM_CMP(n)        \
  case NodeType::k##n:       \
    r = n##Node::make(a, b); \
    break;
      TANDEM_CMP(EQ)
      TANDEM_CMP(NE)
      TANDEM_CMP(LT)
      TANDEM_CMP(LE)
      TANDEM_CMP(GT)
      TANDEM_CMP(GE)
#undef TANDEM_CMP
      default:
        return self;
    }
    return keep_if_same(r, self);
  }
  // One side constant: move every constant to the right, terms to the left.
  bool flip = cint(a) != nullptr;  // constant on the left: terms come from b
  LinearForm terms = flip ? scale(d, -1) : d;
  std::int64_t rhs = -terms.constant;
  terms.constant = 0;
  Expr lhs = from_linear(terms), k = make_const(a.dtype(), rhs);
  NodeType nt = t;
  if (flip) {
    // "c OP x + k" is "x OP' c - k" with OP' the mirrored relation.
    switch (t) {
      case NodeType::kLT:
        nt = NodeType::kGT;
        break;
      case NodeType::kLE:
        nt = NodeType::kGE;
        break;
      case NodeType::kGT:
        nt = NodeType::kLT;
        break;
      case NodeType::kGE:
        nt = NodeType::kLE;
        break;
      default:
        break;
    }
  }
  Expr r;
  switch (nt) {
    case NodeType::kEQ:
      r = EQNode::make(lhs, k);
      break;
    case NodeType::kNE:
      r = NENode::make(lhs, k);
      break;
    case NodeType::kLT:
      r = LTNode::make(lhs, k);
      break;
    case NodeType::kLE:
      r = LENode::make(lhs, k);
      break;
    case NodeType::kGT:
      r = GTNode::make(lhs, k);
      break;
    case NodeType::kGE:
      r = GENode::make(lhs, k);
      break;
    default:
      return self;
  }
  return keep_if_same(r, self);
}

#define TANDEM_CMP(n)                                              \
  Expr Simplifier::visit(const n##Node* op, const Expr& self) {    \
    Expr a = mutate(op->a), b = mutate(op->b);                     \
    return compare(NodeType::k##n, a, b, rebuild(op, self, a, b)); \
  }
TANDEM_CMP(EQ)
TANDEM_CMP(NE)
TANDEM_CMP(LT)
TANDEM_CMP(LE)
TANDEM_CMP(GT)
TANDEM_CMP(GE)
#undef TANDEM_CMP

Expr Simplifier::visit(const AndNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (const std::int64_t* x = cint(a)) return *x ? b : a;
  if (const std::int64_t* y = cint(b)) return *y ? a : b;
  if (compare_expr(a, b) == 0) return a;
  return rebuild(op, self, a, b);
}

Expr Simplifier::visit(const OrNode* op, const Expr& self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (const std::int64_t* x = cint(a)) return *x ? a : b;
  if (const std::int64_t* y = cint(b)) return *y ? b : a;
  if (compare_expr(a, b) == 0) return a;
  return rebuild(op, self, a, b);
}

Expr Simplifier::visit(const NotNode* op, const Expr& self) {
  Expr a = mutate(op->a);
  if (const std::int64_t* x = cint(a)) return make_bool(*x == 0);
  if (const NotNode* n = a.as<NotNode>()) return n->a;
  if (auto* n = a.as<LTNode>()) return GENode::make(n->a, n->b);
  if (auto* n = a.as<LENode>()) return GTNode::make(n->a, n->b);
  if (auto* n = a.as<GTNode>()) return LENode::make(n->a, n->b);
  if (auto* n = a.as<GENode>()) return LTNode::make(n->a, n->b);
  if (auto* n = a.as<EQNode>()) return NENode::make(n->a, n->b);
  if (auto* n = a.as<NENode>()) return EQNode::make(n->a, n->b);
  return a.same_as(op->a) ? self : NotNode::make(a);
}

Expr Simplifier::visit(const SelectNode* op, const Expr& self) {
  Expr c = mutate(op->cond), t = mutate(op->true_value), f = mutate(op->false_value);
  if (const std::int64_t* x = cint(c)) return *x ? t : f;
  if (compare_expr(t, f) == 0) return t;
  if (c.same_as(op->cond) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self;
  return SelectNode::make(c, t, f);
}

Expr Simplifier::visit(const CastNode* op, const Expr& self) {
  Expr v = mutate(op->value);
  if (v.dtype() == op->dtype) return v;
  if (const std::int64_t* x = cint(v)) return make_const(op->dtype, *x);
  // A widening cast of a widening cast: cast(int32, cast(int16, x:int8)) -> cast(int32, x).
  if (const CastNode* in = v.as<CastNode>()) {
    int b0 = dtype_bits(in->value.dtype()), b1 = dtype_bits(in->dtype), b2 = dtype_bits(op->dtype);
    if (in->value.dtype() != DType::kBool && b0 <= b1 && b1 <= b2) {
      return CastNode::make(op->dtype, in->value);
    }
  }
  return v.same_as(op->value) ? self : CastNode::make(op->dtype, v);
}

Expr Simplifier::visit(const ReduceNode* op, const Expr& self) {
  std::vector<const VarNode*> bound;
  for (size_t i = 0; i < op->axis.size(); ++i) {
    const std::int64_t* mn = cint(op->dom[i].min);
    const std::int64_t* ex = cint(op->dom[i].extent);
    if (mn && ex) {
      push(op->axis[i].get(), ConstBounds{*mn, *mn + *ex - 1});
      bound.push_back(op->axis[i].get());
    }
  }
  Expr r = IRMutator::visit(op, self);
  for (const VarNode* v : bound) pop(v);
  return r;
}

}  // namespace tandem::ir
