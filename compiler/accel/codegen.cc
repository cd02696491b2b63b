// Accelerator code generation (see codegen.h).
#include "compiler/accel/codegen.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

#include "compiler/accel/affine.h"
#include "compiler/accel/calls.h"
#include "compiler/accel/dependency.h"
#include "compiler/accel/element_group.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"
#include "isa/program_builder.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

// Upper bound on planned instructions: a bigger program is a schedule mistake
// (tiles far too small) and would only exhaust memory.
constexpr std::size_t kMaxInstructions = 1u << 20;

// One planned instruction.
struct Op {
  enum Kind : std::uint8_t { kLoad, kStore, kKernel } kind = kLoad;
  isa::Module module = isa::Module::kLoad;
  // DMA
  isa::MemType mem = isa::MemType::kInp;
  std::uint32_t sram = 0;
  isa::DramRef dram;
  std::uint32_t y = 0, x = 0, stride = 0;
  isa::Pad pad;
  // kernel
  KernelHeader hdr;
  std::vector<isa::Uop> uops;
};

// A micro-op kernel body enumerated once: inner parts of every micro-op and,
// per call, the affine part that depends on the enclosing (unrolled) loops.
struct KernelTemplate {
  KernelHeader hdr;
  struct Call {
    std::vector<ir::Buffer> bufs;
    Affine outer[3];  // depends on the enclosing loops
    Affine inner[3];  // depends on the kernel's own loops
  };
  std::vector<Call> calls;
  struct U {
    std::uint32_t call;
    std::int64_t v[3];
  };
  std::vector<U> uops;
};

bool is_body_var(const std::vector<const ir::VarNode*>& vars, const ir::VarNode* v) {
  return std::find(vars.begin(), vars.end(), v) != vars.end();
}

class Generator {
 public:
  Generator(const HwConfig& cfg, const SramPlan& plan) : cfg_(cfg), plan_(plan) {}

  void run(const Stmt& s) {
    using ir::NodeType;
    switch (s.node_type()) {
      case NodeType::kFor: {
        const auto* f = s.as<ir::ForNode>();
        const std::int64_t lo = eval(f->min, env_), ext = eval(f->extent, env_);
        env_.push(f->var.get(), lo);
        for (std::int64_t i = 0; i < ext; ++i) {
          env_.set_top(lo + i);
          run(f->body);
        }
        env_.pop();
        return;
      }
      case NodeType::kSeq:
        for (const Stmt& x : s.as<ir::SeqNode>()->stmts) run(x);
        return;
      case NodeType::kAllocate:
        run(s.as<ir::AllocateNode>()->body);
        return;
      case NodeType::kAttrStmt: {
        const auto* a = s.as<ir::AttrStmtNode>();
        if (a->key == kUopKernelAttr) {
          kernel(a);
          return;
        }
        const std::string saved = where_;
        if (!a->text.empty()) where_ = a->text;
        run(a->body);
        where_ = saved;
        return;
      }
      case NodeType::kIfThenElse: {
        const auto* i = s.as<ir::IfThenElseNode>();
        if (eval(i->cond, env_) != 0)
          run(i->then_case);
        else if (i->else_case.defined())
          run(i->else_case);
        return;
      }
      case NodeType::kEvaluate: {
        const auto* c = s.as<ir::EvaluateNode>()->value.as<ir::CallNode>();
        if (c != nullptr && (c->name == kDmaLoad || c->name == kDmaStore)) {
          dma(c);
          return;
        }
        break;
      }
      default:
        break;
    }
    throw Error(Msg() << "accelerator codegen: '" << ir::to_string(s)
                      << "' cannot run on the accelerator (only DMA copies, tensorized GEMM "
                         "and ALU stages can); in stage '"
                      << where_ << "'");
  }

  std::vector<Op> ops;
  std::vector<TokenPlan> plans;
  DependencyTracker deps;
  CodegenStats stats;

 private:
  std::uint32_t base_of(const ir::Buffer& b) const {
    auto it = plan_.base.find(b.get());
    TANDEM_CHECK(it != plan_.base.end(), "accelerator codegen: SRAM buffer '"
                                             << b.name() << "' is used outside its allocation");
    return it->second;
  }
  std::uint32_t elems_of(const ir::Buffer& b) const {
    return static_cast<std::uint32_t>(b.num_elements() / scalars_per_element(cfg_, b.scope()));
  }

