// Virtual-thread injection (see inject_vthread.h).
#include "compiler/accel/inject_vthread.h"

#include <map>
#include <string>
#include <vector>

#include "compiler/accel/calls.h"
#include "compiler/accel/element_group.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/substitute.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

struct Expansion {
  ir::Buffer replica;         // the n-fold buffer
  std::int64_t scalars = 0;   // size of one thread's slice, in scalars
  std::int64_t elements = 0;  // same, in SRAM elements (0 for host buffers)
};
using ExpansionMap = std::map<const ir::BufferNode*, Expansion>;

// Thread k's view of a leaf: expanded buffers point at slice k.
class SliceRewriter : public ir::IRMutator {
 public:
  SliceRewriter(const ExpansionMap& m, std::int64_t k) : m_(m), k_(k) {}

  Expr visit(const ir::LoadNode* op, const Expr& self) override {
    Expr e = IRMutator::visit(op, self);
    const auto* n = e.as<ir::LoadNode>();
    auto it = m_.find(n->buffer.get());
    if (it == m_.end()) return e;
    return ir::LoadNode::make(it->second.replica, {n->indices[0] + Expr(k_ * it->second.scalars)});
  }
  Stmt visit(const ir::StoreNode* op, const Stmt& self) override {
    Stmt s = IRMutator::visit(op, self);
    const auto* n = s.as<ir::StoreNode>();
    auto it = m_.find(n->buffer.get());
    if (it == m_.end()) return s;
    return ir::StoreNode::make(it->second.replica, {n->indices[0] + Expr(k_ * it->second.scalars)},
                               n->value);
  }
  Expr visit(const ir::CallNode* op, const Expr& self) override {
    Expr e = IRMutator::visit(op, self);
    const auto* n = e.as<ir::CallNode>();
    std::vector<Expr> args = n->args;
    std::vector<ir::Buffer> bufs = n->buffers;
    bool hit = false;
    for (std::size_t j = 0; j < bufs.size(); ++j) {
      auto it = m_.find(bufs[j].get());
      if (it == m_.end()) continue;
      TANDEM_ASSERT(is_accel_call(n->name) && j < args.size(),
                    "virtual thread over call '" << n->name << "'");
      bufs[j] = it->second.replica;
      args[j] = args[j] + Expr(k_ * it->second.elements);
      hit = true;
    }
    if (!hit) return e;
    return ir::CallNode::make(n->dtype, n->name, std::move(args), std::move(bufs));
  }

 private:
  const ExpansionMap& m_;
  std::int64_t k_;
};

class VThreadInjector {
 public:
  VThreadInjector(const HwConfig& cfg, const ir::Var& vt, std::int64_t n,
                  std::unordered_set<const ir::BufferNode*>* expanded)
      : cfg_(cfg), vt_(vt), n_(n), expanded_(expanded) {}

  Stmt inject(const Stmt& s) {
    if (const auto* a = s.as<ir::AllocateNode>()) {
      const ir::Buffer& b = a->buffer;
      const std::int64_t count = b.num_elements();
      ir::Buffer rep(b.name(), b.dtype(), {Expr(count * n_)}, b.scope());
      Expansion e{rep, count, 0};
      if (is_sram_scope(b.scope())) {
        const std::int64_t el = scalars_per_element(cfg_, b.scope());
        TANDEM_CHECK(count % el == 0, "buffer '" << b.name() << "' of " << count
                                                 << " scalars is not a whole number of "
                                                 << b.scope() << " elements of " << el);
        e.elements = count / el;
      }
      map_[b.get()] = e;
      if (expanded_) expanded_->insert(rep.get());
      Stmt body = inject(a->body);
      return ir::AllocateNode::make(rep, body);
    }
    if (const auto* f = s.as<ir::ForNode>()) {
      TANDEM_CHECK(!ir::uses_var(f->extent, vt_.get()),
                   "loop '" << f->var.name() << "' has an extent that depends on virtual thread '"
                            << vt_.name() << "'");
      if (f->kind == ir::ForKind::kVThread) return leaf(s);
      return ir::ForNode::make(f->var, f->min, f->extent, f->kind, inject(f->body));
    }
    if (const auto* q = s.as<ir::SeqNode>()) {
      std::vector<Stmt> v;
      for (const Stmt& x : q->stmts) v.push_back(inject(x));
      return ir::seq(std::move(v));
    }
    if (const auto* a = s.as<ir::AttrStmtNode>()) {
      if (a->key == kUopKernelAttr || a->key == "dma") return leaf(s);
      return ir::AttrStmtNode::make(a->key, a->value, a->text, inject(a->body));
    }
    return leaf(s);
  }

 private:
  Stmt leaf(const Stmt& s) {
    std::vector<Stmt> copies;
    for (std::int64_t k = 0; k < n_; ++k) {
      Stmt c = ir::substitute(s, ir::VarMap{{vt_.get(), Expr(k)}});
      SliceRewriter r(map_, k);
      copies.push_back(r.mutate(c));
    }
    return ir::seq(std::move(copies));
  }

  const HwConfig& cfg_;
  ir::Var vt_;
  std::int64_t n_;
  std::unordered_set<const ir::BufferNode*>* expanded_;
  ExpansionMap map_;
};

class VThreadPass : public ir::IRMutator {
 public:
  VThreadPass(const HwConfig& cfg, std::unordered_set<const ir::BufferNode*>* expanded)
      : cfg_(cfg), expanded_(expanded) {}
  Stmt visit(const ir::ForNode* op, const Stmt& self) override {
    Stmt s = IRMutator::visit(op, self);  // inner virtual threads first
    const auto* f = s.as<ir::ForNode>();
    if (f->kind != ir::ForKind::kVThread) return s;
    const std::int64_t* n = ir::as_const_int(f->extent);
    TANDEM_CHECK(n != nullptr && *n >= 1 && ir::is_const_int(f->min, 0),
                 "virtual thread loop '" << f->var.name() << "' needs a constant extent");
    VThreadInjector inj(cfg_, f->var, *n, expanded_);
    return inj.inject(f->body);
  }

 private:
  const HwConfig& cfg_;
  std::unordered_set<const ir::BufferNode*>* expanded_;
};

}  // namespace

Stmt inject_vthread(const Stmt& body, const HwConfig& cfg,
                    std::unordered_set<const ir::BufferNode*>* expanded) {
  VThreadPass p(cfg, expanded);
  return p.mutate(body);
}

}  // namespace tandem::accel
