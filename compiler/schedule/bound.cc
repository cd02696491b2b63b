// Static bound inference (see bound.h).
#include "compiler/schedule/bound.h"

#include <algorithm>

#include "compiler/ir/interval.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"
#include "compiler/ir/substitute.h"
#include "isa/error.h"

namespace tandem::te {

namespace {

std::int64_t const_of(const Expr& e, const std::string& what) {
  Expr s = ir::simplify(e);
  const std::int64_t* c = ir::as_const_int(s);
  TANDEM_CHECK(c != nullptr, what << " is not a constant: " << ir::to_string(s));
  return *c;
}

// Extents forward through the relations, values backward, guards.
void derive_axes(const StageNode* s, StageBound& b) {
  for (size_t i = 0; i < s->root_iter_vars.size(); ++i) {
    b.extent[s->root_iter_vars[i].get()] =
        const_of(b.root_region[i].extent, "extent of axis " + s->root_iter_vars[i].name());
  }
  for (const Relation& r : s->relations) {
    if (const SplitRelation* sp = std::get_if<SplitRelation>(&r)) {
      std::int64_t e = b.extent.at(sp->parent.get());
      std::int64_t f = sp->factor ? sp->factor : (e + sp->nparts - 1) / sp->nparts;
      f = std::max<std::int64_t>(f, 1);
      std::int64_t o = sp->factor ? (e + f - 1) / f : sp->nparts;
      b.extent[sp->inner.get()] = f;
      b.extent[sp->outer.get()] = o;
    } else {
      const FuseRelation& fu = std::get<FuseRelation>(r);
      b.extent[fu.fused.get()] = b.extent.at(fu.outer.get()) * b.extent.at(fu.inner.get());
    }
  }
  for (const IterVar& iv : s->leaf_iter_vars) b.value[iv.get()] = iv.var();
  for (auto it = s->relations.rbegin(); it != s->relations.rend(); ++it) {
    if (const SplitRelation* sp = std::get_if<SplitRelation>(&*it)) {
      std::int64_t f = b.extent.at(sp->inner.get());
      Expr v = b.value.at(sp->outer.get()) * Expr(f) + b.value.at(sp->inner.get());
      b.value[sp->parent.get()] = ir::simplify(v);
      std::int64_t e = b.extent.at(sp->parent.get());
      if (b.extent.at(sp->outer.get()) * f != e) {
        b.guards.push_back(ir::simplify(b.value[sp->parent.get()] < Expr(e)));
      }
    } else {
      const FuseRelation& fu = std::get<FuseRelation>(*it);
      Expr v = b.value.at(fu.fused.get());
      Expr ie(b.extent.at(fu.inner.get()));
      b.value[fu.outer.get()] = ir::simplify(v / ie);
      b.value[fu.inner.get()] = ir::simplify(v % ie);
    }
  }
}

// Leaf vars varying for accesses made by consumer `c` when the producer is
// attached at (attach, pos) (attach == nullptr: root). Vars at or outside
// the attach loop stay symbolic; their constant ranges go to `fixed`.
void collect_vars(const StageNode* producer, StageNode* c, const BoundMap& bounds,
                  ir::IntervalMap& dom, ir::Analyzer& fixed) {
  const StageNode* attach =
      producer->attach_type == AttachType::kScope ? producer->attach_stage.lock().get() : nullptr;
  const StageNode* x = c;
  bool inside = true;  // still below the attach point
  bool found = false;
  while (x) {
    const StageBound& xb = bounds.at(x);
    size_t first_varying = inside ? 0 : x->leaf_iter_vars.size();
    if (x == attach) {
      first_varying = leaf_index(x, producer->attach_ivar, "compute_at") + 1;
      found = true;
    }
    for (size_t i = 0; i < x->leaf_iter_vars.size(); ++i) {
      const IterVar& iv = x->leaf_iter_vars[i];
      std::int64_t e = xb.extent.at(iv.get());
      if (i >= first_varying) {
        dom[iv.var().get()] = ir::Interval{Expr(0), Expr(e - 1)};
      } else {
        fixed.bind(iv.var(), 0, e);
      }
    }
    if (x == attach) inside = false;
    x = x->attach_type == AttachType::kScope ? x->attach_stage.lock().get() : nullptr;
  }
  if (found) return;
  TANDEM_CHECK(attach == nullptr, "stage " << producer->output.name() << " is computed at "
                                           << attach->output.name() << "."
                                           << producer->attach_ivar.name() << " but its consumer "
                                           << c->output.name() << " is not inside that loop nest");
}

}  // namespace

Expr StageBound::root_index(const StageNode* s, size_t i) const {
  return ir::simplify(root_region[i].min + value.at(s->root_iter_vars[i].get()));
}

size_t leaf_index(const StageNode* s, const IterVar& iv, const char* what) {
  for (size_t i = 0; i < s->leaf_iter_vars.size(); ++i) {
    if (s->leaf_iter_vars[i].same_as(iv)) return i;
  }
  throw Error(Msg() << what << ": axis " << (iv.defined() ? iv.name() : "<undefined>")
                    << " is not a leaf axis of stage " << s->output.name()
                    << " (was it split or fused after being used?)");
}

BoundMap infer_bound(const StageGraph& g) {
  // compute_at must point to a stage lowered after this one (a consumer, directly
  // or transitively), which also rules out attach cycles.
  for (size_t i = 0; i < g.order.size(); ++i) {
    const StageNode* s = g.order[i];
    if (s->attach_type != AttachType::kScope) continue;
    const StageNode* p = s->attach_stage.lock().get();
    auto pos = std::find(g.order.begin(), g.order.end(), p);
    TANDEM_CHECK(pos != g.order.end(), "stage " << s->output.name() << " is computed at stage "
                                                << (p ? p->output.name() : "<gone>")
                                                << " which is inlined or not part of the schedule");
    TANDEM_CHECK(static_cast<size_t>(pos - g.order.begin()) > i,
                 "compute_at: stage " << s->output.name() << " is computed at " << p->output.name()
                                      << "." << s->attach_ivar.name() << ", but "
                                      << p->output.name()
                                      << " does not consume it (directly or indirectly)");
  }
  BoundMap out;
  for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
    StageNode* s = *it;
    StageBound b;
    const Tensor& t = s->output;
    std::vector<std::int64_t> shape = t.const_shape();
    auto cons = g.consumers.find(s);
    bool whole = s->is_output || cons == g.consumers.end() || cons->second.empty();
    for (size_t d = 0; d < shape.size(); ++d) {
      if (whole) {
        b.root_region.push_back(Range{Expr(0), Expr(shape[d])});
        continue;
      }
      ir::Interval u;
      bool first = true;
      ir::Analyzer fixed;
      for (StageNode* c : cons->second) {
        const StageBound& cb = out.at(c);
        ir::IntervalMap dom;
        collect_vars(s, c, out, dom, fixed);
        ir::VarMap roots;
        for (size_t i = 0; i < c->root_iter_vars.size(); ++i) {
          roots[c->root_iter_vars[i].var().get()] = cb.root_index(c, i);
        }
        for (const auto& idx : accesses_of(g.body.at(c), t.buffer())) {
          ir::Interval iv = ir::eval_interval(ir::substitute(idx[d], roots), dom, fixed);
          TANDEM_CHECK(iv.bounded(), "bound inference: stage " << c->output.name() << " reads "
                                                               << t.name() << " with index "
                                                               << ir::to_string(idx[d])
                                                               << " whose range is unbounded");
          u = first ? iv : ir::union_interval(u, iv, fixed);
          first = false;
        }
      }
      Expr mn = u.min;
      Expr ext = fixed.simplify(u.max - u.min + 1);
      if (!ir::as_const_int(ext)) {
        ir::ConstBounds cb = fixed.bounds(ext);
        TANDEM_CHECK(cb.max.has_value(), "bound inference: the region of " << t.name()
                                                                           << " dimension " << d
                                                                           << " has no constant "
                                                                              "bound: "
                                                                           << ir::to_string(ext));
        ext = Expr(*cb.max);
      }
      std::int64_t e = *ir::as_const_int(ext);
      if (e >= shape[d]) {
        b.root_region.push_back(Range{Expr(0), Expr(shape[d])});
        continue;
      }
      if (!fixed.can_prove(mn >= 0)) mn = fixed.simplify(ir::max(mn, 0));
      if (!fixed.can_prove(mn + e <= Expr(shape[d])))
        mn = fixed.simplify(ir::min(mn, Expr(shape[d] - e)));
      b.root_region.push_back(Range{mn, Expr(e)});
    }
    for (size_t i = shape.size(); i < s->root_iter_vars.size(); ++i) {
      b.root_region.push_back(s->root_iter_vars[i]->dom);
    }
    derive_axes(s, b);
    out[s] = std::move(b);
  }
  return out;
}

}  // namespace tandem::te
