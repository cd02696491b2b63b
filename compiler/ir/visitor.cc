// Default IRVisitor handlers: visit every child in source order.
#include "compiler/ir/visitor.h"

namespace tandem::ir {

void IRVisitor::walk(const Expr& e) {
  if (!e.defined()) return;
  switch (e.node_type()) {
#define TANDEM_X(n)                              \
  case NodeType::k##n:                           \
    visit(static_cast<const n##Node*>(e.get())); \
    return;
    TANDEM_IR_EXPR_NODES(TANDEM_X)
#undef TANDEM_X
    default:
      break;
  }
}

void IRVisitor::walk(const Stmt& s) {
  if (!s.defined()) return;
  switch (s.node_type()) {
#define TANDEM_X(n)                              \
  case NodeType::k##n:                           \
    visit(static_cast<const n##Node*>(s.get())); \
    return;
    TANDEM_IR_STMT_NODES(TANDEM_X)
#undef TANDEM_X
    default:
      break;
  }
}

void IRVisitor::visit(const IntImmNode*) {}
void IRVisitor::visit(const VarNode*) {}
#define TANDEM_X(n)                          \
  void IRVisitor::visit(const n##Node* op) { \
    walk(op->a);                             \
    walk(op->b);                             \
  }
TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
void IRVisitor::visit(const NotNode* op) {
  walk(op->a);
}
void IRVisitor::visit(const SelectNode* op) {
  walk(op->cond);
  walk(op->true_value);
  walk(op->false_value);
}
void IRVisitor::visit(const CastNode* op) {
  walk(op->value);
}
void IRVisitor::visit(const LoadNode* op) {
  for (const Expr& i : op->indices) walk(i);
}
void IRVisitor::visit(const CallNode* op) {
  for (const Expr& a : op->args) walk(a);
}
void IRVisitor::visit(const ReduceNode* op) {
  for (const Range& r : op->dom) {
    walk(r.min);
    walk(r.extent);
  }
  walk(op->source);
}

void IRVisitor::visit(const ForNode* op) {
  walk(op->min);
  walk(op->extent);
  walk(op->body);
}
void IRVisitor::visit(const LetStmtNode* op) {
  walk(op->value);
  walk(op->body);
}
void IRVisitor::visit(const IfThenElseNode* op) {
  walk(op->cond);
  walk(op->then_case);
  walk(op->else_case);
}
void IRVisitor::visit(const StoreNode* op) {
  for (const Expr& i : op->indices) walk(i);
  walk(op->value);
}
void IRVisitor::visit(const AllocateNode* op) {
  walk(op->body);
}
void IRVisitor::visit(const SeqNode* op) {
  for (const Stmt& s : op->stmts) walk(s);
}
void IRVisitor::visit(const AttrStmtNode* op) {
  walk(op->value);
  walk(op->body);
}
void IRVisitor::visit(const EvaluateNode* op) {
  walk(op->value);
}

namespace {
class FnVisitor : public IRVisitor {
 public:
  explicit FnVisitor(const std::function<void(const Node*)>& f) : f_(f) {}
  void walk(const Expr& e) override {
    if (!e.defined()) return;
    IRVisitor::walk(e);
    f_(e.get());
  }
  void walk(const Stmt& s) override {
    if (!s.defined()) return;
    IRVisitor::walk(s);
    f_(s.get());
  }

 private:
  const std::function<void(const Node*)>& f_;
};
}  // namespace

void post_order_visit(const Stmt& s, const std::function<void(const Node*)>& f) {
  FnVisitor v(f);
  v.walk(s);
}
void post_order_visit(const Expr& e, const std::function<void(const Node*)>& f) {
  FnVisitor v(f);
  v.walk(e);
}

}  // namespace tandem::ir
