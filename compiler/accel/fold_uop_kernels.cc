// Micro-op kernel extraction (see fold_uop_kernels.h).
#include "compiler/accel/fold_uop_kernels.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "compiler/accel/affine.h"
#include "compiler/accel/calls.h"
#include "compiler/accel/element_group.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"
#include "isa/layout.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

constexpr std::int64_t kMaxIter = (1 << isa::kIterBits) - 1;

std::optional<isa::AluOp> parse_alu_name(const std::string& name, bool* imm) {
  if (name.rfind("alu_", 0) != 0 || name == kAluReset) return std::nullopt;
  std::string op = name.substr(4);
  *imm = false;
  if (op.size() > 4 && op.substr(op.size() - 4) == "_imm") {
    *imm = true;
    op = op.substr(0, op.size() - 4);
  }
  for (isa::AluOp o :
       {isa::AluOp::kMin, isa::AluOp::kMax, isa::AluOp::kAdd, isa::AluOp::kShr, isa::AluOp::kMul})
    if (op == isa::alu_op_name(o)) return o;
  return std::nullopt;
}

bool is_compute_call(const ir::CallNode* c) {
  bool imm;
  return c->name == "gemm_update" || c->name == "gemm_reset" || c->name == kAluReset ||
         parse_alu_name(c->name, &imm).has_value();
}

const ir::CallNode* compute_call_of(const Stmt& s) {
  const auto* e = s.as<ir::EvaluateNode>();
  if (e == nullptr) return nullptr;
  const auto* c = e->value.as<ir::CallNode>();
  return c != nullptr && is_compute_call(c) ? c : nullptr;
}

// Region: loops, seqs, attrs and compute calls only (at least one call).
bool is_region(const Stmt& s, bool* has_call) {
  if (const auto* f = s.as<ir::ForNode>()) return is_region(f->body, has_call);
  if (const auto* q = s.as<ir::SeqNode>()) {
    for (const Stmt& x : q->stmts)
      if (!is_region(x, has_call)) return false;
    return true;
  }
  if (const auto* a = s.as<ir::AttrStmtNode>()) {
    if (a->key == "dma" || a->key == kUopKernelAttr) return false;
    return is_region(a->body, has_call);
  }
  if (compute_call_of(s) != nullptr) {
    *has_call = true;
    return true;
  }
  return false;
}

// One micro-op stream of a call: what the instruction does and the operands.
struct MicroCall {
  isa::KernelOp op;
  std::vector<ir::Buffer> bufs;  // [acc dst, src (inp/acc), wgt] as used
  std::vector<Affine> idx;       // same length as bufs
  bool order_sensitive = false;
  std::string what;
};

struct Site {
  std::vector<LoopInfo> loops;
  const ir::CallNode* call = nullptr;
  std::string text;
};

class Folder : public ir::IRMutator {
 public:
  explicit Folder(const HwConfig& cfg) : cfg_(cfg) {}

  Stmt mutate(const Stmt& s) override {
    bool has_call = false;
    if (s.defined() && is_region(s, &has_call) && has_call) return fold_region(s);
    return IRMutator::mutate(s);
  }
  Stmt visit(const ir::AttrStmtNode* op, const Stmt& self) override {
    std::string saved = text_;
    if (op->key == "tensorize" || op->key == "alu") text_ = op->text;
    Stmt r = IRMutator::visit(op, self);
    text_ = saved;
    return r;
  }

 private:
  void collect(const Stmt& s, std::vector<LoopInfo>* loops, std::string text,
               std::vector<Site>* out) {
    if (const auto* f = s.as<ir::ForNode>()) {
      const std::int64_t* e = ir::as_const_int(f->extent);
      TANDEM_CHECK(e != nullptr && ir::is_const_int(f->min, 0),
                   "compute loop '" << f->var.name() << "' has a non-constant range");
      loops->push_back(LoopInfo{f->var, *e});
      collect(f->body, loops, text, out);
      loops->pop_back();
    } else if (const auto* q = s.as<ir::SeqNode>()) {
      for (const Stmt& x : q->stmts) collect(x, loops, text, out);
    } else if (const auto* a = s.as<ir::AttrStmtNode>()) {
      collect(a->body, loops, a->text.empty() ? text : a->text, out);
    } else {
      out->push_back(Site{*loops, compute_call_of(s), text});
    }
  }

