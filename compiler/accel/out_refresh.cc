// Out refresh before stores of DMA-filled acc buffers (see out_refresh.h).
#include "compiler/accel/out_refresh.h"

#include <unordered_set>
#include <vector>

#include "compiler/accel/buffer_rewrite.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/substitute.h"
#include "compiler/ir/visitor.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

// acc buffers written inside some "dma_copy" nest.
std::unordered_set<const ir::BufferNode*> dma_filled(const Stmt& root) {
  std::unordered_set<const ir::BufferNode*> out;
  ir::post_order_visit(root, [&](const ir::Node* n) {
    if (n->node_type != ir::NodeType::kAttrStmt) return;
    const auto* a = static_cast<const ir::AttrStmtNode*>(n);
    if (a->key != "dma_copy") return;
    ir::post_order_visit(a->body, [&](const ir::Node* m) {
      if (m->node_type != ir::NodeType::kStore) return;
      const auto* st = static_cast<const ir::StoreNode*>(m);
      if (st->buffer.scope() == "acc") out.insert(st->buffer.get());
    });
  });
  return out;
}

class Refresher : public ir::IRMutator {
 public:
  explicit Refresher(std::unordered_set<const ir::BufferNode*> filled)
      : filled_(std::move(filled)) {}

  Stmt visit(const ir::AttrStmtNode* op, const Stmt& self) override {
    if (op->key != "dma_copy") return IRMutator::visit(op, self);
    std::vector<const ir::ForNode*> loops;
    Stmt s = op->body;
    while (const auto* f = s.as<ir::ForNode>()) {
      loops.push_back(f);
      s = f->body;
    }
    const auto* st = s.as<ir::StoreNode>();
    if (st == nullptr || st->buffer.scope() != "global") return self;
    Expr v = st->value;
    if (const auto* c = v.as<ir::CastNode>()) v = c->value;
    const auto* ld = v.as<ir::LoadNode>();
    if (ld == nullptr || ld->buffer.scope() != "acc" || !filled_.count(ld->buffer.get()))
      return self;
    // Fresh loop variables for the refresh nest.
    ir::VarMap vm;
    std::vector<ir::Var> vars;
    for (const ir::ForNode* f : loops) {
      vars.emplace_back(f->var.name() + ".r");
      vm[f->var.get()] = vars.back();
    }
    std::vector<Expr> idx;
    for (const Expr& i : ld->indices) idx.push_back(ir::substitute(i, vm));
    Stmt body =
        ir::store(ld->buffer, idx, ir::AddNode::make(ir::LoadNode::make(ld->buffer, idx), Expr(0)));
    for (std::size_t k = loops.size(); k-- > 0;)
      body =
          ir::ForNode::make(vars[k], loops[k]->min, loops[k]->extent, ir::ForKind::kSerial, body);
    Stmt refresh = ir::AttrStmtNode::make("alu", Expr(0), ld->buffer.name() + ".refresh", body);
    return ir::seq({refresh, self});
  }

 private:
  std::unordered_set<const ir::BufferNode*> filled_;
};

}  // namespace

Stmt refresh_dma_filled_acc(const Stmt& body) {
  auto filled = dma_filled(body);
  if (filled.empty()) return body;
  Refresher r(std::move(filled));
  return r.mutate(body);
}

}  // namespace tandem::accel
