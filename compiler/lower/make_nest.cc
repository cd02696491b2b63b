// The loop nest of one stage: leaf loops with kinds and pragmas, stages
// attached at each loop, the reduction init nest, guards of inexact splits,
// and the tensorized region replaced by intrinsic calls.
#include <algorithm>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"
#include "compiler/ir/substitute.h"
#include "compiler/lower/schedule_ops_impl.h"
#include "isa/error.h"
#include "tensorize/match.h"

namespace tandem::pass {

using ir::Expr;
using ir::Stmt;

namespace {

std::string root_of(const te::StageNode* s, const te::IterVar& leaf) {
  te::IterVar cur = leaf;
  bool moved = true;
  while (moved) {
    moved = false;
    for (const te::Relation& r : s->relations) {
      if (const te::SplitRelation* sp = std::get_if<te::SplitRelation>(&r)) {
        if (sp->outer.same_as(cur) || sp->inner.same_as(cur)) {
          cur = sp->parent;
          moved = true;
        }
      } else {
        const te::FuseRelation& f = std::get<te::FuseRelation>(r);
        if (f.fused.same_as(cur)) {
          cur = f.outer;
          moved = true;
        }
      }
    }
  }
  return cur.name();
}

class NestBuilder {
 public:
  NestBuilder(LowerState& st, te::StageNode* s)
      : st_(st), s_(s), b_(st.bounds.at(s)), real_(st.realized.at(s)), leaves_(s->leaf_iter_vars) {
    n_ = static_cast<int>(leaves_.size());
    for (const auto& [iv, attr] : s->iter_attrs) {
      auto it = std::find_if(leaves_.begin(), leaves_.end(),
                             [&](const te::IterVar& l) { return l.get() == iv; });
      bool annotated =
          attr.tensor_intrin || !attr.pragmas.empty() || attr.kind != ir::ForKind::kSerial;
      TANDEM_CHECK(it != leaves_.end() || !annotated,
                   "stage " << name() << ": axis " << iv->var.name()
                            << " was annotated (pragma/tensorize/kind) and then split or fused; "
                               "annotate the resulting leaf axes instead");
      if (attr.tensor_intrin && it != leaves_.end()) {
        t_ = static_cast<int>(it - leaves_.begin());
        intrin_ = attr.tensor_intrin.get();
      }
    }
    for (int p = 0; p < n_; ++p) {
      if (leaves_[p].kind() == te::IterKind::kReduce) {
        r_ = p;
        break;
      }
    }
    // Index of the point computed by the innermost statement.
    ir::VarMap roots;
    for (size_t i = 0; i < s->root_iter_vars.size(); ++i) {
      roots[s->root_iter_vars[i].var().get()] = b_.root_index(s, i);
    }
    for (size_t d = 0; d < s->output.ndim(); ++d) {
      store_idx_.push_back(real_.min.empty() ? b_.root_index(s, d)
                                             : b_.value.at(s->root_iter_vars[d].get()));
    }
    Expr body = st.graph.body.at(s);
    reduce_ = body.as<ir::ReduceNode>();
    Expr src = reduce_ ? reduce_->source : body;
    value_ = ir::simplify(rebase_loads(st, ir::substitute(src, roots)));
  }

  Stmt build() { return nest_from(0); }

 private:
  const std::string& name() const { return s_->output.name(); }

  Stmt guarded(const Stmt& s, bool skip_reduce_vars, const ir::VarMap& remap) const {
    Expr cond;
    for (const Expr& g : b_.guards) {
      if (skip_reduce_vars && uses_reduce_leaf(g)) continue;
      Expr c = ir::substitute(g, remap);
      cond = cond.defined() ? (cond && c) : c;
    }
    return cond.defined() ? ir::IfThenElseNode::make(cond, s) : s;
  }
  bool uses_reduce_leaf(const Expr& e) const {
    for (const te::IterVar& l : leaves_) {
      if (l.kind() == te::IterKind::kReduce && ir::uses_var(e, l.var().get())) return true;
    }
    return false;
  }

  Stmt compute_stmt() const {
    if (!reduce_) return guarded(ir::store(real_.buffer, store_idx_, value_), false, {});
    Expr cur = ir::load(real_.buffer, store_idx_);
    Expr v;
    switch (reduce_->op) {
      case ir::ReduceOp::kSum:
        v = cur + value_;
        break;
      case ir::ReduceOp::kMax:
        v = ir::max(cur, value_);
        break;
      case ir::ReduceOp::kMin:
        v = ir::min(cur, value_);
        break;
    }
    return guarded(ir::store(real_.buffer, store_idx_, v), false, {});
  }

