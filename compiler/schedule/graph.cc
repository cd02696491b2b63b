// Builds the effective dataflow graph: inlining, consumers, stage lookup.
#include "compiler/schedule/graph.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/substitute.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::te {

namespace {

// Replaces loads of inlined tensors by their (already expanded) bodies.
class Inliner : public ir::IRMutator {
 public:
  Inliner(const StageGraph& g, const std::map<const StageNode*, Expr>& inline_bodies)
      : g_(g), bodies_(inline_bodies) {}
  using IRMutator::visit;
  Expr visit(const ir::LoadNode* op, const Expr& self) override {
    Expr e = IRMutator::visit(op, self);
    const ir::LoadNode* l = e.as<ir::LoadNode>();
    StageNode* s = g_.find(l->buffer);
    if (!s || s->attach_type != AttachType::kInline) return e;
    ir::VarMap m;
    for (size_t d = 0; d < l->indices.size(); ++d) {
      m[s->root_iter_vars[d].var().get()] = l->indices[d];
    }
    return ir::substitute(bodies_.at(s), m);
  }

 private:
  const StageGraph& g_;
  const std::map<const StageNode*, Expr>& bodies_;
};

}  // namespace

std::vector<std::vector<Expr>> accesses_of(const Expr& e, const ir::Buffer& b) {
  std::vector<std::vector<Expr>> out;
  ir::post_order_visit(e, [&](const ir::Node* n) {
    if (n->node_type != ir::NodeType::kLoad) return;
    auto* l = static_cast<const ir::LoadNode*>(n);
    if (l->buffer.get() == b.get()) out.push_back(l->indices);
  });
  return out;
}

StageGraph build_graph(const Schedule& sch) {
  StageGraph g;
  for (const auto& s : sch->stages) g.stage_of[s->output.get()] = s.get();
  std::map<const StageNode*, Expr> inline_bodies;
  for (const auto& sp : sch->stages) {
    StageNode* s = sp.get();
    if (s->is_placeholder()) continue;
    Inliner inl(g, inline_bodies);
    Expr body = inl.mutate(s->body);
    if (s->attach_type == AttachType::kInline) {
      inline_bodies[s] = body;
      continue;
    }
    g.order.push_back(s);
    g.body[s] = body;
  }
  for (StageNode* s : g.order) {
    for (StageNode* c : g.order) {
      if (c != s && !accesses_of(g.body[c], s->output.buffer()).empty()) {
        g.consumers[s].push_back(c);
      }
    }
  }
  // Inlined stages that nobody reads any more are fine; a computable
  // non-output stage that nobody reads is dead code the user asked for: keep it.
  return g;
}

}  // namespace tandem::te