  Affine affine_arg(const ir::CallNode* c, std::size_t k, const std::string& what) const {
    TANDEM_CHECK(k < c->args.size(), what << ": call '" << c->name << "' has too few arguments");
    auto a = as_affine(c->args[k]);
    TANDEM_CHECK(a.has_value(), what << ": operand '" << ir::to_string(c->args[k]) << "' of '"
                                     << c->name << "' is not affine in the loop variables");
    return *a;
  }

  std::vector<MicroCall> expand(const ir::CallNode* c, const std::string& what) const {
    auto need_bufs = [&](std::size_t n) {
      TANDEM_CHECK(c->buffers.size() == n, what << ": call '" << c->name << "' names "
                                                << c->buffers.size() << " buffers, expected " << n);
    };
    std::vector<MicroCall> out;
    if (c->name == "gemm_update") {
      need_bufs(3);
      out.push_back(
          MicroCall{isa::KernelOp::gemm(),
                    c->buffers,
                    {affine_arg(c, 0, what), affine_arg(c, 1, what), affine_arg(c, 2, what)},
                    false,
                    what});
      return out;
    }
    if (c->name == "gemm_reset" || c->name == kAluReset) {
      need_bufs(1);
      isa::KernelOp op = c->name == "gemm_reset" ? isa::KernelOp::gemm_reset()
                                                 : isa::KernelOp{isa::Opcode::kAlu, true};
      out.push_back(MicroCall{op, c->buffers, {affine_arg(c, 0, what)}, false, what});
      return out;
    }
    bool imm = false;
    const isa::AluOp op = *parse_alu_name(c->name, &imm);
    need_bufs(imm ? 2 : 3);
    const ir::Buffer& D = c->buffers[0];
    const ir::Buffer& S = c->buffers[1];
    const Affine d = affine_arg(c, 0, what), s = affine_arg(c, 1, what);
    auto same = [&](const ir::Buffer& b, const Affine& i) { return b.same_as(D) && i == d; };
    auto copy_into_d = [&](const ir::Buffer& src, const Affine& si) {
      out.push_back(MicroCall{isa::KernelOp{isa::Opcode::kAlu, true}, {D}, {d}, false, what});
      out.push_back(MicroCall{
          isa::KernelOp::alu_tensor(isa::AluOp::kAdd), {D, src}, {d, si}, src.same_as(D), what});
    };
    if (imm) {
      const std::int64_t* v = ir::as_const_int(c->args.size() > 2 ? c->args[2] : Expr());
      TANDEM_CHECK(v != nullptr, what << ": the immediate of '" << c->name << "' is not constant");
      TANDEM_CHECK(*v >= -32768 && *v <= 32767,
                   what << ": immediate " << *v << " does not fit 16 bits");
      if (!same(S, s)) copy_into_d(S, s);
      out.push_back(MicroCall{
          isa::KernelOp::alu_imm(op, static_cast<std::int32_t>(*v)), {D}, {d}, false, what});
      return out;
    }
    const ir::Buffer& T = c->buffers[2];
    const Affine t = affine_arg(c, 2, what);
    const bool commutative = op != isa::AluOp::kShr;
    if (same(S, s)) {
      out.push_back(MicroCall{isa::KernelOp::alu_tensor(op), {D, T}, {d, t}, T.same_as(D), what});
    } else if (commutative && same(T, t)) {
      out.push_back(MicroCall{isa::KernelOp::alu_tensor(op), {D, S}, {d, s}, S.same_as(D), what});
    } else {
      TANDEM_CHECK(!T.same_as(D), what << ": '" << c->name << "' reads and writes buffer '"
                                       << D.name()
                                       << "' at different elements; it cannot run in place");
      copy_into_d(S, s);
      out.push_back(MicroCall{isa::KernelOp::alu_tensor(op), {D, T}, {d, t}, false, what});
    }
    return out;
  }

