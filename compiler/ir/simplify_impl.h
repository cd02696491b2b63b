// Internal: the Simplifier mutator shared by simplify_expr.cc (expression
// rules and constant bounds) and simplify_stmt.cc (statement rules).
// Variable ranges come from a base map (an Analyzer's bindings) plus a local
// overlay for loop and let variables bound while walking statements.
#pragma once

#include <unordered_map>
#include <vector>

#include "compiler/ir/mutator.h"
#include "compiler/ir/simplify.h"

namespace tandem::ir {

class Simplifier : public IRMutator {
 public:
  using RangeMap = std::unordered_map<const VarNode*, ConstBounds>;
  explicit Simplifier(const RangeMap* base) : base_(base) {}

  ConstBounds bounds(const Expr& e) const;
  // Overlay binding (shadows the base and earlier overlay bindings until pop).
  void push(const VarNode* v, ConstBounds b);
  void pop(const VarNode* v);

  using IRMutator::mutate;
  using IRMutator::visit;
#define TANDEM_X(n) Expr visit(const n##Node* op, const Expr& self) override;
  TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
  Expr visit(const NotNode* op, const Expr& self) override;
  Expr visit(const SelectNode* op, const Expr& self) override;
  Expr visit(const CastNode* op, const Expr& self) override;
  Expr visit(const ReduceNode* op, const Expr& self) override;

  Stmt visit(const ForNode* op, const Stmt& self) override;
  Stmt visit(const LetStmtNode* op, const Stmt& self) override;
  Stmt visit(const IfThenElseNode* op, const Stmt& self) override;
  Stmt visit(const SeqNode* op, const Stmt& self) override;
  Stmt visit(const AllocateNode* op, const Stmt& self) override;
  Stmt visit(const AttrStmtNode* op, const Stmt& self) override;

 private:
  const ConstBounds* lookup(const VarNode* v) const;
  Expr linear_arith(const Expr& rebuilt, const Expr& self);
  Expr compare(NodeType t, const Expr& a, const Expr& b, const Expr& self);
  Expr div_mod(bool is_div, const Expr& a, std::int64_t c);

  const RangeMap* base_;
  std::unordered_map<const VarNode*, std::vector<ConstBounds>> local_;
};

// The empty statement (a Seq with no children) and its test.
Stmt no_op();
bool is_no_op(const Stmt& s);

}  // namespace tandem::ir
