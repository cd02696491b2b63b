// Variable substitution, buffer replacement and free-variable queries.
#include "compiler/ir/substitute.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"

namespace tandem::ir {

namespace {

class Substituter : public IRMutator {
 public:
  explicit Substituter(const VarMap& m) : map_(m) {}
  Expr visit(const VarNode* op, const Expr& self) override {
    if (shadowed_.count(op)) return self;
    auto it = map_.find(op);
    return it == map_.end() ? self : it->second;
  }
  Stmt visit(const ForNode* op, const Stmt& self) override {
    return scoped(op->var.get(), [&] { return IRMutator::visit(op, self); });
  }
  Stmt visit(const LetStmtNode* op, const Stmt& self) override {
    Expr v = mutate(op->value);
    Stmt body = scoped(op->var.get(), [&] { return mutate(op->body); });
    if (v.same_as(op->value) && body.same_as(op->body)) return self;
    return LetStmtNode::make(op->var, v, body);
  }

 private:
  template <typename F>
  Stmt scoped(const VarNode* v, F f) {
    if (!map_.count(v)) return f();
    bool inserted = shadowed_.insert(v).second;
    Stmt r = f();
    if (inserted) shadowed_.erase(v);
    return r;
  }
  const VarMap& map_;
  VarSet shadowed_;
};

class BufferReplacer : public IRMutator {
 public:
  BufferReplacer(const Buffer& from, const Buffer& to) : from_(from), to_(to) {}
  Expr visit(const LoadNode* op, const Expr& self) override {
    Expr e = IRMutator::visit(op, self);
    const LoadNode* n = e.as<LoadNode>();
    if (!n->buffer.same_as(from_)) return e;
    return LoadNode::make(to_, n->indices);
  }
  Stmt visit(const StoreNode* op, const Stmt& self) override {
    Stmt s = IRMutator::visit(op, self);
    const StoreNode* n = s.as<StoreNode>();
    if (!n->buffer.same_as(from_)) return s;
    return StoreNode::make(to_, n->indices, n->value);
  }

 private:
  Buffer from_, to_;
};

}  // namespace

Expr substitute(const Expr& e, const VarMap& map) {
  if (map.empty()) return e;
  Substituter s(map);
  return s.mutate(e);
}
Stmt substitute(const Stmt& st, const VarMap& map) {
  if (map.empty()) return st;
  Substituter s(map);
  return s.mutate(st);
}

Stmt replace_buffer(const Stmt& s, const Buffer& from, const Buffer& to) {
  BufferReplacer r(from, to);
  return r.mutate(s);
}
Expr replace_buffer(const Expr& e, const Buffer& from, const Buffer& to) {
  BufferReplacer r(from, to);
  return r.mutate(e);
}

bool uses_var(const Expr& e, const VarSet& vars) {
  bool found = false;
  post_order_visit(e, [&](const Node* n) {
    if (n->node_type == NodeType::kVar && vars.count(static_cast<const VarNode*>(n))) found = true;
  });
  return found;
}
bool uses_var(const Expr& e, const VarNode* v) {
  return uses_var(e, VarSet{v});
}
bool uses_var(const Stmt& s, const VarNode* v) {
  bool found = false;
  post_order_visit(s, [&](const Node* n) {
    if (n == v) found = true;
  });
  return found;
}

std::vector<Var> collect_vars(const Expr& e) {
  std::vector<Var> out;
  VarSet seen;
  class Collector : public IRVisitor {
   public:
    Collector(std::vector<Var>& o, VarSet& s) : out_(o), seen_(s) {}
    void walk(const Expr& e) override {
      if (const VarNode* v = e.as<VarNode>()) {
        if (seen_.insert(v).second) out_.push_back(Var(e));
        return;
      }
      IRVisitor::walk(e);
    }

   private:
    std::vector<Var>& out_;
    VarSet& seen_;
  } c(out, seen);
  c.walk(e);
  return out;
}

}  // namespace tandem::ir