  const std::vector<CompiledExpr>& compiled(const ir::CallNode* c) {
    auto it = call_cache_.find(c);
    if (it != call_cache_.end()) return it->second;
    std::vector<CompiledExpr> v;
    for (const Expr& a : c->args) v.emplace_back(a);
    return call_cache_.emplace(c, std::move(v)).first->second;
  }

  void add(Op op, const std::vector<SramRange>& acc) {
    const std::size_t idx = ops.size();
    TANDEM_CHECK(idx < kMaxInstructions, "accelerator codegen: the program would exceed "
                                             << kMaxInstructions << " instructions (stage '"
                                             << where_ << "'); use larger tiles");
    deps.add(idx, op.module, acc, &plans);
    ops.push_back(std::move(op));
  }

  void dma(const ir::CallNode* c) {
    const bool load = c->name == kDmaLoad;
    const std::vector<CompiledExpr>& a = compiled(c);
    TANDEM_ASSERT(c->buffers.size() == 2 && a.size() == (load ? 9u : 5u), "malformed " << c->name);
    std::int64_t v[9] = {};
    for (std::size_t k = 0; k < a.size(); ++k) v[k] = a[k](env_);
    const ir::Buffer& sram = c->buffers[0];
    const ir::Buffer& dram = c->buffers[1];
    const std::string what =
        "DMA of stage '" + where_ + "' (" + sram.name() + " <-> " + dram.name() + ")";
    for (int k = 2; k < static_cast<int>(a.size()); ++k)
      TANDEM_CHECK(v[k] >= 0, what << ": negative size/padding " << v[k]);
    Op op;
    op.kind = load ? Op::kLoad : Op::kStore;
    op.mem = load ? mem_type_of_scope(sram.scope()) : isa::MemType::kOut;
    op.module = isa::module_of([&] {
      isa::Instruction i;
      i.opcode = load ? isa::Opcode::kLoad : isa::Opcode::kStore;
      i.mem_type = op.mem;
      return i;
    }());
    op.y = static_cast<std::uint32_t>(v[2]);
    op.x = static_cast<std::uint32_t>(v[3]);
    op.stride = static_cast<std::uint32_t>(v[4]);
    std::uint64_t footprint = static_cast<std::uint64_t>(op.y) * op.x;
    if (load) {
      op.pad = isa::Pad{static_cast<std::uint32_t>(v[5]), static_cast<std::uint32_t>(v[6]),
                        static_cast<std::uint32_t>(v[7]), static_cast<std::uint32_t>(v[8])};
      for (int k = 5; k < 9; ++k)
        TANDEM_CHECK(v[k] <= 15, what << ": needs " << v[k]
                                      << " elements of zero padding on one side, but a LOAD "
                                         "pads at most 15; use smaller padding or tiles");
      footprint = (static_cast<std::uint64_t>(v[5]) + op.y + v[6]) * (v[7] + op.x + v[8]);
    }
    if (footprint == 0) return;
    TANDEM_CHECK(v[0] >= 0 && static_cast<std::uint64_t>(v[0]) + footprint <= elems_of(sram),
                 what << ": SRAM elements [" << v[0] << ", " << v[0] + footprint
                      << ") fall outside buffer '" << sram.name() << "' of " << elems_of(sram)
                      << " elements");
    if (op.y == 0 || op.x == 0) v[1] = 0;  // padding only: no DRAM access
    TANDEM_CHECK(v[1] >= 0, what << ": negative DRAM index " << v[1]);
    TANDEM_CHECK(op.y <= 1 || op.stride >= op.x,
                 what << ": rows of " << op.x << " elements " << op.stride
                      << " apart in DRAM overlap; the DMA needs x_stride >= x_size");
    op.sram = base_of(sram) + static_cast<std::uint32_t>(v[0]);
    op.dram = isa::DramRef{dram.name(), static_cast<std::uint64_t>(v[1])};
    SramRange r{op.mem, op.sram, op.sram + static_cast<std::uint32_t>(footprint), load};
    if (op.mem == isa::MemType::kAcc) r.hi = r.lo;  // compute-only memory: no tokens
    load ? ++stats.loads : ++stats.stores;
    add(std::move(op), {r});
  }

