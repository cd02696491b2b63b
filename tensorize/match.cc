// The tensorize matcher (see match.h).
#include "tensorize/match.h"

#include <map>
#include <sstream>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"
#include "compiler/ir/substitute.h"
#include "isa/error.h"

namespace tandem::tensorize {

using ir::Buffer;
using ir::Expr;
using ir::NodeType;

namespace {

struct Binding {
  Buffer buf;
  std::vector<Expr> base;
};

class Matcher {
 public:
  Matcher(const Intrinsic& in, const ir::VarSet& region, std::string where)
      : in_(in), region_(region), where_(std::move(where)) {}

  // Checks how X is indexed against operand P (indexed by pidx); returns
  // the base indices or sets *why.
  std::optional<std::vector<Expr>> access(const Buffer& x, const std::vector<Expr>& idx,
                                          const Buffer& p, const std::vector<Expr>& pidx,
                                          std::string* why) const {
    std::ostringstream os;
    if (x.scope() != p.scope()) {
      os << x.name() << " is in scope \"" << x.scope() << "\" but intrinsic operand " << p.name()
         << " needs scope \"" << p.scope() << "\" (cache it into " << p.scope() << ")";
      *why = os.str();
      return std::nullopt;
    }
    if (x.dtype() != p.dtype()) {
      os << x.name() << " has dtype " << ir::dtype_name(x.dtype()) << " but intrinsic operand "
         << p.name() << " needs " << ir::dtype_name(p.dtype());
      *why = os.str();
      return std::nullopt;
    }
    size_t nx = idx.size(), np = pidx.size();
    if (nx < np) {
      os << x.name() << " has " << nx << " dimensions, intrinsic operand " << p.name() << " needs "
         << np;
      *why = os.str();
      return std::nullopt;
    }
    size_t k = nx - np;
    std::vector<Expr> base;
    ir::VarMap zero;
    for (const ir::VarNode* v : region_) zero[v] = Expr(0);
    for (size_t d = 0; d < nx; ++d) {
      Expr e = ir::simplify(idx[d]);
      if (d < k) {
        if (ir::uses_var(e, region_)) {
          os << "dimension " << d << " of " << x.name() << " is indexed by " << ir::to_string(e)
             << ", which varies inside the tensorized region but is not one of the intrinsic's "
                "tile dimensions";
          *why = os.str();
          return std::nullopt;
        }
      } else {
        Expr diff = ir::simplify(e - pidx[d - k]);
        if (ir::uses_var(diff, region_)) {
          os << "dimension " << d << " of " << x.name() << " is indexed by " << ir::to_string(e)
             << " but the intrinsic indexes " << p.name() << " by " << ir::to_string(pidx[d - k]);
          *why = os.str();
          return std::nullopt;
        }
        if (d > k && !ir::is_const_int(ir::simplify(x->shape[d] - p->shape[d - k]), 0)) {
          os << "dimension " << d << " of " << x.name() << " has extent "
             << ir::to_string(x->shape[d]) << " but intrinsic operand " << p.name() << " needs "
             << ir::to_string(p->shape[d - k])
             << " (the innermost dimensions of a tensorized operand must be exactly the tile)";
          *why = os.str();
          return std::nullopt;
        }
      }
      base.push_back(ir::simplify(ir::substitute(e, zero)));
    }
    return base;
  }

