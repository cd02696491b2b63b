// Structural equality with alpha-equivalence of variables bound inside the
// compared trees (For, LetStmt and Reduce variables).
#include "compiler/ir/equal.h"

#include <unordered_map>

namespace tandem::ir {

namespace {

class Comparer {
 public:
  bool expr(const Expr& a, const Expr& b) {
    if (a.same_as(b)) return true;
    if (!a.defined() || !b.defined()) return false;
    if (a.node_type() != b.node_type() || a.dtype() != b.dtype()) return false;
    switch (a.node_type()) {
      case NodeType::kIntImm:
        return a.as<IntImmNode>()->value == b.as<IntImmNode>()->value;
      case NodeType::kVar:
        return var(a.as<VarNode>(), b.as<VarNode>());
#define TANDEM_X(n)                              \
  case NodeType::k##n: {                         \
    auto* x = a.as<n##Node>();                   \
    auto* y = b.as<n##Node>();                   \
    return expr(x->a, y->a) && expr(x->b, y->b); \
  }
        TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
      case NodeType::kNot:
        return expr(a.as<NotNode>()->a, b.as<NotNode>()->a);
      case NodeType::kSelect: {
        auto* x = a.as<SelectNode>();
        auto* y = b.as<SelectNode>();
        return expr(x->cond, y->cond) && expr(x->true_value, y->true_value) &&
               expr(x->false_value, y->false_value);
      }
      case NodeType::kCast:
        return expr(a.as<CastNode>()->value, b.as<CastNode>()->value);
      case NodeType::kLoad: {
        auto* x = a.as<LoadNode>();
        auto* y = b.as<LoadNode>();
        return x->buffer.same_as(y->buffer) && exprs(x->indices, y->indices);
      }
      case NodeType::kCall: {
        auto* x = a.as<CallNode>();
        auto* y = b.as<CallNode>();
        if (x->name != y->name || x->buffers.size() != y->buffers.size()) return false;
        for (size_t i = 0; i < x->buffers.size(); ++i) {
          if (!x->buffers[i].same_as(y->buffers[i])) return false;
        }
        return exprs(x->args, y->args);
      }
      case NodeType::kReduce: {
        auto* x = a.as<ReduceNode>();
        auto* y = b.as<ReduceNode>();
        if (x->op != y->op || x->axis.size() != y->axis.size()) return false;
        for (size_t i = 0; i < x->axis.size(); ++i) {
          if (!expr(x->dom[i].min, y->dom[i].min) || !expr(x->dom[i].extent, y->dom[i].extent)) {
            return false;
          }
          bind(x->axis[i].get(), y->axis[i].get());
        }
        return expr(x->source, y->source);
      }
      default:
        return false;
    }
  }

  bool stmt(const Stmt& a, const Stmt& b) {
    if (a.same_as(b)) return true;
    if (!a.defined() || !b.defined()) return false;
    if (a.node_type() != b.node_type()) return false;
    switch (a.node_type()) {
      case NodeType::kFor: {
        auto* x = a.as<ForNode>();
        auto* y = b.as<ForNode>();
        if (x->kind != y->kind || !expr(x->min, y->min) || !expr(x->extent, y->extent)) {
          return false;
        }
        if (x->var.dtype() != y->var.dtype()) return false;
        bind(x->var.get(), y->var.get());
        return stmt(x->body, y->body);
      }
      case NodeType::kLetStmt: {
        auto* x = a.as<LetStmtNode>();
        auto* y = b.as<LetStmtNode>();
        if (!expr(x->value, y->value) || x->var.dtype() != y->var.dtype()) return false;
        bind(x->var.get(), y->var.get());
        return stmt(x->body, y->body);
      }
      case NodeType::kIfThenElse: {
        auto* x = a.as<IfThenElseNode>();
        auto* y = b.as<IfThenElseNode>();
        return expr(x->cond, y->cond) && stmt(x->then_case, y->then_case) &&
               stmt(x->else_case, y->else_case);
      }
      case NodeType::kStore: {
        auto* x = a.as<StoreNode>();
        auto* y = b.as<StoreNode>();
        return x->buffer.same_as(y->buffer) && exprs(x->indices, y->indices) &&
               expr(x->value, y->value);
      }
      case NodeType::kAllocate: {
        auto* x = a.as<AllocateNode>();
        auto* y = b.as<AllocateNode>();
        return x->buffer.same_as(y->buffer) && stmt(x->body, y->body);
      }
      case NodeType::kSeq: {
        auto* x = a.as<SeqNode>();
        auto* y = b.as<SeqNode>();
        if (x->stmts.size() != y->stmts.size()) return false;
        for (size_t i = 0; i < x->stmts.size(); ++i) {
          if (!stmt(x->stmts[i], y->stmts[i])) return false;
        }
        return true;
      }
      case NodeType::kAttrStmt: {
        auto* x = a.as<AttrStmtNode>();
        auto* y = b.as<AttrStmtNode>();
        return x->key == y->key && x->text == y->text && expr(x->value, y->value) &&
               stmt(x->body, y->body);
      }
      case NodeType::kEvaluate:
        return expr(a.as<EvaluateNode>()->value, b.as<EvaluateNode>()->value);
      default:
        return false;
    }
  }

 private:
  void bind(const VarNode* x, const VarNode* y) {
    map_[x] = y;
    rev_[y] = x;
  }
  bool var(const VarNode* x, const VarNode* y) {
    auto it = map_.find(x);
    if (it != map_.end()) return it->second == y;
    // x is free in a: y must be the same free variable (and not bound in b).
    return x == y && rev_.find(y) == rev_.end();
  }
  bool exprs(const std::vector<Expr>& a, const std::vector<Expr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!expr(a[i], b[i])) return false;
    }
    return true;
  }

  std::unordered_map<const VarNode*, const VarNode*> map_, rev_;
};

}  // namespace

bool equal(const Expr& a, const Expr& b) {
  return Comparer().expr(a, b);
}
bool equal(const Stmt& a, const Stmt& b) {
  return Comparer().stmt(a, b);
}

}  // namespace tandem::ir
