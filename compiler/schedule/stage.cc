// Stage primitives: split, tile, fuse, reorder, placement and annotations.
// Every check names the stage and the axis.
#include <algorithm>
#include <set>

#include "compiler/schedule/schedule.h"
#include "isa/error.h"

namespace tandem::te {

namespace {

const std::set<std::string>& known_scopes() {
  static const std::set<std::string> s{"global", "local", "inp", "wgt", "acc", "out"};
  return s;
}

std::string iv_name(const IterVar& iv) {
  return iv.defined() ? iv.name() : "<undefined>";
}

// Position of iv among the leaves, with a precise error otherwise.
size_t leaf_pos(const StageNode* s, const IterVar& iv, const char* what) {
  TANDEM_CHECK(iv.defined(), what << " on stage " << s->output.name() << ": undefined axis");
  for (size_t i = 0; i < s->leaf_iter_vars.size(); ++i) {
    if (s->leaf_iter_vars[i].same_as(iv)) return i;
  }
  for (const IterVar& a : s->all_iter_vars) {
    if (a.same_as(iv)) {
      throw Error(Msg() << what << " on stage " << s->output.name() << ": axis " << iv.name()
                        << " is not a leaf axis any more (it was split or fused)");
    }
  }
  throw Error(Msg() << what << " on stage " << s->output.name() << ": axis " << iv.name()
                    << " is not an axis of this stage");
}

IterVarAttr& attr_of(StageNode* s, const IterVar& iv, const char* what) {
  size_t p = leaf_pos(s, iv, what);
  return s->iter_attrs[s->leaf_iter_vars[p].get()];
}

void check_computable(const StageNode* s, const char* what) {
  TANDEM_CHECK(!s->is_placeholder(),
               what << ": " << s->output.name() << " is a placeholder (an input), it has no loops");
}

}  // namespace

IterVar Stage::axis(size_t i) const {
  size_t n = node_->output.ndim();
  TANDEM_CHECK(!node_->is_placeholder(), "stage " << name() << " is a placeholder: no axes");
  TANDEM_CHECK(i < n, "stage " << name() << " has " << n << " axes, asked for axis " << i);
  return node_->root_iter_vars[i];
}

IterVar Stage::reduce_axis(size_t i) const {
  size_t n = node_->root_iter_vars.size() - node_->output.ndim();
  TANDEM_CHECK(i < n, "stage " << name() << " has " << n << " reduce axes, asked for " << i);
  return node_->root_iter_vars[node_->output.ndim() + i];
}

IterVar Stage::leaf(const std::string& n) const {
  IterVar found;
  for (const IterVar& iv : node_->leaf_iter_vars) {
    if (iv.name() != n) continue;
    TANDEM_CHECK(!found.defined(), "stage " << name() << ": several leaf axes are named " << n);
    found = iv;
  }
  TANDEM_CHECK(found.defined(), "stage " << name() << " has no leaf axis named " << n);
  return found;
}

std::pair<IterVar, IterVar> Stage::split(const IterVar& parent, std::int64_t factor) {
  check_computable(node_.get(), "split");
  size_t p = leaf_pos(node_.get(), parent, "split");
  TANDEM_CHECK(factor >= 1, "split of axis " << parent.name() << " of stage " << name()
                                             << ": factor " << factor << " must be >= 1");
  IterVar par = node_->leaf_iter_vars[p];
  IterVar outer(Var(par.name() + ".outer"), Range{}, par.kind());
  IterVar inner(Var(par.name() + ".inner"), Range{}, par.kind());
  node_->relations.push_back(SplitRelation{par, outer, inner, factor, 0});
  node_->all_iter_vars.push_back(outer);
  node_->all_iter_vars.push_back(inner);
  node_->leaf_iter_vars[p] = outer;
  node_->leaf_iter_vars.insert(node_->leaf_iter_vars.begin() + static_cast<std::ptrdiff_t>(p) + 1,
                               inner);
  return {outer, inner};
}

std::pair<IterVar, IterVar> Stage::split_nparts(const IterVar& parent, std::int64_t nparts) {
  check_computable(node_.get(), "split_nparts");
  TANDEM_CHECK(nparts >= 1, "split_nparts of axis " << iv_name(parent) << " of stage " << name()
                                                    << ": nparts " << nparts << " must be >= 1");
  auto r = split(parent, 1);
  std::get<SplitRelation>(node_->relations.back()).factor = 0;
  std::get<SplitRelation>(node_->relations.back()).nparts = nparts;
  return r;
}

std::vector<IterVar> Stage::tile(const IterVar& x, const IterVar& y, std::int64_t xf,
                                 std::int64_t yf) {
  auto [xo, xi] = split(x, xf);
  auto [yo, yi] = split(y, yf);
  reorder({xo, yo, xi, yi});
  return {xo, yo, xi, yi};
}

IterVar Stage::fuse(const IterVar& outer, const IterVar& inner) {
  check_computable(node_.get(), "fuse");
  size_t po = leaf_pos(node_.get(), outer, "fuse");
  size_t pi = leaf_pos(node_.get(), inner, "fuse");
  TANDEM_CHECK(pi == po + 1, "fuse on stage " << name() << ": axis " << inner.name()
                                              << " must come right after axis " << outer.name()
                                              << " in the loop order");
  IterVar o = node_->leaf_iter_vars[po], i = node_->leaf_iter_vars[pi];
  TANDEM_CHECK(o.kind() == i.kind(), "fuse on stage " << name() << ": cannot fuse the reduce and "
                                                      << "data-parallel axes " << o.name()
                                                      << " and " << i.name());
  IterVar fused(Var(o.name() + "." + i.name() + ".fused"), Range{}, o.kind());
  node_->relations.push_back(FuseRelation{o, i, fused});
  node_->all_iter_vars.push_back(fused);
  node_->leaf_iter_vars[po] = fused;
  node_->leaf_iter_vars.erase(node_->leaf_iter_vars.begin() + static_cast<std::ptrdiff_t>(pi));
  return fused;
}

void Stage::reorder(const std::vector<IterVar>& order) {
  check_computable(node_.get(), "reorder");
  std::vector<size_t> pos;
  for (const IterVar& iv : order) {
    size_t p = leaf_pos(node_.get(), iv, "reorder");
    TANDEM_CHECK(std::find(pos.begin(), pos.end(), p) == pos.end(),
                 "reorder on stage " << name() << ": axis " << iv.name() << " appears twice");
    pos.push_back(p);
  }
  std::vector<size_t> slots = pos;
  std::sort(slots.begin(), slots.end());
  std::vector<IterVar> leaves = node_->leaf_iter_vars;
  for (size_t k = 0; k < pos.size(); ++k) leaves[slots[k]] = node_->leaf_iter_vars[pos[k]];
  node_->leaf_iter_vars = leaves;
}

void Stage::compute_at(const Stage& parent, const IterVar& axis) {
  check_computable(node_.get(), "compute_at");
  TANDEM_CHECK(parent.defined() && !parent.same_as(*this),
               "compute_at of stage " << name() << ": the parent must be another stage");
  TANDEM_CHECK(!node_->is_output, "compute_at: stage " << name()
                                                       << " is an output; outputs are computed "
                                                          "at the root");
  TANDEM_CHECK(!parent->is_placeholder(), "compute_at of stage " << name() << ": parent "
                                                                 << parent.name()
                                                                 << " is a placeholder");
  leaf_pos(parent.get(), axis, "compute_at");
  node_->attach_type = AttachType::kScope;
  node_->attach_stage = parent.node_;
  node_->attach_ivar = axis;
}

void Stage::compute_inline() {
  check_computable(node_.get(), "compute_inline");
  TANDEM_CHECK(!node_->is_output, "compute_inline: stage " << name() << " is an output");
  TANDEM_CHECK(node_->body.as<ir::ReduceNode>() == nullptr,
               "compute_inline: stage " << name() << " is a reduction and cannot be inlined");
  node_->attach_type = AttachType::kInline;
  node_->attach_stage.reset();
  node_->attach_ivar = IterVar();
}

void Stage::compute_root() {
  check_computable(node_.get(), "compute_root");
  node_->attach_type = AttachType::kRoot;
  node_->attach_stage.reset();
  node_->attach_ivar = IterVar();
}

void Stage::set_scope(const std::string& scope) {
  check_computable(node_.get(), "set_scope");
  TANDEM_CHECK(known_scopes().count(scope), "set_scope on stage " << name() << ": unknown scope \""
                                                                  << scope
                                                                  << "\" (global, local, inp, "
                                                                     "wgt, acc, out)");
  node_->scope = scope;
}

void Stage::pragma(const IterVar& axis, const std::string& key, std::int64_t value) {
  check_computable(node_.get(), "pragma");
  TANDEM_CHECK(!key.empty(), "pragma on stage " << name() << ": empty key");
  attr_of(node_.get(), axis, "pragma").pragmas.push_back(Pragma{key, value});
}

void Stage::tensorize(const IterVar& axis, const tensorize::Intrinsic& intrin) {
  check_computable(node_.get(), "tensorize");
  IterVarAttr& a = attr_of(node_.get(), axis, "tensorize");
  for (const auto& [iv, other] : node_->iter_attrs) {
    TANDEM_CHECK(&other == &a || !other.tensor_intrin, "tensorize on stage "
                                                           << name() << ": axis " << iv->var.name()
                                                           << " is already tensorized");
  }
  a.tensor_intrin = std::make_shared<tensorize::Intrinsic>(intrin);
}

void Stage::bind_vthread(const IterVar& axis) {
  check_computable(node_.get(), "bind_vthread");
  attr_of(node_.get(), axis, "bind_vthread").kind = ir::ForKind::kVThread;
}
void Stage::unroll(const IterVar& axis) {
  check_computable(node_.get(), "unroll");
  attr_of(node_.get(), axis, "unroll").kind = ir::ForKind::kUnrolled;
}
void Stage::vectorize(const IterVar& axis) {
  check_computable(node_.get(), "vectorize");
  attr_of(node_.get(), axis, "vectorize").kind = ir::ForKind::kVectorized;
}
void Stage::parallel(const IterVar& axis) {
  check_computable(node_.get(), "parallel");
  attr_of(node_.get(), axis, "parallel").kind = ir::ForKind::kParallel;
}

}  // namespace tandem::te
