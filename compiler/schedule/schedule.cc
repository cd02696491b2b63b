// Schedule creation, stage lookup, and cache_read / cache_write.
#include "compiler/schedule/schedule.h"

#include <algorithm>

#include "compiler/ir/substitute.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::te {

namespace {

std::shared_ptr<StageNode> make_stage(const Tensor& t, ScheduleNode* sch) {
  auto s = std::make_shared<StageNode>();
  s->output = t;
  s->op = t.op();
  s->body = t.op()->body;
  for (const IterVar& iv : t.op()->axis) s->root_iter_vars.push_back(iv);
  for (const IterVar& iv : t.op()->reduce_axis) s->root_iter_vars.push_back(iv);
  s->all_iter_vars = s->root_iter_vars;
  s->leaf_iter_vars = s->root_iter_vars;
  s->schedule = sch;
  return s;
}

bool reads(const Expr& body, const ir::Buffer& b) {
  bool found = false;
  ir::post_order_visit(body, [&](const ir::Node* n) {
    if (n->node_type == ir::NodeType::kLoad &&
        static_cast<const ir::LoadNode*>(n)->buffer.get() == b.get()) {
      found = true;
    }
  });
  return found;
}

size_t index_of(const ScheduleNode* sch, const Tensor& t) {
  for (size_t i = 0; i < sch->stages.size(); ++i) {
    if (sch->stages[i]->output.same_as(t)) return i;
  }
  throw Error(Msg() << "tensor " << (t.defined() ? t.name() : "<undefined>")
                    << " is not part of this schedule");
}

}  // namespace

Schedule create_schedule(const std::vector<Tensor>& outputs) {
  TANDEM_CHECK(!outputs.empty(), "create_schedule needs at least one output tensor");
  auto node = std::make_shared<ScheduleNode>();
  node->outputs = outputs;
  for (const Tensor& t : topo_order(outputs)) node->stages.push_back(make_stage(t, node.get()));
  for (const Tensor& t : outputs) {
    TANDEM_CHECK(!t.is_placeholder(), "output " << t.name() << " is a placeholder, not a compute");
    node->stages[index_of(node.get(), t)]->is_output = true;
  }
  return Schedule(node);
}

Stage Schedule::operator[](const Tensor& t) const {
  return Stage(node_->stages[index_of(node_.get(), t)]);
}

std::vector<Stage> Schedule::stages() const {
  std::vector<Stage> out;
  for (const auto& s : node_->stages) out.push_back(Stage(s));
  return out;
}

Tensor Schedule::cache_read(const Tensor& t, const std::string& scope,
                            const std::vector<Tensor>& readers) {
  size_t pos = index_of(node_.get(), t);
  TANDEM_CHECK(!readers.empty(), "cache_read of " << t.name() << " needs at least one reader");
  std::vector<std::shared_ptr<StageNode>> reader_stages;
  for (const Tensor& r : readers) {
    auto st = node_->stages[index_of(node_.get(), r)];
    TANDEM_CHECK(
        !st->is_placeholder() && reads(st->body, t.buffer()),
        "cache_read of " << t.name() << ": stage " << r.name() << " does not read " << t.name());
    reader_stages.push_back(st);
  }
  Tensor src = t;
  Tensor cache = compute(
      t.shape(),
      [&](const std::vector<Var>& v) { return src(std::vector<Expr>(v.begin(), v.end())); },
      t.name() + "." + scope);
  auto st = make_stage(cache, node_.get());
  Stage(st).set_scope(scope);
  node_->stages.insert(node_->stages.begin() + static_cast<std::ptrdiff_t>(pos) + 1, st);
  for (auto& r : reader_stages) r->body = ir::replace_buffer(r->body, t.buffer(), cache.buffer());
  return cache;
}

Tensor Schedule::cache_write(const Tensor& t, const std::string& scope) {
  size_t pos = index_of(node_.get(), t);
  auto st = node_->stages[pos];
  TANDEM_CHECK(!st->is_placeholder(), "cache_write of placeholder " << t.name());
  TANDEM_CHECK(
      st->relations.empty() && st->iter_attrs.empty() && st->attach_type == AttachType::kRoot,
      "cache_write of " << t.name() << " must come before any other schedule of it");
  // The cache stage takes over the computation (and the original axes).
  auto op = std::make_shared<OperationNode>();
  op->kind = OperationNode::Kind::kCompute;
  op->name = t.name() + "." + scope;
  op->body = st->body;
  for (const IterVar& iv : st->root_iter_vars) {
    (iv.kind() == IterKind::kReduce ? op->reduce_axis : op->axis).push_back(iv);
  }
  op->inputs = t.op()->inputs;
  Tensor cache(std::make_shared<TensorNode>(op->name, t.dtype(), t.shape(), op));
  auto cst = make_stage(cache, node_.get());
  cst->body = st->body;
  Stage(cst).set_scope(scope);
  // The original stage becomes a copy over fresh axes.
  std::vector<IterVar> fresh;
  std::vector<Expr> idx;
  for (size_t d = 0; d < t.ndim(); ++d) {
    const IterVar& old = op->axis[d];
    IterVar iv(Var(old.name() + ".c"), old->dom, IterKind::kDataPar);
    fresh.push_back(iv);
    idx.push_back(iv.var());
  }
  st->root_iter_vars = fresh;
  st->all_iter_vars = fresh;
  st->leaf_iter_vars = fresh;
  st->body = cache(idx);
  node_->stages.insert(node_->stages.begin() + static_cast<std::ptrdiff_t>(pos), cst);
  return cache;
}

}  // namespace tandem::te
