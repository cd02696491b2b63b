// Default IRMutator handlers: rebuild a node only when a child changed, so
// an untouched subtree comes back pointer-identical.
#include "compiler/ir/mutator.h"

namespace tandem::ir {

Expr IRMutator::mutate(const Expr& e) {
  if (!e.defined()) return e;
  switch (e.node_type()) {
#define TANDEM_X(n)    \
  case NodeType::k##n: \
    return visit(static_cast<const n##Node*>(e.get()), e);
    TANDEM_IR_EXPR_NODES(TANDEM_X)
#undef TANDEM_X
    default:
      break;
  }
  return e;
}

Stmt IRMutator::mutate(const Stmt& s) {
  if (!s.defined()) return s;
  switch (s.node_type()) {
#define TANDEM_X(n)    \
  case NodeType::k##n: \
    return visit(static_cast<const n##Node*>(s.get()), s);
    TANDEM_IR_STMT_NODES(TANDEM_X)
#undef TANDEM_X
    default:
      break;
  }
  return s;
}

bool IRMutator::mutate_all(const std::vector<Expr>& in, std::vector<Expr>* out) {
  bool changed = false;
  out->clear();
  out->reserve(in.size());
  for (const Expr& e : in) {
    out->push_back(mutate(e));
    changed |= !out->back().same_as(e);
  }
  return changed;
}

Expr IRMutator::visit(const IntImmNode*, const Expr& self) {
  return self;
}
Expr IRMutator::visit(const VarNode*, const Expr& self) {
  return self;
}

#define TANDEM_X(n)                                            \
  Expr IRMutator::visit(const n##Node* op, const Expr& self) { \
    Expr a = mutate(op->a), b = mutate(op->b);                 \
    if (a.same_as(op->a) && b.same_as(op->b)) return self;     \
    return n##Node::make(std::move(a), std::move(b));          \
  }
TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X

Expr IRMutator::visit(const NotNode* op, const Expr& self) {
  Expr a = mutate(op->a);
  return a.same_as(op->a) ? self : NotNode::make(a);
}

Expr IRMutator::visit(const SelectNode* op, const Expr& self) {
  Expr c = mutate(op->cond), t = mutate(op->true_value), f = mutate(op->false_value);
  if (c.same_as(op->cond) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self;
  return SelectNode::make(c, t, f);
}

Expr IRMutator::visit(const CastNode* op, const Expr& self) {
  Expr v = mutate(op->value);
  return v.same_as(op->value) ? self : CastNode::make(op->dtype, v);
}

Expr IRMutator::visit(const LoadNode* op, const Expr& self) {
  std::vector<Expr> idx;
  if (!mutate_all(op->indices, &idx)) return self;
  return LoadNode::make(op->buffer, std::move(idx));
}

Expr IRMutator::visit(const CallNode* op, const Expr& self) {
  std::vector<Expr> args;
  if (!mutate_all(op->args, &args)) return self;
  return CallNode::make(op->dtype, op->name, std::move(args), op->buffers);
}

Expr IRMutator::visit(const ReduceNode* op, const Expr& self) {
  bool changed = false;
  std::vector<Range> dom;
  for (const Range& r : op->dom) {
    Range n{mutate(r.min), mutate(r.extent)};
    changed |= !n.min.same_as(r.min) || !n.extent.same_as(r.extent);
    dom.push_back(n);
  }
  Expr src = mutate(op->source);
  if (!changed && src.same_as(op->source)) return self;
  return ReduceNode::make(op->op, src, op->axis, std::move(dom));
}

Stmt IRMutator::visit(const ForNode* op, const Stmt& self) {
  Expr mn = mutate(op->min), ext = mutate(op->extent);
  Stmt body = mutate(op->body);
  if (mn.same_as(op->min) && ext.same_as(op->extent) && body.same_as(op->body)) return self;
  return ForNode::make(op->var, mn, ext, op->kind, body);
}

Stmt IRMutator::visit(const LetStmtNode* op, const Stmt& self) {
  Expr v = mutate(op->value);
  Stmt body = mutate(op->body);
  if (v.same_as(op->value) && body.same_as(op->body)) return self;
  return LetStmtNode::make(op->var, v, body);
}

Stmt IRMutator::visit(const IfThenElseNode* op, const Stmt& self) {
  Expr c = mutate(op->cond);
  Stmt t = mutate(op->then_case), e = mutate(op->else_case);
  if (c.same_as(op->cond) && t.same_as(op->then_case) && e.same_as(op->else_case)) return self;
  return IfThenElseNode::make(c, t, e);
}

Stmt IRMutator::visit(const StoreNode* op, const Stmt& self) {
  std::vector<Expr> idx;
  bool changed = mutate_all(op->indices, &idx);
  Expr v = mutate(op->value);
  if (!changed && v.same_as(op->value)) return self;
  return StoreNode::make(op->buffer, std::move(idx), v);
}

Stmt IRMutator::visit(const AllocateNode* op, const Stmt& self) {
  Stmt body = mutate(op->body);
  return body.same_as(op->body) ? self : AllocateNode::make(op->buffer, body);
}

Stmt IRMutator::visit(const SeqNode* op, const Stmt& self) {
  bool changed = false;
  std::vector<Stmt> out;
  for (const Stmt& s : op->stmts) {
    out.push_back(mutate(s));
    changed |= !out.back().same_as(s);
  }
  return changed ? SeqNode::make(std::move(out)) : self;
}

Stmt IRMutator::visit(const AttrStmtNode* op, const Stmt& self) {
  Expr v = mutate(op->value);
  Stmt body = mutate(op->body);
  if (v.same_as(op->value) && body.same_as(op->body)) return self;
  return AttrStmtNode::make(op->key, v, op->text, body);
}

Stmt IRMutator::visit(const EvaluateNode* op, const Stmt& self) {
  Expr v = mutate(op->value);
  return v.same_as(op->value) ? self : EvaluateNode::make(v);
}

}  // namespace tandem::ir