  const KernelTemplate& kernel_template(const ir::AttrStmtNode* a) {
    auto it = kernel_cache_.find(a);
    if (it != kernel_cache_.end()) return *it->second;
    auto t = std::make_unique<KernelTemplate>();
    t->hdr = decode_kernel_header(a->value);
    std::vector<const ir::VarNode*> vars;
    std::unordered_map<const ir::CallNode*, std::uint32_t> call_ids;
    Env env;
    // Enumerates the body: loops with constant extents around uop calls.
    std::function<void(const Stmt&)> walk = [&](const Stmt& s) {
      if (const auto* f = s.as<ir::ForNode>()) {
        const std::int64_t* e = ir::as_const_int(f->extent);
        TANDEM_ASSERT(e != nullptr, "uop kernel loop with a non-constant extent");
        vars.push_back(f->var.get());
        env.push(f->var.get(), 0);
        for (std::int64_t i = 0; i < *e; ++i) {
          env.set_top(i);
          walk(f->body);
        }
        env.pop();
        vars.pop_back();
        return;
      }
      if (const auto* q = s.as<ir::SeqNode>()) {
        for (const Stmt& x : q->stmts) walk(x);
        return;
      }
      const auto* ev = s.as<ir::EvaluateNode>();
      const auto* c = ev ? ev->value.as<ir::CallNode>() : nullptr;
      TANDEM_ASSERT(c != nullptr && c->name == kUop, "uop kernel body holds " << ir::to_string(s));
      auto cid = call_ids.find(c);
      if (cid == call_ids.end()) {
        KernelTemplate::Call call;
        call.bufs = c->buffers;
        for (int k = 0; k < 3; ++k) {
          const Expr& arg = c->args[static_cast<std::size_t>(k)];
          auto af = as_affine(arg);
          TANDEM_CHECK(af.has_value(), "micro-op index '" << ir::to_string(arg) << "' of stage '"
                                                          << a->text << "' is not affine");
          call.outer[k].constant = af->constant;
          for (const AffineTerm& term : af->terms)
            (is_body_var(vars, term.var.get()) ? call.inner[k] : call.outer[k])
                .terms.push_back(term);
        }
        cid = call_ids.emplace(c, static_cast<std::uint32_t>(t->calls.size())).first;
        t->calls.push_back(std::move(call));
      }
      KernelTemplate::U u;
      u.call = cid->second;
      for (int k = 0; k < 3; ++k) u.v[k] = accel::eval(t->calls[u.call].inner[k], env);
      t->uops.push_back(u);
    };
    walk(a->body);
    return *kernel_cache_.emplace(a, std::move(t)).first->second;
  }

