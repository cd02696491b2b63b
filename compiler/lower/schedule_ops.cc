// ScheduleOps: turns a schedule into one loop nest per stage, placed at the
// root or at their compute_at loops (see passes.h).
#include <algorithm>

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/simplify.h"
#include "compiler/lower/passes.h"
#include "compiler/lower/schedule_ops_impl.h"
#include "isa/error.h"

namespace tandem::pass {

namespace {

class Rebaser : public ir::IRMutator {
 public:
  explicit Rebaser(const LowerState& st) : st_(st) {}
  using IRMutator::visit;
  ir::Expr visit(const ir::LoadNode* op, const ir::Expr& self) override {
    ir::Expr e = IRMutator::visit(op, self);
    const ir::LoadNode* l = e.as<ir::LoadNode>();
    te::StageNode* s = st_.graph.find(l->buffer);
    if (!s) return e;
    auto it = st_.realized.find(s);
    if (it == st_.realized.end()) return e;
    const Realized& r = it->second;
    if (r.min.empty()) return e;
    std::vector<ir::Expr> idx;
    for (size_t d = 0; d < l->indices.size(); ++d)
      idx.push_back(ir::simplify(l->indices[d] - r.min[d]));
    return ir::load(r.buffer, idx);
  }

 private:
  const LowerState& st_;
};

}  // namespace

ir::Expr rebase_loads(const LowerState& st, const ir::Expr& e) {
  Rebaser r(st);
  return r.mutate(e);
}

ir::Stmt place_stage(LowerState& st, te::StageNode* s, const ir::Stmt& inner) {
  ir::Stmt body = ir::seq({make_nest(st, s), inner});
  const Realized& r = st.realized.at(s);
  return r.allocate ? ir::AllocateNode::make(r.buffer, body) : body;
}

ir::Stmt schedule_ops(const te::Schedule& sch, const std::vector<te::Tensor>& args) {
  LowerState st;
  st.graph = te::build_graph(sch);
  st.bounds = te::infer_bound(st.graph);
  auto is_arg = [&](const te::Tensor& t) {
    return std::any_of(args.begin(), args.end(), [&](const te::Tensor& a) { return a.same_as(t); });
  };
  for (te::StageNode* s : st.graph.order) {
    const te::StageBound& b = st.bounds.at(s);
    Realized r;
    if (is_arg(s->output)) {
      TANDEM_CHECK(s->scope == "global", "stage " << s->output.name() << " is a function argument "
                                                  << "(global memory) but was given scope "
                                                  << s->scope);
      r.buffer = s->output.buffer();
    } else {
      std::vector<ir::Expr> shape;
      for (size_t d = 0; d < s->output.ndim(); ++d) {
        shape.push_back(b.root_region[d].extent);
        r.min.push_back(b.root_region[d].min);
      }
      r.buffer = ir::Buffer(s->output.name(), s->output.dtype(), shape, s->scope);
      r.allocate = true;
    }
    st.realized[s] = r;
    if (s->attach_type == te::AttachType::kScope) {
      te::StageNode* parent = s->attach_stage.lock().get();
      TANDEM_CHECK(parent && st.graph.body.count(parent),
                   "stage " << s->output.name() << " is computed at a stage that is not lowered");
      size_t p = te::leaf_index(parent, s->attach_ivar, "compute_at");
      st.attached[{parent, parent->leaf_iter_vars[p].get()}].push_back(s);
    }
  }
  ir::Stmt acc = ir::seq({});
  for (auto it = st.graph.order.rbegin(); it != st.graph.order.rend(); ++it) {
    if ((*it)->attach_type == te::AttachType::kRoot) acc = place_stage(st, *it, acc);
  }
  return acc;
}

}  // namespace tandem::pass