  tensorize::TensorizeCalls tensorized() {
    tensorize::TensorizeRequest req;
    req.stage = name();
    req.axis = leaves_[t_].name();
    ir::VarSet region;
    for (int q = t_; q < n_; ++q) {
      const te::IterVar& l = leaves_[q];
      req.loops.push_back({l.var(), b_.extent.at(l.get()), l.kind() == te::IterKind::kReduce,
                           l.name(), root_of(s_, l)});
      region.insert(l.var().get());
      TANDEM_CHECK(q == t_ || !st_.attached.count({s_, l.get()}),
                   "stage " << name() << ": a stage is computed at axis " << l.name()
                            << " inside the tensorized region of axis " << leaves_[t_].name());
    }
    for (const Expr& g : b_.guards) {
      TANDEM_CHECK(!ir::uses_var(g, region),
                   "tensorize at " << name() << "." << leaves_[t_].name() << ": the region has a "
                                   << "partial tile (" << ir::to_string(g)
                                   << "); choose split factors that divide the extents");
    }
    req.output = real_.buffer;
    req.output_indices = store_idx_;
    req.value = value_;
    if (reduce_) req.reduce_op = reduce_->op;
    return tensorize::match_intrinsic(*intrin_, req);
  }

  Stmt wrap_tensorize(const Stmt& s) const {
    return ir::AttrStmtNode::make("tensorize", Expr(0), intrin_->name, s);
  }

  // The reduction init: spatial loops after the first reduce loop, fresh vars.
  Stmt init_nest() {
    ir::VarMap remap;
    std::vector<int> loops;
    Stmt inner;
    for (int q = r_ + 1; q < n_; ++q) {
      if (q == t_) {
        inner = wrap_tensorize(tensorized().reset);
        break;
      }
      const te::IterVar& l = leaves_[q];
      if (l.kind() == te::IterKind::kReduce) continue;
      remap[l.var().get()] = ir::Var(l.name() + ".init");
      loops.push_back(q);
    }
    if (!inner.defined()) {
      Expr id = ir::ReduceNode::identity(reduce_->op, real_.buffer.dtype());
      inner = guarded(ir::store(real_.buffer, store_idx_, id), true, {});
    }
    inner = ir::substitute(inner, remap);
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      const te::IterVar& l = leaves_[*it];
      inner = ir::for_loop(ir::Var(remap.at(l.var().get())), 0, Expr(b_.extent.at(l.get())), inner);
    }
    return inner;
  }

  Stmt nest_from(int p) {
    if (p == t_) {
      tensorize::TensorizeCalls c = tensorized();
      Stmt body = c.update;
      if (reduce_ && !(r_ >= 0 && r_ < t_)) body = ir::seq({c.reset, c.update});
      return guarded(wrap_tensorize(body), false, {});
    }
    if (p == n_) return compute_stmt();
    std::vector<Stmt> parts;
    if (reduce_ && p == r_ && (t_ < 0 || t_ > r_)) parts.push_back(init_nest());
    const te::IterVar& l = leaves_[p];
    Stmt body = nest_from(p + 1);
    auto att = st_.attached.find({s_, l.get()});
    if (att != st_.attached.end()) {
      for (auto it = att->second.rbegin(); it != att->second.rend(); ++it) {
        body = place_stage(st_, *it, body);
      }
    }
    ir::ForKind kind = ir::ForKind::kSerial;
    std::vector<te::Pragma> pragmas;
    auto a = s_->iter_attrs.find(l.get());
    if (a != s_->iter_attrs.end()) {
      kind = a->second.kind;
      pragmas = a->second.pragmas;
    }
    Stmt loop = ir::for_loop(l.var(), 0, Expr(b_.extent.at(l.get())), body, kind);
    for (auto it = pragmas.rbegin(); it != pragmas.rend(); ++it) {
      loop = ir::AttrStmtNode::make(it->key, Expr(it->value), name() + "." + l.name(), loop);
    }
    parts.push_back(loop);
    return ir::seq(parts);
  }

  LowerState& st_;
  te::StageNode* s_;
  const te::StageBound& b_;
  const Realized& real_;
  std::vector<te::IterVar> leaves_;
  int n_ = 0;
  int t_ = -1;  // tensorized leaf
  int r_ = -1;  // first reduce leaf
  const tensorize::Intrinsic* intrin_ = nullptr;
  const ir::ReduceNode* reduce_ = nullptr;
  std::vector<Expr> store_idx_;
  Expr value_;
};

}  // namespace

Stmt make_nest(LowerState& st, te::StageNode* s) {
  return NestBuilder(st, s).build();
}

}  // namespace tandem::pass
