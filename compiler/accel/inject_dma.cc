// DMA injection (see inject_dma.h).
#include "compiler/accel/inject_dma.h"

#include <algorithm>
#include <optional>

#include "compiler/accel/affine.h"
#include "compiler/accel/calls.h"
#include "compiler/accel/element_group.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"
#include "compiler/ir/substitute.h"
#include "isa/error.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

constexpr std::int64_t kMaxSize = 65535;  // 16-bit y_size, x_size, x_stride

bool is_zero(const Expr& e) {
  if (const auto* c = e.as<ir::CastNode>()) return is_zero(c->value);
  return ir::is_const_int(e, 0);
}

// cond -> list of affine forms f with the meaning f >= 0 (all must hold).
void collect_conjuncts(const Expr& cond, std::vector<Affine>* out, const std::string& what) {
  auto affine = [&](const Expr& e) {
    std::optional<Affine> a = as_affine(e);
    TANDEM_CHECK(a.has_value(), what << ": padding condition term '" << ir::to_string(e)
                                     << "' is not affine in the loop variables");
    return *a;
  };
  using ir::NodeType;
  switch (cond.node_type()) {
    case NodeType::kAnd: {
      const auto* n = cond.as<ir::AndNode>();
      collect_conjuncts(n->a, out, what);
      collect_conjuncts(n->b, out, what);
      return;
    }
    case NodeType::kIntImm:
      if (cond.as<ir::IntImmNode>()->value != 0) return;
      out->push_back(Affine{-1, {}});  // never true
      return;
    case NodeType::kGE: {
      const auto* n = cond.as<ir::GENode>();
      out->push_back(affine(n->a).add(affine(n->b).scaled(-1)));
      return;
    }
    case NodeType::kGT: {
      const auto* n = cond.as<ir::GTNode>();
      out->push_back(affine(n->a).add(affine(n->b).scaled(-1)).add(Affine{-1, {}}));
      return;
    }
    case NodeType::kLE: {
      const auto* n = cond.as<ir::LENode>();
      out->push_back(affine(n->b).add(affine(n->a).scaled(-1)));
      return;
    }
    case NodeType::kLT: {
      const auto* n = cond.as<ir::LTNode>();
      out->push_back(affine(n->b).add(affine(n->a).scaled(-1)).add(Affine{-1, {}}));
      return;
    }
    case NodeType::kEQ: {
      const auto* n = cond.as<ir::EQNode>();
      Affine d = affine(n->a).add(affine(n->b).scaled(-1));
      out->push_back(d);
      out->push_back(d.scaled(-1));
      return;
    }
    default:
      break;
  }
  throw Error(Msg() << what << ": padding condition '" << ir::to_string(cond)
                    << "' is not a conjunction of comparisons (the DMA pads a rectangle)");
}

// The valid range [lo, hi) of one DMA dimension of extent `ext`, as
// expressions of the enclosing loops, from the conditions on its variable.
struct DimRange {
  Expr lo, hi;
};

DimRange dim_range(const ir::VarNode* v, std::int64_t ext, const std::vector<Affine>& conds) {
  Expr lo = Expr(0), hi = Expr(ext);
  for (const Affine& f : conds) {
    const std::int64_t c = v ? f.coeff(v) : 0;
    if (c == 0) continue;
    const Expr r = f.without(v).to_expr();
    if (c > 0) {
      lo = ir::max(lo, ir::floordiv(Expr(c - 1) - r, Expr(c)));
    } else {
      hi = ir::min(hi, ir::floordiv(r, Expr(-c)) + Expr(1));
    }
  }
  lo = ir::min(lo, Expr(ext));
  hi = ir::max(ir::min(hi, Expr(ext)), lo);
  return {ir::simplify(lo), ir::simplify(hi)};
}

class DmaInjector : public ir::IRMutator {
 public:
  explicit DmaInjector(const HwConfig& cfg) : cfg_(cfg) {}

