// ALU lowering (see lower_alu.h).
#include "compiler/accel/lower_alu.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "compiler/accel/affine.h"
#include "compiler/accel/buffer_rewrite.h"
#include "compiler/accel/calls.h"
#include "compiler/accel/element_group.h"
#include "compiler/accel/out_refresh.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

constexpr std::int64_t kImmMin = -32768, kImmMax = 32767;

std::string alu_call(isa::AluOp op, bool imm) {
  return "alu_" + std::string(isa::alu_op_name(op)) + (imm ? "_imm" : "");
}

// One element-wise store of an "alu" stage, decoded.
struct AluStore {
  enum Kind { kImm, kTensor, kCopy, kConst } kind = kImm;
  isa::AluOp op = isa::AluOp::kAdd;
  ir::Buffer D, S, T;
  Expr d, s, t;
  std::int64_t imm = 0;
};

const ir::LoadNode* acc_load(const Expr& e) {
  const auto* l = e.as<ir::LoadNode>();
  return l != nullptr && l->buffer.scope() == "acc" ? l : nullptr;
}

AluStore parse_store(const ir::StoreNode* st, const std::string& what) {
  TANDEM_CHECK(st->buffer.scope() == "acc", what << ": writes '" << st->buffer.name()
                                                 << "' in scope '" << st->buffer.scope()
                                                 << "'; the ALU works on the acc SRAM");
  TANDEM_CHECK(st->indices.size() == 1, what << ": store is not flattened");
  AluStore r;
  r.D = st->buffer;
  r.d = st->indices[0];
  const Expr& v = st->value;
  if (const std::int64_t* c = ir::as_const_int(v)) {
    r.kind = AluStore::kConst;
    r.imm = *c;
    return r;
  }
  if (const auto* l = acc_load(v)) {
    r.kind = AluStore::kCopy;
    r.S = l->buffer;
    r.s = l->indices[0];
    return r;
  }
  Expr a, b;
  std::optional<isa::AluOp> op;
  bool commutative = true;
  bool negate_imm = false;
  bool sub = false;
  switch (v.node_type()) {
#define TANDEM_BIN(N, OP, COMM)          \
  case ir::NodeType::k##N: {             \
    const auto* n = v.as<ir::N##Node>(); \
    a = n->a;                            \
    b = n->b;                            \
    op = OP;                             \
    commutative = COMM;                  \
    break;                               \
  }
    TANDEM_BIN(Add, isa::AluOp::kAdd, true)
    TANDEM_BIN(Min, isa::AluOp::kMin, true)
    TANDEM_BIN(Max, isa::AluOp::kMax, true)
    TANDEM_BIN(Mul, isa::AluOp::kMul, true)
    TANDEM_BIN(Shr, isa::AluOp::kShr, false)
#undef TANDEM_BIN
    case ir::NodeType::kSub: {
      const auto* n = v.as<ir::SubNode>();
      a = n->a, b = n->b, op = isa::AluOp::kAdd, commutative = false, negate_imm = true, sub = true;
      break;
    }
    case ir::NodeType::kShl: {
      const auto* n = v.as<ir::ShlNode>();
      a = n->a, b = n->b, op = isa::AluOp::kShr, commutative = false, negate_imm = true;
      break;
    }
    default:
      break;
  }
  TANDEM_CHECK(op.has_value(), what << ": value '" << ir::to_string(v)
                                    << "' is not an ALU operation (+ - min max * >> << of acc "
                                       "values and constants)");
  const std::int64_t* ca = ir::as_const_int(a);
  const std::int64_t* cb = ir::as_const_int(b);
  if (ca && !cb && commutative) std::swap(a, b), std::swap(ca, cb);
  const auto* la = acc_load(a);
  const auto* lb = acc_load(b);
  TANDEM_CHECK(la != nullptr, what << ": operand '" << ir::to_string(a)
                                   << "' is not an element of an acc buffer"
                                   << (ca ? " (a constant may only be the second operand of "
                                            "- >> <<)"
                                          : ""));
  r.S = la->buffer;
  r.s = la->indices[0];
  r.op = *op;
  if (cb != nullptr) {
    r.kind = AluStore::kImm;
    r.imm = negate_imm ? -*cb : *cb;
    TANDEM_CHECK(r.imm >= kImmMin && r.imm <= kImmMax,
                 what << ": immediate " << r.imm << " of '" << ir::to_string(v)
                      << "' does not fit the ALU's signed 16-bit immediate [" << kImmMin << ", "
                      << kImmMax << "]");
    return r;
  }
  TANDEM_CHECK(lb != nullptr, what << ": operand '" << ir::to_string(b)
                                   << "' is neither a constant nor an element of an acc buffer");
  TANDEM_CHECK(!negate_imm, what << ": '" << ir::to_string(v) << "': the ALU has no "
                                 << (sub ? "subtraction" : "left shift") << " of two tensors");
  r.kind = AluStore::kTensor;
  r.T = lb->buffer;
  r.t = lb->indices[0];
  return r;
}

