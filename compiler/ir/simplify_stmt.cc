// Statement rules of the simplifier and the Analyzer / free-function entry
// points. Loops bind their variable's range while their body is simplified.
#include "compiler/ir/const_fold.h"
#include "compiler/ir/linear.h"
#include "compiler/ir/simplify_impl.h"

namespace tandem::ir {

Stmt no_op() {
  return SeqNode::make({});
}
bool is_no_op(const Stmt& s) {
  const SeqNode* n = s.as<SeqNode>();
  return !s.defined() || (n && n->stmts.empty());
}

Stmt Simplifier::visit(const ForNode* op, const Stmt& self) {
  Expr mn = mutate(op->min), ext = mutate(op->extent);
  const std::int64_t* cm = as_const_int(mn);
  const std::int64_t* ce = as_const_int(ext);
  if (ce && *ce <= 0) return no_op();
  ConstBounds b;
  if (cm && ce) {
    b = {*cm, *cm + *ce - 1};
  } else {
    ConstBounds bm = bounds(mn), be = bounds(ext);
    b.min = bm.min;
    if (bm.max && be.max) b.max = *bm.max + *be.max - 1;
  }
  push(op->var.get(), b);
  Stmt body = mutate(op->body);
  pop(op->var.get());
  if (is_no_op(body)) return no_op();
  if (mn.same_as(op->min) && ext.same_as(op->extent) && body.same_as(op->body)) return self;
  return ForNode::make(op->var, mn, ext, op->kind, body);
}

Stmt Simplifier::visit(const LetStmtNode* op, const Stmt& self) {
  Expr v = mutate(op->value);
  push(op->var.get(), bounds(v));
  Stmt body = mutate(op->body);
  pop(op->var.get());
  if (is_no_op(body)) return no_op();
  if (v.same_as(op->value) && body.same_as(op->body)) return self;
  return LetStmtNode::make(op->var, v, body);
}

Stmt Simplifier::visit(const IfThenElseNode* op, const Stmt& self) {
  Expr c = mutate(op->cond);
  if (const std::int64_t* x = as_const_int(c)) {
    Stmt taken = *x ? op->then_case : op->else_case;
    return taken.defined() ? mutate(taken) : no_op();
  }
  Stmt t = mutate(op->then_case), e = mutate(op->else_case);
  if (e.defined() && is_no_op(e)) e = Stmt();
  if (is_no_op(t) && !e.defined()) return no_op();
  if (c.same_as(op->cond) && t.same_as(op->then_case) && e.same_as(op->else_case)) return self;
  return IfThenElseNode::make(c, t, e);
}

Stmt Simplifier::visit(const SeqNode* op, const Stmt& self) {
  bool changed = false;
  std::vector<Stmt> out;
  for (const Stmt& s : op->stmts) {
    Stmt n = mutate(s);
    changed |= !n.same_as(s);
    if (!is_no_op(n)) out.push_back(n);
  }
  return changed ? SeqNode::make(std::move(out)) : self;
}

Stmt Simplifier::visit(const AllocateNode* op, const Stmt& self) {
  Stmt body = mutate(op->body);
  if (is_no_op(body)) return no_op();
  return body.same_as(op->body) ? self : AllocateNode::make(op->buffer, body);
}

Stmt Simplifier::visit(const AttrStmtNode* op, const Stmt& self) {
  Expr v = mutate(op->value);
  Stmt body = mutate(op->body);
  if (is_no_op(body)) return no_op();
  if (v.same_as(op->value) && body.same_as(op->body)) return self;
  return AttrStmtNode::make(op->key, v, op->text, body);
}

// ---------------------------------------------------------------- Analyzer
void Analyzer::bind(const Var& v, std::int64_t min, std::int64_t extent) {
  ranges_[v.get()] = ConstBounds{min, min + extent - 1};
}

void Analyzer::bind(const Var& v, const Range& r) {
  Expr mn = simplify(r.min), ext = simplify(r.extent);
  const std::int64_t* cm = as_const_int(mn);
  const std::int64_t* ce = as_const_int(ext);
  if (cm && ce) {
    bind(v, *cm, *ce);
    return;
  }
  ConstBounds bm = bounds(mn), be = bounds(ext);
  ConstBounds b;
  b.min = bm.min;
  if (bm.max && be.max) b.max = *bm.max + *be.max - 1;
  ranges_[v.get()] = b;
}

void Analyzer::unbind(const Var& v) {
  ranges_.erase(v.get());
}

Expr Analyzer::simplify(const Expr& e) const {
  Simplifier s(&ranges_);
  return s.mutate(e);
}

Stmt Analyzer::simplify(const Stmt& st) const {
  Simplifier s(&ranges_);
  return s.mutate(st);
}

bool Analyzer::can_prove(const Expr& cond) const {
  Expr c = simplify(cond);
  if (const std::int64_t* x = as_const_int(c)) return *x != 0;
  ConstBounds b = bounds(c);
  return b.min && *b.min >= 1;
}

bool Analyzer::can_prove_equal(const Expr& a, const Expr& b) const {
  if (a.dtype() != b.dtype()) return false;
  Expr d = simplify(from_linear(sub(to_linear(simplify(a)), to_linear(simplify(b)))));
  return is_const_int(d, 0);
}

Expr simplify(const Expr& e) {
  return Analyzer().simplify(e);
}
Stmt simplify(const Stmt& s) {
  return Analyzer().simplify(s);
}
bool can_prove(const Expr& cond) {
  return Analyzer().can_prove(cond);
}

}  // namespace tandem::ir