  Stmt visit(const ir::AttrStmtNode* op, const Stmt& self) override {
    if (op->key != "dma_copy") return IRMutator::visit(op, self);
    return ir::AttrStmtNode::make("dma", op->value, op->text, lower_copy(op));
  }

 private:
  Stmt lower_copy(const ir::AttrStmtNode* attr);

  const HwConfig& cfg_;
};

Stmt DmaInjector::lower_copy(const ir::AttrStmtNode* attr) {
  const std::string what = "dma_copy of '" + attr->text + "'";
  std::vector<LoopInfo> loops;
  Stmt s = attr->body;
  while (true) {
    if (const auto* f = s.as<ir::ForNode>()) {
      const std::int64_t* ext = ir::as_const_int(f->extent);
      TANDEM_CHECK(ext != nullptr && ir::is_const_int(f->min, 0),
                   what << ": loop '" << f->var.name() << "' has a non-constant range");
      loops.push_back(LoopInfo{f->var, *ext});
      s = f->body;
    } else if (const auto* a = s.as<ir::AttrStmtNode>()) {
      s = a->body;
    } else {
      break;
    }
  }
  const auto* st = s.as<ir::StoreNode>();
  if (st == nullptr) {
    if (s.as<ir::IfThenElseNode>())
      throw Error(Msg() << what
                        << ": the copy loops contain a guard (a split factor that does "
                           "not divide the extent); use tile factors that divide the "
                           "shape");
    throw Error(Msg() << what << ": expected a loop nest around ONE store, found "
                      << ir::node_type_name(s.node_type()));
  }
  TANDEM_CHECK(st->indices.size() == 1, what << ": store is not flattened");
  Expr v = st->value;
  Expr cond;
  if (const auto* sel = v.as<ir::SelectNode>()) {
    TANDEM_CHECK(is_zero(sel->false_value), what << ": the padding value '"
                                                 << ir::to_string(sel->false_value)
                                                 << "' is not 0 (the DMA can only pad with zeros)");
    cond = sel->cond;
    v = sel->true_value;
  }
  bool narrowing = false;
  if (const auto* c = v.as<ir::CastNode>()) {
    narrowing = true;
    v = c->value;
  }
  const auto* ld = v.as<ir::LoadNode>();
  TANDEM_CHECK(ld != nullptr, what << ": the stored value '" << ir::to_string(st->value)
                                   << "' is not a plain copy of a tensor element");
  TANDEM_CHECK(ld->indices.size() == 1, what << ": load is not flattened");
  const ir::Buffer& dst = st->buffer;
  const ir::Buffer& src = ld->buffer;
  const bool is_load = is_sram_scope(dst.scope()) && src.scope() == "global";
  const bool is_store = dst.scope() == "global" && is_sram_scope(src.scope());
  TANDEM_CHECK(is_load || is_store, what << ": copies '" << src.name() << "' (" << src.scope()
                                         << ") to '" << dst.name() << "' (" << dst.scope()
                                         << "); a DMA moves data between global memory and "
                                            "the inp/wgt/acc/out SRAMs");
  const ir::Buffer& sram = is_load ? dst : src;
  const ir::Buffer& dram = is_load ? src : dst;
  std::string mem_scope = sram.scope();
  if (is_load) {
    TANDEM_CHECK(mem_scope != "out", what << ": the out SRAM cannot be loaded from DRAM");
    TANDEM_CHECK(!narrowing && src.dtype() == dst.dtype(),
                 what << ": loads '" << src.name() << "' (" << ir::dtype_name(src.dtype())
                      << ") into '" << dst.name() << "' (" << ir::dtype_name(dst.dtype())
                      << "); the DMA copies bytes and cannot convert types");
    TANDEM_CHECK(ir::dtype_bits(dst.dtype()) == scalar_bits_of_scope(cfg_, mem_scope),
                 what << ": " << mem_scope << " holds " << scalar_bits_of_scope(cfg_, mem_scope)
                      << "-bit values, tensor '" << dst.name() << "' is "
                      << ir::dtype_name(dst.dtype()));
  } else {
    TANDEM_CHECK(!cond.defined(), what << ": a store cannot pad");
    TANDEM_CHECK(mem_scope == "acc" || mem_scope == "out",
                 what << ": only the out SRAM (the narrowed acc) can be stored, not " << mem_scope);
    mem_scope = "out";
    TANDEM_CHECK(ir::dtype_bits(dst.dtype()) == scalar_bits_of_scope(cfg_, "out"),
                 what << ": the out SRAM holds " << scalar_bits_of_scope(cfg_, "out")
                      << "-bit values, tensor '" << dst.name() << "' is "
                      << ir::dtype_name(dst.dtype()));
  }
  const std::int64_t elem = scalars_per_element(cfg_, mem_scope);

  auto idx_s = as_affine((is_load ? st->indices : ld->indices)[0]);
  auto idx_d = as_affine((is_load ? ld->indices : st->indices)[0]);
  TANDEM_CHECK(idx_s && idx_d, what << ": index '"
                                    << ir::to_string(idx_s ? ld->indices[0] : st->indices[0])
                                    << "' is not affine in the loop variables");
  GroupedNest g = group_elements(loops, {*idx_s, *idx_d}, elem, what);
  Affine S = g.index[0], D = g.index[1];

  std::vector<Affine> conds;
  if (cond.defined()) collect_conjuncts(cond, &conds, what);
  auto in_cond = [&](const ir::VarNode* v) {
    return std::any_of(conds.begin(), conds.end(), [&](const Affine& f) { return f.uses(v); });
  };
  for (const LoopInfo& l : loops) {
    const bool kept = std::any_of(g.loops.begin(), g.loops.end(),
                                  [&](const LoopInfo& k) { return k.var.same_as(l.var); });
    TANDEM_CHECK(kept || !in_cond(l.var.get()),
                 what << ": the padding condition depends on loop '" << l.var.name()
                      << "' inside one SRAM element; only whole elements can be padded");
  }

  // Drop repeated copies, reject loops that write one SRAM element many times.
  std::vector<LoopInfo> el;
  for (const LoopInfo& l : g.loops) {
    const std::int64_t cs = S.coeff(l.var.get()), cd = D.coeff(l.var.get());
    if (cs == 0 && cd == 0 && !in_cond(l.var.get())) continue;
    TANDEM_CHECK(cs != 0 || !is_load, what << ": loop '" << l.var.name()
                                           << "' writes the same SRAM element " << l.extent
                                           << " times");
    el.push_back(l);
  }
  // Merge adjacent loops that are contiguous on both sides.
  for (std::size_t j = el.size(); j-- > 1;) {
    LoopInfo& in = el[j];
    LoopInfo& out = el[j - 1];
    const ir::VarNode* vi = in.var.get();
    const ir::VarNode* vo = out.var.get();
    if (in_cond(vi) || in_cond(vo)) continue;
    if (S.coeff(vo) != S.coeff(vi) * in.extent || D.coeff(vo) != D.coeff(vi) * in.extent) continue;
    if (out.extent * in.extent > kMaxSize) continue;
    ir::Var fused(out.var.name() + "." + in.var.name());
    const std::int64_t cs = S.coeff(vi), cd = D.coeff(vi);
    S = S.without(vo).without(vi).add(Affine{0, {{fused, cs}}});
    D = D.without(vo).without(vi).add(Affine{0, {{fused, cd}}});
    out = LoopInfo{fused, out.extent * in.extent};
    el.erase(el.begin() + static_cast<std::ptrdiff_t>(j));
  }
  // x: innermost loop contiguous on both sides; y: next loop stepping one row.
  int xi = -1, yi = -1;
  const int n = static_cast<int>(el.size());
  if (n >= 1 && S.coeff(el[n - 1].var.get()) == 1) {
    const LoopInfo& l = el[n - 1];
    if (D.coeff(l.var.get()) == 1 && l.extent <= kMaxSize) xi = n - 1;
  }
  const std::int64_t width = xi >= 0 ? el[xi].extent : 1;
  const int yc = xi >= 0 ? n - 2 : n - 1;
  if (yc >= 0) {
    const LoopInfo& l = el[yc];
    const std::int64_t ds = D.coeff(l.var.get());
    // The DRAM row step must be at least the transferred row (x_size <= W);
    // the codegen checks x_stride >= x_size per instance.
    if (S.coeff(l.var.get()) == width && ds >= 1 && ds <= kMaxSize && l.extent <= kMaxSize) yi = yc;
  }
  const ir::VarNode* xv = xi >= 0 ? el[xi].var.get() : nullptr;
  const ir::VarNode* yv = yi >= 0 ? el[yi].var.get() : nullptr;
  const std::int64_t xext = xi >= 0 ? el[xi].extent : 1;
  const std::int64_t yext = yi >= 0 ? el[yi].extent : 1;

  // Conditions: on x, on y, or on neither (a predicate on the whole block).
  std::vector<Affine> xc, yc_, pred;
  for (const Affine& f : conds) {
    const bool ux = xv && f.uses(xv), uy = yv && f.uses(yv);
    TANDEM_CHECK(!(ux && uy), what << ": padding condition couples the two DMA dimensions");
    (ux ? xc : (uy ? yc_ : pred)).push_back(f);
  }
  DimRange rx = dim_range(xv, xext, xc);
  DimRange ry = dim_range(yv, yext, yc_);
  if (!pred.empty()) {
    Expr p;
    for (const Affine& f : pred) {
      Expr c = f.to_expr() >= Expr(0);
      p = p.defined() ? (p && c) : c;
    }
    ry.hi = ir::simplify(ir::select(p, ry.hi, ry.lo));
  }

  Affine sbase = S;
  Affine dbase = D;
  if (xv) sbase = sbase.without(xv), dbase = dbase.without(xv);
  if (yv) sbase = sbase.without(yv), dbase = dbase.without(yv);
  Expr dram_base = dbase.to_expr();
  if (xv) dram_base = dram_base + rx.lo * Expr(D.coeff(xv));
  if (yv) dram_base = dram_base + ry.lo * Expr(D.coeff(yv));
  const std::int64_t stride = yv ? D.coeff(yv) : xext;

  std::vector<Expr> args;
  args.push_back(ir::simplify(sbase.to_expr()));
  args.push_back(ir::simplify(dram_base));
  if (is_load) {
    args.push_back(ir::simplify(ry.hi - ry.lo));
    args.push_back(ir::simplify(rx.hi - rx.lo));
    args.push_back(Expr(stride));
    args.push_back(ry.lo);
    args.push_back(ir::simplify(Expr(yext) - ry.hi));
    args.push_back(rx.lo);
    args.push_back(ir::simplify(Expr(xext) - rx.hi));
  } else {
    args.push_back(Expr(yext));
    args.push_back(Expr(xext));
    args.push_back(Expr(stride));
  }
  Stmt body = ir::evaluate(
      ir::call(ir::DType::kInt32, is_load ? kDmaLoad : kDmaStore, std::move(args), {sram, dram}));
  for (int k = n - 1; k >= 0; --k) {
    if (k == xi || k == yi) continue;
    body = ir::for_loop(el[k].var, Expr(0), Expr(el[k].extent), body);
  }
  return body;
}

}  // namespace

ir::Stmt inject_dma(const ir::Stmt& body, const HwConfig& cfg) {
  DmaInjector m(cfg);
  return m.mutate(body);
}

}  // namespace tandem::accel
