// Affine forms and the integer evaluator (see affine.h).
#include "compiler/accel/affine.h"

#include <algorithm>

#include "compiler/ir/linear.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"

namespace tandem::accel {

std::int64_t Affine::coeff(const ir::VarNode* v) const {
  for (const AffineTerm& t : terms)
    if (t.var.get() == v) return t.coeff;
  return 0;
}

Affine Affine::bind(const ir::VarNode* v, std::int64_t value) const {
  Affine r;
  r.constant = constant;
  for (const AffineTerm& t : terms) {
    if (t.var.get() == v)
      r.constant += t.coeff * value;
    else
      r.terms.push_back(t);
  }
  return r;
}

Affine Affine::add(const Affine& o) const {
  Affine r = *this;
  r.constant += o.constant;
  for (const AffineTerm& t : o.terms) {
    auto it = std::find_if(r.terms.begin(), r.terms.end(),
                           [&](const AffineTerm& x) { return x.var.get() == t.var.get(); });
    if (it == r.terms.end()) {
      r.terms.push_back(t);
    } else {
      it->coeff += t.coeff;
      if (it->coeff == 0) r.terms.erase(it);
    }
  }
  return r;
}

Affine Affine::scaled(std::int64_t k) const {
  if (k == 0) return Affine{};
  Affine r = *this;
  r.constant *= k;
  for (AffineTerm& t : r.terms) t.coeff *= k;
  return r;
}

bool Affine::divisible_by(std::int64_t k) const {
  if (constant % k != 0) return false;
  for (const AffineTerm& t : terms)
    if (t.coeff % k != 0) return false;
  return true;
}

Affine Affine::divided_by(std::int64_t k) const {
  TANDEM_ASSERT(divisible_by(k), "affine form not divisible by " << k);
  Affine r = *this;
  r.constant /= k;
  for (AffineTerm& t : r.terms) t.coeff /= k;
  return r;
}

ir::Expr Affine::to_expr() const {
  ir::Expr e;
  for (const AffineTerm& t : terms) {
    ir::Expr term = t.coeff == 1 ? ir::Expr(t.var) : ir::Expr(t.var) * ir::Expr(t.coeff);
    e = e.defined() ? e + term : term;
  }
  if (!e.defined()) return ir::Expr(constant);
  if (constant != 0) e = e + ir::Expr(constant);
  return e;
}

bool Affine::operator==(const Affine& o) const {
  if (constant != o.constant || terms.size() != o.terms.size()) return false;
  for (const AffineTerm& t : terms)
    if (o.coeff(t.var.get()) != t.coeff) return false;
  return true;
}

std::optional<Affine> as_affine(const ir::Expr& e) {
  if (!e.defined()) return std::nullopt;
  if (const std::int64_t* c = ir::as_const_int(e)) return Affine{*c, {}};
  ir::LinearForm f = ir::to_linear(e);
  Affine a;
  a.constant = f.constant;
  for (const ir::LinearTerm& t : f.terms) {
    if (t.atom.node_type() != ir::NodeType::kVar) return std::nullopt;
    a.terms.push_back(AffineTerm{ir::Var(t.atom), t.coeff});
  }
  return a;
}

std::int64_t Env::get(const ir::VarNode* v) const {
  const std::int64_t* p = find(v);
  TANDEM_CHECK(p != nullptr, "accelerator codegen: variable '"
                                 << v->name << "' has no value here (it is not an enclosing loop)");
  return *p;
}

std::int64_t eval(const Affine& a, const Env& env) {
  std::int64_t r = a.constant;
  for (const AffineTerm& t : a.terms) r += t.coeff * env.get(t.var.get());
  return r;
}

namespace {

std::int64_t floordiv(std::int64_t a, std::int64_t b) {
  TANDEM_CHECK(b != 0, "accelerator codegen: division by zero");
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

std::int64_t eval(const ir::Expr& e, const Env& env) {
  using ir::NodeType;
  switch (e.node_type()) {
    case NodeType::kIntImm:
      return e.as<ir::IntImmNode>()->value;
    case NodeType::kVar:
      return env.get(e.as<ir::VarNode>());
    case NodeType::kAdd: {
      auto* n = e.as<ir::AddNode>();
      return ir::wrap_to(e.dtype(), eval(n->a, env) + eval(n->b, env));
    }
    case NodeType::kSub: {
      auto* n = e.as<ir::SubNode>();
      return ir::wrap_to(e.dtype(), eval(n->a, env) - eval(n->b, env));
    }
    case NodeType::kMul: {
      auto* n = e.as<ir::MulNode>();
      return ir::wrap_to(e.dtype(), eval(n->a, env) * eval(n->b, env));
    }
    case NodeType::kFloorDiv: {
      auto* n = e.as<ir::FloorDivNode>();
      return floordiv(eval(n->a, env), eval(n->b, env));
    }
    case NodeType::kFloorMod: {
      auto* n = e.as<ir::FloorModNode>();
      const std::int64_t a = eval(n->a, env), b = eval(n->b, env);
      return a - floordiv(a, b) * b;
    }
    case NodeType::kMin: {
      auto* n = e.as<ir::MinNode>();
      return std::min(eval(n->a, env), eval(n->b, env));
    }
    case NodeType::kMax: {
      auto* n = e.as<ir::MaxNode>();
      return std::max(eval(n->a, env), eval(n->b, env));
    }
    case NodeType::kShl: {
      auto* n = e.as<ir::ShlNode>();
      return ir::wrap_to(e.dtype(),
                         static_cast<std::int64_t>(static_cast<std::uint64_t>(eval(n->a, env))
                                                   << (eval(n->b, env) & 63)));
    }
    case NodeType::kShr: {
      auto* n = e.as<ir::ShrNode>();
      return eval(n->a, env) >> std::min<std::int64_t>(eval(n->b, env), 63);
    }
#define TANDEM_CMP(N, OP)                      \
  case NodeType::k##N: {                       \
    auto* n = e.as<ir::N##Node>();             \
    return eval(n->a, env) OP eval(n->b, env); \
  }
      TANDEM_CMP(EQ, ==)
      TANDEM_CMP(NE, !=)
      TANDEM_CMP(LT, <)
      TANDEM_CMP(LE, <=)
      TANDEM_CMP(GT, >)
      TANDEM_CMP(GE, >=)
#undef TANDEM_CMP
    case NodeType::kAnd: {
      auto* n = e.as<ir::AndNode>();
      return eval(n->a, env) != 0 && eval(n->b, env) != 0;
    }
    case NodeType::kOr: {
      auto* n = e.as<ir::OrNode>();
      return eval(n->a, env) != 0 || eval(n->b, env) != 0;
    }
    case NodeType::kNot:
      return eval(e.as<ir::NotNode>()->a, env) == 0;
    case NodeType::kSelect: {
      auto* n = e.as<ir::SelectNode>();
      return eval(n->cond, env) != 0 ? eval(n->true_value, env) : eval(n->false_value, env);
    }
    case NodeType::kCast: {
      auto* n = e.as<ir::CastNode>();
      return ir::wrap_to(e.dtype(), eval(n->value, env));
    }
    default:
      break;
  }
  throw Error(Msg() << "accelerator codegen: expression '" << ir::to_string(e)
                    << "' cannot be evaluated at compile time");
}

CompiledExpr::CompiledExpr(const ir::Expr& e) : expr_(e), affine_(as_affine(e)) {}

}  // namespace tandem::accel