  void kernel(const ir::AttrStmtNode* a) {
    const KernelTemplate& t = kernel_template(a);
    const std::string what = "micro-op kernel of stage '" + a->text + "'";
    // Per call: absolute offsets of the operands for this instance.
    std::vector<std::array<std::int64_t, 3>> off(t.calls.size());
    for (std::size_t c = 0; c < t.calls.size(); ++c)
      for (int k = 0; k < 3; ++k) {
        off[c][k] = accel::eval(t.calls[c].outer[k], env_);
        if (static_cast<std::size_t>(k) < t.calls[c].bufs.size())
          off[c][k] += base_of(t.calls[c].bufs[static_cast<std::size_t>(k)]);
      }
    Op op;
    op.kind = Op::kKernel;
    op.module = isa::Module::kCompute;
    op.hdr = t.hdr;
    op.uops.reserve(t.uops.size());
    std::int64_t lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::numeric_limits<std::int64_t>::max();
      hi[k] = std::numeric_limits<std::int64_t>::min();
    }
    for (const KernelTemplate::U& u : t.uops) {
      std::int64_t f[3];
      for (int k = 0; k < 3; ++k) {
        f[k] = u.v[k] + off[u.call][k];
        TANDEM_CHECK(f[k] >= 0 && f[k] <= std::numeric_limits<std::uint32_t>::max(),
                     what << ": micro-op index " << f[k] << " is negative or too large");
        lo[k] = std::min(lo[k], f[k]);
        hi[k] = std::max(hi[k], f[k]);
      }
      op.uops.push_back(isa::Uop{static_cast<std::uint32_t>(f[0]), static_cast<std::uint32_t>(f[1]),
                                 static_cast<std::uint32_t>(f[2])});
    }
    const isa::KernelLoop* L = t.hdr.loops;
    const std::int64_t span[3] = {(L[0].extent - 1) * std::int64_t{L[0].dst_factor} +
                                      (L[1].extent - 1) * std::int64_t{L[1].dst_factor},
                                  (L[0].extent - 1) * std::int64_t{L[0].src_factor} +
                                      (L[1].extent - 1) * std::int64_t{L[1].src_factor},
                                  (L[0].extent - 1) * std::int64_t{L[0].wgt_factor} +
                                      (L[1].extent - 1) * std::int64_t{L[1].wgt_factor}};
    std::vector<SramRange> acc;
    auto range = [&](isa::MemType m, int k, bool write) {
      return SramRange{m, static_cast<std::uint32_t>(lo[k]),
                       static_cast<std::uint32_t>(hi[k] + span[k] + 1), write};
    };
    acc.push_back(range(isa::MemType::kOut, 0, true));
    if (t.hdr.op.opcode == isa::Opcode::kGemm && !t.hdr.op.reset) {
      acc.push_back(range(isa::MemType::kInp, 1, false));
      acc.push_back(range(isa::MemType::kWgt, 2, false));
    }
    ++stats.kernels;
    add(std::move(op), acc);
  }

  const HwConfig& cfg_;
  const SramPlan& plan_;
  Env env_;
  std::string where_ = "?";
  std::unordered_map<const ir::CallNode*, std::vector<CompiledExpr>> call_cache_;
  std::unordered_map<const ir::AttrStmtNode*, std::unique_ptr<KernelTemplate>> kernel_cache_;
};

void emit(const Op& op, const TokenPlan& tp, isa::ProgramBuilder& b) {
  for (isa::Module from : {isa::Module::kLoad, isa::Module::kCompute, isa::Module::kStore})
    if (tp.pop_from & module_bit(from)) b.pop_dep(from, op.module);
  switch (op.kind) {
    case Op::kLoad:
      b.load(op.mem, op.sram, op.dram, op.y, op.x, op.stride, op.pad);
      break;
    case Op::kStore:
      b.store(op.sram, op.dram, op.y, op.x, op.stride);
      break;
    case Op::kKernel: {
      std::vector<isa::KernelLoop> loops;
      if (op.hdr.loops[0].extent > 1 || op.hdr.loops[1].extent > 1) {
        loops.push_back(op.hdr.loops[0]);
        if (op.hdr.loops[1].extent > 1) loops.push_back(op.hdr.loops[1]);
      }
      b.begin_kernel(op.hdr.op, loops);
      for (const isa::Uop& u : op.uops) b.push_uop(u.dst, u.src, u.wgt);
      b.end_kernel();
      break;
    }
  }
  for (isa::Module to : {isa::Module::kLoad, isa::Module::kCompute, isa::Module::kStore})
    if (tp.push_to & module_bit(to)) b.push_dep(op.module, to);
}

}  // namespace

isa::Program codegen(const Stmt& body, const std::vector<ir::Buffer>& args, const SramPlan& plan,
                     const HwConfig& cfg, CodegenStats* stats) {
  Generator g(cfg, plan);
  g.run(body);
  isa::ProgramBuilder b(cfg);
  for (const ir::Buffer& a : args) {
    TANDEM_CHECK(a.scope() == "global", "argument '" << a.name() << "' is in scope '" << a.scope()
                                                     << "', expected global");
    b.declare_buffer(
        a.name(), static_cast<std::uint64_t>(a.num_elements()) * (ir::dtype_bits(a.dtype()) / 8));
  }
  for (std::size_t i = 0; i < g.ops.size(); ++i) emit(g.ops[i], g.plans[i], b);
  if (stats) {
    *stats = g.stats;
    stats->tokens = g.deps.tokens();
    stats->kernel_hits = b.kernel_hits();
    stats->uop_loads = b.uop_loads();
  }
  return b.finish();
}

}  // namespace tandem::accel
