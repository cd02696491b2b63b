// Read-only traversal of the IR.
//
// IRVisitor has one virtual handler per node kind (generated from the X-macro
// lists of ir.h); the default handlers visit every child in source order.
// Entry points are walk(Expr) / walk(Stmt) (undefined handles are skipped).
// Subclasses override the handlers they care about and call the base handler
// to keep recursing.
#pragma once

#include <functional>

#include "compiler/ir/ir.h"

namespace tandem::ir {

class IRVisitor {
 public:
  virtual ~IRVisitor() = default;
  virtual void walk(const Expr& e);
  virtual void walk(const Stmt& s);

#define TANDEM_X(n) virtual void visit(const n##Node* op);
  TANDEM_IR_EXPR_NODES(TANDEM_X)
  TANDEM_IR_STMT_NODES(TANDEM_X)
#undef TANDEM_X
};

// Calls f on every expression and statement node reachable from the root,
// children before parents. Convenience for small analyses.
void post_order_visit(const Stmt& s, const std::function<void(const Node*)>& f);
void post_order_visit(const Expr& e, const std::function<void(const Node*)>& f);

}  // namespace tandem::ir
