// Canonical linear forms (see linear.h).
#include "compiler/ir/linear.h"

#include <algorithm>

#include "compiler/ir/op.h"

namespace tandem::ir {

namespace {

int cmp_int(std::int64_t a, std::int64_t b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

int compare_list(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return cmp_int(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (int c = compare_expr(a[i], b[i])) return c;
  }
  return 0;
}

// Vars sort before every other atom.
int rank(const Expr& e) {
  return e.node_type() == NodeType::kVar ? 0 : 1;
}

std::int64_t mulw(DType d, std::int64_t a, std::int64_t b) {
  return wrap_to(
      d, static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b)));
}

void insert_term(LinearForm& f, const Expr& atom, std::int64_t coeff) {
  auto it = std::lower_bound(
      f.terms.begin(), f.terms.end(), atom,
      [](const LinearTerm& t, const Expr& a) { return compare_expr(t.atom, a) < 0; });
  if (it != f.terms.end() && compare_expr(it->atom, atom) == 0) {
    it->coeff = wrap_to(f.dtype, it->coeff + coeff);
    if (it->coeff == 0) f.terms.erase(it);
  } else if (coeff != 0) {
    f.terms.insert(it, LinearTerm{atom, coeff});
  }
}

}  // namespace

int compare_expr(const Expr& a, const Expr& b) {
  if (a.same_as(b)) return 0;
  if (!a.defined() || !b.defined()) return cmp_int(a.defined(), b.defined());
  if (int c = cmp_int(rank(a), rank(b))) return c;
  if (a.node_type() != b.node_type()) return cmp_int(int(a.node_type()), int(b.node_type()));
  if (a.dtype() != b.dtype()) return cmp_int(int(a.dtype()), int(b.dtype()));
  switch (a.node_type()) {
    case NodeType::kIntImm:
      return cmp_int(a.as<IntImmNode>()->value, b.as<IntImmNode>()->value);
    case NodeType::kVar:
      return cmp_int(a.as<VarNode>()->id, b.as<VarNode>()->id);
#define TANDEM_X(n)                                 \
  case NodeType::k##n: {                            \
    auto* x = a.as<n##Node>();                      \
    auto* y = b.as<n##Node>();                      \
    if (int c = compare_expr(x->a, y->a)) return c; \
    return compare_expr(x->b, y->b);                \
  }
      TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
    case NodeType::kNot:
      return compare_expr(a.as<NotNode>()->a, b.as<NotNode>()->a);
    case NodeType::kSelect: {
      auto* x = a.as<SelectNode>();
      auto* y = b.as<SelectNode>();
      if (int c = compare_expr(x->cond, y->cond)) return c;
      if (int c = compare_expr(x->true_value, y->true_value)) return c;
      return compare_expr(x->false_value, y->false_value);
    }
    case NodeType::kCast:
      return compare_expr(a.as<CastNode>()->value, b.as<CastNode>()->value);
    case NodeType::kLoad: {
      auto* x = a.as<LoadNode>();
      auto* y = b.as<LoadNode>();
      if (int c = cmp_int(x->buffer->id, y->buffer->id)) return c;
      return compare_list(x->indices, y->indices);
    }
    case NodeType::kCall: {
      auto* x = a.as<CallNode>();
      auto* y = b.as<CallNode>();
      if (int c = x->name.compare(y->name)) return c < 0 ? -1 : 1;
      if (x->buffers.size() != y->buffers.size())
        return cmp_int(x->buffers.size(), y->buffers.size());
      for (size_t i = 0; i < x->buffers.size(); ++i) {
        if (int c = cmp_int(x->buffers[i]->id, y->buffers[i]->id)) return c;
      }
      return compare_list(x->args, y->args);
    }
    case NodeType::kReduce: {
      auto* x = a.as<ReduceNode>();
      auto* y = b.as<ReduceNode>();
      if (int c = cmp_int(int(x->op), int(y->op))) return c;
      if (x->axis.size() != y->axis.size()) return cmp_int(x->axis.size(), y->axis.size());
      for (size_t i = 0; i < x->axis.size(); ++i) {
        if (int c = cmp_int(x->axis[i]->id, y->axis[i]->id)) return c;
      }
      return compare_expr(x->source, y->source);
    }
    default:
      return 0;
  }
}

std::int64_t LinearForm::coeff_of(const VarNode* v) const {
  for (const LinearTerm& t : terms) {
    if (t.atom.get() == v) return t.coeff;
  }
  return 0;
}

LinearForm add(const LinearForm& a, const LinearForm& b) {
  LinearForm r = a;
  for (const LinearTerm& t : b.terms) insert_term(r, t.atom, t.coeff);
  r.constant = wrap_to(r.dtype, a.constant + b.constant);
  return r;
}

LinearForm scale(const LinearForm& a, std::int64_t k) {
  LinearForm r;
  r.dtype = a.dtype;
  k = wrap_to(a.dtype, k);
  if (k == 0) return r;
  for (const LinearTerm& t : a.terms) {
    std::int64_t c = mulw(a.dtype, t.coeff, k);
    if (c != 0) r.terms.push_back(LinearTerm{t.atom, c});
  }
  r.constant = mulw(a.dtype, a.constant, k);
  return r;
}

LinearForm sub(const LinearForm& a, const LinearForm& b) {
  return add(a, scale(b, -1));
}

LinearForm to_linear(const Expr& e) {
  LinearForm f;
  f.dtype = e.dtype();
  if (const IntImmNode* c = e.as<IntImmNode>()) {
    f.constant = c->value;
    return f;
  }
  if (e.dtype() == DType::kBool) {
    f.terms.push_back(LinearTerm{e, 1});
    return f;
  }
  if (const AddNode* n = e.as<AddNode>()) return add(to_linear(n->a), to_linear(n->b));
  if (const SubNode* n = e.as<SubNode>()) return sub(to_linear(n->a), to_linear(n->b));
  if (const MulNode* n = e.as<MulNode>()) {
    LinearForm a = to_linear(n->a), b = to_linear(n->b);
    if (b.is_const()) return scale(a, b.constant);
    if (a.is_const()) return scale(b, a.constant);
  }
  f.terms.push_back(LinearTerm{e, 1});
  return f;
}

Expr from_linear(const LinearForm& f) {
  DType d = f.dtype;
  auto term = [d](const LinearTerm& t, std::int64_t c) -> Expr {
    return c == 1 ? t.atom : MulNode::make(t.atom, make_const(d, c));
  };
  Expr acc;
  for (const LinearTerm& t : f.terms) {
    if (t.coeff <= 0) continue;
    Expr x = term(t, t.coeff);
    acc = acc.defined() ? AddNode::make(acc, x) : x;
  }
  for (const LinearTerm& t : f.terms) {
    if (t.coeff >= 0) continue;
    if (acc.defined()) {
      acc = SubNode::make(acc, term(t, -t.coeff));
    } else {
      acc = term(t, t.coeff);
    }
  }
  if (!acc.defined()) return make_const(d, f.constant);
  if (f.constant > 0) acc = AddNode::make(acc, make_const(d, f.constant));
  if (f.constant < 0) acc = SubNode::make(acc, make_const(d, -f.constant));
  return acc;
}

}  // namespace tandem::ir