// ---------------------------------------------------------------- step 1
// The statements under an attr, and the store(s) in it.
void collect_stores(const Stmt& s, std::vector<const ir::StoreNode*>* out) {
  ir::post_order_visit(s, [&](const ir::Node* n) {
    if (n->node_type == ir::NodeType::kStore) out->push_back(static_cast<const ir::StoreNode*>(n));
  });
}

// Program-order scan of a scope body around statement `x`: does anything
// outside `x` touch buffer `b` before / after it? Also reports whether `x`
// sits under a loop inside the scanned body.
class ScanAround : public ir::IRVisitor {
 public:
  ScanAround(const ir::StmtNode* x, const ir::Buffer& b) : x_(x), b_(b) {}
  void walk(const Stmt& s) override {
    if (s.get() == x_) {
      passed = true;
      under_loop = loop_depth_ > 0;
      return;
    }
    IRVisitor::walk(s);
  }
  void visit(const ir::ForNode* op) override {
    ++loop_depth_;
    IRVisitor::visit(op);
    --loop_depth_;
  }
  void visit(const ir::LoadNode* op) override {
    touch(op->buffer);
    IRVisitor::visit(op);
  }
  void visit(const ir::StoreNode* op) override {
    touch(op->buffer);
    IRVisitor::visit(op);
  }
  void visit(const ir::CallNode* op) override {
    for (const ir::Buffer& x : op->buffers) touch(x);
    IRVisitor::visit(op);
  }
  bool passed = false, under_loop = false, before = false, after = false;

 private:
  void touch(const ir::Buffer& x) {
    if (x.same_as(b_)) (passed ? after : before) = true;
  }
  const ir::StmtNode* x_;
  ir::Buffer b_;
  int loop_depth_ = 0;
};

// An element-wise ALU stage D = op(S, ...) that may take over S's storage:
// an "alu" pragma nest with one store, or a tensorized ALU call.
struct AliasCandidate {
  const ir::StmtNode* nest = nullptr;  // the stage's loop nest (climbed through For)
  ir::Buffer D;
  Expr d;
  std::vector<std::pair<ir::Buffer, Expr>> srcs;  // operands D may alias, best first
};

class CandidateFinder : public ir::IRVisitor {
 public:
  void walk(const Stmt& s) override {
    stack_.push_back(s.get());
    IRVisitor::walk(s);
    stack_.pop_back();
  }
  void visit(const ir::AttrStmtNode* op) override {
    if (op->key == "alu") {
      std::vector<const ir::StoreNode*> stores;
      collect_stores(op->body, &stores);
      if (stores.size() == 1) {
        try {
          AluStore st = parse_store(stores[0], "alu");
          if (st.kind != AluStore::kConst) {
            AliasCandidate c{nest(), st.D, st.d, {{st.S, st.s}}};
            if (st.kind == AluStore::kTensor && st.op != isa::AluOp::kShr)
              c.srcs.push_back({st.T, st.t});
            found.push_back(std::move(c));
          }
        } catch (const Error&) {
          // reported by the conversion step
        }
      }
      return;
    }
    if (op->key == "tensorize") {
      const auto* ev = op->body.as<ir::EvaluateNode>();
      const auto* c = ev ? ev->value.as<ir::CallNode>() : nullptr;
      if (c != nullptr && c->name.rfind("alu_", 0) == 0 && c->buffers.size() >= 2 &&
          c->args.size() >= 2) {
        AliasCandidate cand{nest(), c->buffers[0], c->args[0], {{c->buffers[1], c->args[1]}}};
        const bool imm = c->name.size() > 4 && c->name.substr(c->name.size() - 4) == "_imm";
        if (!imm && c->buffers.size() == 3 && c->args.size() >= 3 && c->name != "alu_shr")
          cand.srcs.push_back({c->buffers[2], c->args[2]});
        found.push_back(std::move(cand));
      }
      return;
    }
    IRVisitor::visit(op);
  }
  std::vector<AliasCandidate> found;

