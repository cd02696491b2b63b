// Rewriting traversal of the IR.
//
// IRMutator has one virtual handler per node kind (generated from ir.h's
// X-macro lists). A handler receives the node and the handle that owns it and
// returns the replacement. The default handlers mutate every child and return
// the SAME handle (pointer-identical) when no child changed, so unchanged
// subtrees are shared, and `result.same_as(input)` tells whether a pass did
// anything.
#pragma once

#include "compiler/ir/ir.h"

namespace tandem::ir {

class IRMutator {
 public:
  virtual ~IRMutator() = default;
  // Undefined handles are returned unchanged.
  virtual Expr mutate(const Expr& e);
  virtual Stmt mutate(const Stmt& s);

#define TANDEM_X(n) virtual Expr visit(const n##Node* op, const Expr& self);
  TANDEM_IR_EXPR_NODES(TANDEM_X)
#undef TANDEM_X
#define TANDEM_X(n) virtual Stmt visit(const n##Node* op, const Stmt& self);
  TANDEM_IR_STMT_NODES(TANDEM_X)
#undef TANDEM_X

 protected:
  // Mutates each element; returns true when any element changed.
  bool mutate_all(const std::vector<Expr>& in, std::vector<Expr>* out);
};

}  // namespace tandem::ir