  bool eq(const Expr& s, const Expr& p) {
    ++progress_;
    if (!s.defined() || !p.defined()) return fail(s, p, "missing operand");
    if (const ir::VarNode* pv = p.as<ir::VarNode>(); pv && is_param(pv)) return param(s, pv);
    if (s.dtype() != p.dtype()) {
      return fail(s, p,
                  std::string("dtype ") + std::string(ir::dtype_name(s.dtype())) + " vs " +
                      std::string(ir::dtype_name(p.dtype())));
    }
    if (const ir::LoadNode* pl = p.as<ir::LoadNode>()) {
      const ir::LoadNode* sl = s.as<ir::LoadNode>();
      if (!sl) return fail(s, p, "expected a load of operand " + pl->buffer.name());
      return load(sl, pl, s, p);
    }
    if (s.node_type() != p.node_type()) return fail(s, p, "different operations");
    switch (p.node_type()) {
      case NodeType::kIntImm:
        return s.as<ir::IntImmNode>()->value == p.as<ir::IntImmNode>()->value
                   ? true
                   : fail(s, p, "different constants");
      case NodeType::kVar:
        return s.same_as(p) ? true : fail(s, p, "different variables");
#define TANDEM_X(n)                                                                       \
  case NodeType::k##n:                                                                    \
    return binary(s.as<ir::n##Node>()->a, s.as<ir::n##Node>()->b, p.as<ir::n##Node>()->a, \
                  p.as<ir::n##Node>()->b, commutative(NodeType::k##n));
        TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
      case NodeType::kNot:
        return eq(s.as<ir::NotNode>()->a, p.as<ir::NotNode>()->a);
      case NodeType::kCast:
        return eq(s.as<ir::CastNode>()->value, p.as<ir::CastNode>()->value);
      case NodeType::kSelect: {
        auto* x = s.as<ir::SelectNode>();
        auto* y = p.as<ir::SelectNode>();
        return eq(x->cond, y->cond) && eq(x->true_value, y->true_value) &&
               eq(x->false_value, y->false_value);
      }
      default:
        return fail(s, p, "unsupported operation in an intrinsic body");
    }
  }

  std::string mismatch() const {
    return "first mismatch: stage has " + ir::to_string(bad_s_) + " where the intrinsic has " +
           ir::to_string(bad_p_) + " (" + why_ + ")";
  }
  const std::map<const ir::BufferNode*, Binding>& bindings() const {
    return bound_;
  }
  const std::map<const ir::VarNode*, Expr>& params() const {
    return params_;
  }

 private:
  static bool commutative(NodeType t) {
    return t == NodeType::kAdd || t == NodeType::kMul || t == NodeType::kMin ||
           t == NodeType::kMax || t == NodeType::kEQ || t == NodeType::kNE || t == NodeType::kAnd ||
           t == NodeType::kOr;
  }
  bool is_param(const ir::VarNode* v) const {
    for (const ir::Var& p : in_.params) {
      if (p.get() == v) return true;
    }
    return false;
  }
  // quality 1: the right operand, wrongly indexed (more telling than 0).
  bool fail(const Expr& s, const Expr& p, std::string why, int quality = 0) {
    if (!failed_) {
      failed_ = true;
      bad_s_ = s;
      bad_p_ = p;
      why_ = std::move(why);
      score_ = progress_ * 2 + quality;
    }
    return false;
  }
  bool binary(const Expr& sa, const Expr& sb, const Expr& pa, const Expr& pb, bool comm) {
    struct State {
      std::map<const ir::BufferNode*, Binding> bound;
      std::map<const ir::VarNode*, Expr> params;
      bool failed;
      Expr s, p;
      std::string why;
      int score;
      int progress;
    };
    auto save = [&] {
      return State{bound_, params_, failed_, bad_s_, bad_p_, why_, score_, progress_};
    };
    auto restore = [&](const State& st) {
      bound_ = st.bound;
      params_ = st.params;
      failed_ = st.failed;
      bad_s_ = st.s;
      bad_p_ = st.p;
      why_ = st.why;
      score_ = st.score;
      progress_ = st.progress;
    };
    State before = save();
    if (eq(sa, pa) && eq(sb, pb)) return true;
    if (!comm) return false;
    // Retry swapped; on failure report whichever attempt got further.
    State direct = save();
    restore(before);
    if (eq(sb, pa) && eq(sa, pb)) return true;
    if (score_ <= direct.score) restore(direct);
    return false;
  }
  bool param(const Expr& s, const ir::VarNode* pv) {
    Expr v = ir::simplify(s);
    const std::int64_t* c = ir::as_const_int(v);
    if (!c) return fail(s, Expr(in_.params[0]), "the intrinsic parameter must be a constant");
    if (*c < in_.param_min || *c > in_.param_max) {
      return fail(s, Expr(in_.params[0]),
                  "constant " + std::to_string(*c) + " outside the immediate range [" +
                      std::to_string(in_.param_min) + ", " + std::to_string(in_.param_max) + "]");
    }
    auto it = params_.find(pv);
    if (it != params_.end() && !ir::is_const_int(it->second, *c)) {
      return fail(s, it->second, "the parameter is used with two different values");
    }
    params_[pv] = v;
    return true;
  }
  bool load(const ir::LoadNode* sl, const ir::LoadNode* pl, const Expr& s, const Expr& p) {
    std::string why;
    auto base = access(sl->buffer, sl->indices, pl->buffer, pl->indices, &why);
    if (!base) {
      bool right_operand =
          sl->buffer.scope() == pl->buffer.scope() && sl->buffer.dtype() == pl->buffer.dtype();
      return fail(s, p, why, right_operand ? 1 : 0);
    }
    auto it = bound_.find(pl->buffer.get());
    if (it == bound_.end()) {
      bound_[pl->buffer.get()] = Binding{sl->buffer, *base};
      return true;
    }
    if (!it->second.buf.same_as(sl->buffer)) {
      return fail(s, p, "operand " + pl->buffer.name() + " is bound to two different buffers");
    }
    for (size_t d = 0; d < base->size(); ++d) {
      if (!ir::is_const_int(ir::simplify((*base)[d] - it->second.base[d]), 0)) {
        return fail(s, p, "operand " + pl->buffer.name() + " is read at two different tiles");
      }
    }
    return true;
  }

  const Intrinsic& in_;
  const ir::VarSet& region_;
  std::string where_;
  std::map<const ir::BufferNode*, Binding> bound_;
  std::map<const ir::VarNode*, Expr> params_;
  bool failed_ = false;
  int progress_ = 0;
  int score_ = 0;
  Expr bad_s_, bad_p_;
  std::string why_;
};

std::string loop_list(const std::vector<RegionLoop>& loops) {
  std::string s;
  for (const RegionLoop& l : loops) {
    s += (s.empty() ? "" : ", ") + l.name + ":" + std::to_string(l.extent);
  }
  return s.empty() ? "none" : s;
}
std::string axis_list(const std::vector<IntrinsicAxis>& axes) {
  std::string s;
  for (const IntrinsicAxis& a : axes) {
    s += (s.empty() ? "" : ", ") + a.param + "=" + std::to_string(a.extent);
  }
  return s.empty() ? "none" : s;
}

Expr addr(const Buffer& b, const std::vector<Expr>& base, const Buffer& operand) {
  return ir::call(ir::DType::kInt32, kTensorAddr,
                  {ir::load(b, base), Expr(operand.num_elements())});
}

}  // namespace

TensorizeCalls match_intrinsic(const Intrinsic& in, const TensorizeRequest& req) {
  std::string where = "tensorize " + in.name + " at " + req.stage + "." + req.axis;
  // 1. Pair loops with intrinsic axes (extent-1 on either side ignored).
  std::vector<RegionLoop> sp, rd;
  ir::VarMap unit;  // region vars of extent 1 -> 0
  ir::VarSet region;
  for (const RegionLoop& l : req.loops) {
    region.insert(l.var.get());
    if (l.extent == 1) {
      unit[l.var.get()] = Expr(0);
      continue;
    }
    (l.reduce ? rd : sp).push_back(l);
  }
  std::vector<IntrinsicAxis> isp, ird;
  ir::VarMap sub;
  for (const IntrinsicAxis& a : in.axes) {
    if (a.extent == 1)
      sub[a.var.get()] = Expr(0);
    else
      isp.push_back(a);
  }
  for (const IntrinsicAxis& a : in.reduce_axes) {
    if (a.extent == 1)
      sub[a.var.get()] = Expr(0);
    else
      ird.push_back(a);
  }
  TANDEM_CHECK(in.reduce_op.has_value() == req.reduce_op.has_value(),
               where << ": "
                     << (in.reduce_op ? "the intrinsic is a reduction but stage "
                                      : "the intrinsic is element-wise but stage ")
                     << req.stage << (req.reduce_op ? " is a reduction" : " is not a reduction"));
  TANDEM_CHECK(!in.reduce_op || *in.reduce_op == *req.reduce_op,
               where << ": the stage reduces with " << ir::reduce_op_name(*req.reduce_op)
                     << " but the intrinsic with " << ir::reduce_op_name(*in.reduce_op));
  auto pair_up = [&](const std::vector<RegionLoop>& loops, const std::vector<IntrinsicAxis>& axes,
                     const char* kind) {
    TANDEM_CHECK(loops.size() == axes.size(),
                 where << ": the region has " << loops.size() << " " << kind << " loop(s) ("
                       << loop_list(loops) << ") but the intrinsic has " << axes.size() << " ("
                       << axis_list(axes) << "); tensorize at the axis whose inner loops are "
                       << "exactly the intrinsic's tile");
    for (size_t i = 0; i < loops.size(); ++i) {
      const RegionLoop& l = loops[i];
      const IntrinsicAxis& a = axes[i];
      TANDEM_CHECK(l.extent == a.extent,
                   where << ": loop " << l.name << " has extent " << l.extent
                         << " but the intrinsic's " << kind << " axis " << a.param << " needs "
                         << a.extent << "; split axis " << l.root_name << " by " << a.extent
                         << " so the inner extent matches " << a.param);
      sub[a.var.get()] = l.var;
    }
  };
  pair_up(sp, isp, "spatial");
  pair_up(rd, ird, "reduce");

  // 2. Output access.
  Matcher m(in, region, where);
  std::vector<Expr> out_idx, pidx;
  for (const Expr& e : req.output_indices) out_idx.push_back(ir::substitute(e, unit));
  for (const IntrinsicAxis& a : in.axes) pidx.push_back(ir::substitute(Expr(a.var), sub));
  std::string why;
  auto out_base = m.access(req.output, out_idx, in.output, pidx, &why);
  TANDEM_CHECK(out_base.has_value(), where << ": output " << why);

  // 3. Body.
  Expr sv = ir::substitute(req.value, unit);
  Expr pv = ir::substitute(in.body, sub);
  TANDEM_CHECK(m.eq(sv, pv), where << ": the stage's computation does not match the intrinsic\n"
                                   << "  stage:     " << ir::to_string(sv) << "\n"
                                   << "  intrinsic: " << ir::to_string(pv) << "\n  "
                                   << m.mismatch());

  std::vector<Expr> args{addr(req.output, *out_base, in.output)};
  for (const Buffer& p : in.inputs) {
    auto it = m.bindings().find(p.get());
    TANDEM_CHECK(it != m.bindings().end(),
                 where << ": intrinsic operand " << p.name() << " is not read by the stage");
    args.push_back(addr(it->second.buf, it->second.base, p));
  }
  for (const ir::Var& p : in.params) {
    auto it = m.params().find(p.get());
    TANDEM_CHECK(it != m.params().end(), where << ": parameter " << p.name() << " is not bound");
    args.push_back(it->second);
  }
  TensorizeCalls out;
  out.update = ir::evaluate(ir::call(ir::DType::kInt32, in.update_call, args));
  if (in.reduce_op) {
    out.reset = ir::evaluate(
        ir::call(ir::DType::kInt32, in.reset_call, {addr(req.output, *out_base, in.output)}));
  }
  return out;
}

}  // namespace tandem::tensorize