 private:
  const ir::StmtNode* nest() const {
    std::size_t k = stack_.size() - 1;
    while (k > 0 && stack_[k - 1]->node_type == ir::NodeType::kFor) --k;
    return stack_[k];
  }
  std::vector<const ir::StmtNode*> stack_;
};

// Finds one ALU stage that can take over its source's storage and merges.
std::optional<Stmt> alias_once(const Stmt& root) {
  CandidateFinder finder;
  finder.walk(root);
  for (const AliasCandidate& x : finder.found) {
    for (const auto& [src, sidx] : x.srcs) {
      if (src.same_as(x.D) || src.scope() != "acc" || x.D.scope() != "acc") continue;
      const ir::AllocateNode* as = find_allocate(root, src);
      const ir::AllocateNode* ad = find_allocate(root, x.D);
      if (as == nullptr || ad == nullptr) continue;
      if (x.D.num_elements() > src.num_elements()) continue;
      auto di = as_affine(x.d), si = as_affine(sidx);
      if (!di || !si || !(*di == *si)) continue;
      // Within the outer of the two allocations, in straight-line order
      // (no loop around the stage): D is not touched before the stage and S
      // is not touched after it.
      const ir::AllocateNode* outer = find_allocate(as->body, x.D) != nullptr ? as : ad;
      ScanAround sd(x.nest, x.D), ss(x.nest, src);
      sd.walk(outer->body);
      ss.walk(outer->body);
      if (!sd.passed || sd.under_loop || sd.before || ss.after) continue;
      std::optional<Stmt> merged = merge_storage(root, src, x.D);
      if (merged) return merged;
    }
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- step 2
struct NarrowSite {
  const ir::StoreNode* store = nullptr;
  std::vector<LoopInfo> loops;         // every enclosing loop
  const ir::StmtNode* nest = nullptr;  // outermost statement holding only this store
};

class NarrowFinder : public ir::IRVisitor {
 public:
  void walk(const Stmt& s) override {
    stack_.push_back(s.get());
    IRVisitor::walk(s);
    stack_.pop_back();
  }
  void visit(const ir::AttrStmtNode* op) override {
    if (op->key == "alu" || op->key == "dma_copy") return;
    IRVisitor::visit(op);
  }
  void visit(const ir::ForNode* op) override {
    const std::int64_t* e = ir::as_const_int(op->extent);
    loops_.push_back(LoopInfo{op->var, e ? *e : -1});
    IRVisitor::visit(op);
    loops_.pop_back();
  }
  void visit(const ir::StoreNode* op) override {
    if (op->buffer.scope() == "out" && !found.store) {
      found.store = op;
      found.loops = loops_;
      // Climb the chain of single-child loops above the store.
      std::size_t k = stack_.size() - 1;
      while (k > 0 && stack_[k - 1]->node_type == ir::NodeType::kFor) --k;
      found.nest = stack_[k];
    }
  }
  NarrowSite found;

 private:
  std::vector<const ir::StmtNode*> stack_;
  std::vector<LoopInfo> loops_;
};

// Replaces one statement node by another.
class StmtReplacer : public ir::IRMutator {
 public:
  StmtReplacer(const ir::StmtNode* from, Stmt to) : from_(from), to_(std::move(to)) {}
  Stmt mutate(const Stmt& s) override {
    if (s.get() == from_) return to_;
    return IRMutator::mutate(s);
  }

 private:
  const ir::StmtNode* from_;
  Stmt to_;
};

bool dma_writes(const Stmt& root, const ir::Buffer& b) {
  bool hit = false;
  ir::post_order_visit(root, [&](const ir::Node* n) {
    if (n->node_type != ir::NodeType::kAttrStmt) return;
    const auto* a = static_cast<const ir::AttrStmtNode*>(n);
    if (a->key == "dma_copy" && writes_buffer(a->body, b)) hit = true;
  });
  return hit;
}

std::optional<Stmt> narrow_once(const Stmt& root, const HwConfig& cfg) {
  NarrowFinder f;
  f.walk(root);
  if (f.found.store == nullptr) return std::nullopt;
  const ir::StoreNode* st = f.found.store;
  const ir::Buffer& O = st->buffer;
  const std::string what = "narrowing stage '" + O.name() + "'";
  Expr v = st->value;
  if (const auto* c = v.as<ir::CastNode>()) v = c->value;
  const auto* ld = acc_load(v);
  TANDEM_CHECK(ld != nullptr, what << ": an out buffer can only receive int8(acc value), got '"
                                   << ir::to_string(st->value) << "'");
  TANDEM_CHECK(ir::dtype_bits(O.dtype()) == scalar_bits_of_scope(cfg, "out"),
               what << ": out holds " << scalar_bits_of_scope(cfg, "out") << "-bit values, '"
                    << O.name() << "' is " << ir::dtype_name(O.dtype()));
  const ir::Buffer A = ld->buffer;
  for (const LoopInfo& l : f.found.loops)
    TANDEM_CHECK(l.extent > 0, what << ": loop '" << l.var.name() << "' has a non-constant extent");
  auto oi = as_affine(st->indices[0]);
  auto ai = as_affine(ld->indices[0]);
  TANDEM_CHECK(oi && ai, what << ": index is not affine in the loop variables");
  const std::int64_t elem = scalars_per_element(cfg, "out");
  GroupedNest g = group_elements(f.found.loops, {*oi, *ai}, elem, what);
  Affine delta = g.index[1].add(g.index[0].scaled(-1));
  TANDEM_CHECK(delta.terms.empty(),
               what << ": out element " << ir::to_string(g.index[0].to_expr())
                    << " and acc element " << ir::to_string(g.index[1].to_expr())
                    << " differ by a non-constant; the out SRAM mirrors acc index by index");
  // Replace the nest (by an out refresh if a DMA also writes A), then the buffer.
  Stmt replacement = ir::seq({});
  if (dma_writes(root, A)) {
    Stmt refresh = ir::store(A, {ld->indices[0]}, ir::AddNode::make(v, Expr(0)));
    // Rebuild the nest's loops around the refresh.
    std::vector<const ir::ForNode*> chain;
    const ir::StmtNode* n = f.found.nest;
    while (n->node_type == ir::NodeType::kFor) {
      const auto* fo = static_cast<const ir::ForNode*>(n);
      chain.push_back(fo);
      n = fo->body.get();
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      refresh = ir::ForNode::make((*it)->var, (*it)->min, (*it)->extent, (*it)->kind, refresh);
    replacement = ir::AttrStmtNode::make("alu", Expr(0), O.name() + ".refresh", refresh);
  }
  StmtReplacer rep(f.found.nest, replacement);
  Stmt r = rep.mutate(root);
  const std::int64_t offset = delta.constant * elem;
  if (find_allocate(r, O) != nullptr) {
    std::optional<Stmt> m = merge_storage(r, A, O, offset);
    TANDEM_CHECK(m.has_value(), what << ": acc buffer '" << A.name()
                                     << "' is not allocated around the readers of '" << O.name()
                                     << "'");
    return *m;
  }
  return rename_buffer(r, O, A, offset);
}

// ---------------------------------------------------------------- step 3
std::vector<Stmt> alu_calls(const AluStore& st, const GroupedNest& g) {
  const Expr d = g.index[0].to_expr();
  auto call = [](const std::string& name, std::vector<Expr> args, std::vector<ir::Buffer> bufs) {
    return ir::evaluate(ir::call(ir::DType::kInt32, name, std::move(args), std::move(bufs)));
  };
  std::vector<Stmt> out;
  switch (st.kind) {
    case AluStore::kImm:
      out.push_back(
          call(alu_call(st.op, true), {d, g.index[1].to_expr(), Expr(st.imm)}, {st.D, st.S}));
      break;
    case AluStore::kTensor:
      out.push_back(call(alu_call(st.op, false), {d, g.index[1].to_expr(), g.index[2].to_expr()},
                         {st.D, st.S, st.T}));
      break;
    case AluStore::kCopy:
      if (st.S.same_as(st.D) && g.index[1] == g.index[0]) break;
      out.push_back(call(kAluReset, {d}, {st.D}));
      out.push_back(call(alu_call(isa::AluOp::kAdd, false), {d, d, g.index[1].to_expr()},
                         {st.D, st.D, st.S}));
      break;
    case AluStore::kConst: {
      out.push_back(call(kAluReset, {d}, {st.D}));
      if (st.imm == 0) break;
      std::int64_t m = st.imm;
      int k = 0;
      while (m < kImmMin || m > kImmMax) {
        TANDEM_CHECK(m % 2 == 0, "alu: constant " << st.imm
                                                  << " is neither a 16-bit immediate nor one "
                                                     "shifted left; the ALU cannot produce it");
        m /= 2;
        ++k;
      }
      out.push_back(call(alu_call(isa::AluOp::kAdd, true), {d, d, Expr(m)}, {st.D, st.D}));
      if (k > 0)
        out.push_back(call(alu_call(isa::AluOp::kShr, true), {d, d, Expr(-k)}, {st.D, st.D}));
      break;
    }
  }
  return out;
}

class AluConverter : public ir::IRMutator {
 public:
  explicit AluConverter(const HwConfig& cfg) : cfg_(cfg) {}

  Stmt visit(const ir::AttrStmtNode* op, const Stmt& self) override {
    if (op->key != "alu") return IRMutator::visit(op, self);
    what_ = "alu stage '" + op->text + "'";
    loops_.clear();
    intra_.clear();
    kept_.clear();
    Stmt body = convert(op->body);
    return ir::AttrStmtNode::make("alu", op->value, op->text, body);
  }

 private:
  Stmt convert(const Stmt& s) {
    if (const auto* f = s.as<ir::ForNode>()) {
      const std::int64_t* e = ir::as_const_int(f->extent);
      TANDEM_CHECK(e != nullptr && ir::is_const_int(f->min, 0),
                   what_ << ": loop '" << f->var.name() << "' has a non-constant range");
      loops_.push_back(LoopInfo{f->var, *e});
      Stmt body = convert(f->body);
      loops_.pop_back();
      if (intra_.count(f->var.get())) return body;  // scalars inside one element
      return ir::ForNode::make(f->var, f->min, f->extent, f->kind, body);
    }
    if (const auto* q = s.as<ir::SeqNode>()) {
      std::vector<Stmt> v;
      for (const Stmt& x : q->stmts) v.push_back(convert(x));
      return ir::seq(std::move(v));
    }
    if (const auto* a = s.as<ir::AttrStmtNode>())
      return ir::AttrStmtNode::make(a->key, a->value, a->text, convert(a->body));
    if (const auto* st = s.as<ir::StoreNode>()) {
      AluStore p = parse_store(st, what_);
      std::vector<Affine> acc;
      auto add = [&](const Expr& e) {
        auto a = as_affine(e);
        TANDEM_CHECK(a.has_value(), what_ << ": index '" << ir::to_string(e)
                                          << "' is not affine in the loop variables");
        acc.push_back(*a);
      };
      add(p.d);
      if (p.kind != AluStore::kConst) add(p.s);
      if (p.kind == AluStore::kTensor) add(p.t);
      GroupedNest g = group_elements(loops_, acc, scalars_per_element(cfg_, "acc"), what_);
      for (const LoopInfo& l : loops_) {
        const bool kept = std::any_of(g.loops.begin(), g.loops.end(),
                                      [&](const LoopInfo& k) { return k.var.same_as(l.var); });
        (kept ? kept_ : intra_).insert(l.var.get());
        TANDEM_CHECK(!(intra_.count(l.var.get()) && kept_.count(l.var.get())),
                     what_ << ": loop '" << l.var.name()
                           << "' runs inside one acc element for one statement but across "
                              "elements for another; put the block loops innermost");
      }
      return ir::seq(alu_calls(p, g));
    }
    if (s.as<ir::IfThenElseNode>())
      throw Error(Msg() << what_
                        << ": the loops contain a guard (a split factor that does not "
                           "divide the extent); use factors that divide the shape");
    throw Error(Msg() << what_ << ": unexpected " << ir::node_type_name(s.node_type())
                      << " in an element-wise ALU stage");
  }

  const HwConfig& cfg_;
  std::string what_;
  std::vector<LoopInfo> loops_;
  std::unordered_set<const ir::VarNode*> intra_, kept_;
};

}  // namespace

Stmt lower_alu(const Stmt& body, const HwConfig& cfg) {
  Stmt s = body;
  while (std::optional<Stmt> r = alias_once(s)) s = *r;
  while (std::optional<Stmt> r = narrow_once(s, cfg)) s = *r;
  s = refresh_dma_filled_acc(s);
  AluConverter conv(cfg);
  return conv.mutate(s);
}

}  // namespace tandem::accel
