// Expression-building operators: literal dtype adoption, then the node makers.
#include "compiler/ir/op.h"

namespace tandem::ir {

namespace {
// An int32 constant next to an operand of another integer dtype adopts it.
void unify(Expr& a, Expr& b) {
  if (a.dtype() == b.dtype()) return;
  const IntImmNode* ia = a.as<IntImmNode>();
  const IntImmNode* ib = b.as<IntImmNode>();
  if (ib && ib->dtype == DType::kInt32 && a.dtype() != DType::kBool) {
    b = make_const(a.dtype(), ib->value);
  } else if (ia && ia->dtype == DType::kInt32 && b.dtype() != DType::kBool) {
    a = make_const(b.dtype(), ia->value);
  }
}

template <typename N>
Expr bin(Expr a, Expr b) {
  unify(a, b);
  return N::make(std::move(a), std::move(b));
}
}  // namespace

Expr operator+(Expr a, Expr b) {
  return bin<AddNode>(std::move(a), std::move(b));
}
Expr operator-(Expr a, Expr b) {
  return bin<SubNode>(std::move(a), std::move(b));
}
Expr operator-(Expr a) {
  return bin<SubNode>(make_const(a.dtype(), 0), std::move(a));
}
Expr operator*(Expr a, Expr b) {
  return bin<MulNode>(std::move(a), std::move(b));
}
Expr operator/(Expr a, Expr b) {
  return bin<FloorDivNode>(std::move(a), std::move(b));
}
Expr operator%(Expr a, Expr b) {
  return bin<FloorModNode>(std::move(a), std::move(b));
}
Expr operator<<(Expr a, Expr b) {
  return bin<ShlNode>(std::move(a), std::move(b));
}
Expr operator>>(Expr a, Expr b) {
  return bin<ShrNode>(std::move(a), std::move(b));
}
Expr operator==(Expr a, Expr b) {
  return bin<EQNode>(std::move(a), std::move(b));
}
Expr operator!=(Expr a, Expr b) {
  return bin<NENode>(std::move(a), std::move(b));
}
Expr operator<(Expr a, Expr b) {
  return bin<LTNode>(std::move(a), std::move(b));
}
Expr operator<=(Expr a, Expr b) {
  return bin<LENode>(std::move(a), std::move(b));
}
Expr operator>(Expr a, Expr b) {
  return bin<GTNode>(std::move(a), std::move(b));
}
Expr operator>=(Expr a, Expr b) {
  return bin<GENode>(std::move(a), std::move(b));
}
Expr operator&&(Expr a, Expr b) {
  return AndNode::make(std::move(a), std::move(b));
}
Expr operator||(Expr a, Expr b) {
  return OrNode::make(std::move(a), std::move(b));
}
Expr operator!(Expr a) {
  return NotNode::make(std::move(a));
}

Expr floordiv(Expr a, Expr b) {
  return bin<FloorDivNode>(std::move(a), std::move(b));
}
Expr floormod(Expr a, Expr b) {
  return bin<FloorModNode>(std::move(a), std::move(b));
}
Expr min(Expr a, Expr b) {
  return bin<MinNode>(std::move(a), std::move(b));
}
Expr max(Expr a, Expr b) {
  return bin<MaxNode>(std::move(a), std::move(b));
}

Expr select(Expr cond, Expr t, Expr f) {
  unify(t, f);
  return SelectNode::make(std::move(cond), std::move(t), std::move(f));
}

Expr cast(DType d, Expr v) {
  if (v.dtype() == d) return v;
  return CastNode::make(d, std::move(v));
}

Expr load(Buffer b, std::vector<Expr> indices) {
  return LoadNode::make(std::move(b), std::move(indices));
}

Expr call(DType d, std::string name, std::vector<Expr> args, std::vector<Buffer> buffers) {
  return CallNode::make(d, std::move(name), std::move(args), std::move(buffers));
}

Stmt store(Buffer b, std::vector<Expr> indices, Expr value) {
  if (const IntImmNode* c = value.as<IntImmNode>(); c && value.dtype() != b.dtype()) {
    value = make_const(b.dtype(), c->value);
  }
  return StoreNode::make(std::move(b), std::move(indices), std::move(value));
}

Stmt for_loop(Var v, Expr min, Expr extent, Stmt body, ForKind kind) {
  return ForNode::make(std::move(v), std::move(min), std::move(extent), kind, std::move(body));
}

Stmt seq(std::vector<Stmt> stmts) {
  return SeqNode::make(std::move(stmts));
}
Stmt evaluate(Expr e) {
  return EvaluateNode::make(std::move(e));
}

}  // namespace tandem::ir