  std::uint32_t factor_limit(std::size_t operand, const MicroCall& m) const {
    if (operand == 0) return cfg_.acc_depth;
    if (operand == 2) return cfg_.wgt_depth;
    return m.op.opcode == isa::Opcode::kGemm ? cfg_.inp_depth : cfg_.acc_depth;
  }

  Stmt make_kernel(const Site& site, const MicroCall& m) const {
    const std::vector<LoopInfo>& loops = site.loops;
    auto foldable = [&](const LoopInfo& l) {
      if (l.extent > kMaxIter) return false;
      for (std::size_t k = 0; k < m.idx.size(); ++k) {
        const std::int64_t c = m.idx[k].coeff(l.var.get());
        if (c < 0 || c >= factor_limit(k, m)) return false;
      }
      return true;
    };
    std::vector<std::size_t> fold;
    if (m.order_sensitive) {
      for (std::size_t k = 0; k < loops.size() && k < 2 && foldable(loops[k]); ++k)
        fold.push_back(k);
    } else {
      std::vector<std::size_t> cand;
      for (std::size_t k = 0; k < loops.size(); ++k)
        if (foldable(loops[k]) && loops[k].extent > 1) cand.push_back(k);
      std::stable_sort(cand.begin(), cand.end(), [&](std::size_t a, std::size_t b) {
        return loops[a].extent > loops[b].extent;
      });
      if (cand.size() > 2) cand.resize(2);
      std::sort(cand.begin(), cand.end());
      fold = cand;
    }
    KernelHeader h;
    h.op = m.op;
    std::int64_t uops = 1;
    for (std::size_t k = 0; k < loops.size(); ++k)
      if (std::find(fold.begin(), fold.end(), k) == fold.end()) uops *= loops[k].extent;
    TANDEM_CHECK(uops <= cfg_.uop_depth,
                 m.what << ": micro-op kernel '" << site.call->name << "' needs " << uops
                        << " micro-ops but the uop buffer of config '" << cfg_.name << "' holds "
                        << cfg_.uop_depth << "; shrink the tile factors inside this stage");
    std::vector<Affine> idx = m.idx;
    for (std::size_t f = 0; f < fold.size(); ++f) {
      const LoopInfo& l = loops[fold[f]];
      isa::KernelLoop& kl = h.loops[f];
      kl.extent = static_cast<std::uint32_t>(l.extent);
      std::uint32_t* fac[3] = {&kl.dst_factor, &kl.src_factor, &kl.wgt_factor};
      for (std::size_t k = 0; k < idx.size(); ++k) {
        *fac[k] = static_cast<std::uint32_t>(idx[k].coeff(l.var.get()));
        idx[k] = idx[k].without(l.var.get());
      }
    }
    std::vector<Expr> args;
    for (const Affine& a : idx) args.push_back(a.to_expr());
    while (args.size() < 3) args.push_back(Expr(0));
    Stmt body = ir::evaluate(ir::call(ir::DType::kInt32, kUop, std::move(args), m.bufs));
    for (std::size_t k = loops.size(); k-- > 0;) {
      if (std::find(fold.begin(), fold.end(), k) != fold.end()) continue;
      body = ir::for_loop(loops[k].var, Expr(0), Expr(loops[k].extent), body);
    }
    return ir::AttrStmtNode::make(kUopKernelAttr, encode_kernel_header(h), site.text, body);
  }

  Stmt fold_region(const Stmt& s) {
    std::vector<Site> sites;
    std::vector<LoopInfo> loops;
    collect(s, &loops, text_, &sites);
    std::vector<Stmt> out;
    for (const Site& site : sites) {
      const std::string what = "stage '" + site.text + "'";
      for (const MicroCall& m : expand(site.call, what)) out.push_back(make_kernel(site, m));
    }
    return ir::seq(std::move(out));
  }

  const HwConfig& cfg_;
  std::string text_;
};

}  // namespace

Stmt fold_uop_kernels(const Stmt& body, const HwConfig& cfg) {
  Folder f(cfg);
  return f.mutate(body);
}

}  // namespace tandem::accel
