// Constant bounds of expressions by interval arithmetic over the variable
// ranges known to a Simplifier. Unknown int32 quantities are unbounded;
// int8/int16 quantities are at least bounded by their dtype.
#include <algorithm>
#include <optional>

#include "compiler/ir/simplify_impl.h"

namespace tandem::ir {

namespace {

using Opt = std::optional<std::int64_t>;
constexpr std::int64_t kLimit = std::int64_t{1} << 62;

Opt checked(Opt v) {
  if (v && (*v > kLimit || *v < -kLimit)) return std::nullopt;
  return v;
}
Opt add_opt(Opt a, Opt b) {
  return a && b ? checked(*a + *b) : std::nullopt;
}
Opt neg_opt(Opt a) {
  return a ? Opt(-*a) : std::nullopt;
}

ConstBounds dtype_bounds(DType d) {
  if (d == DType::kInt32) return {};
  return {dtype_min(d), dtype_max(d)};
}

// Clips to what the dtype can represent; int32 overflow -> unbounded.
ConstBounds fit(DType d, ConstBounds b) {
  if (d == DType::kInt32) {
    if (b.min && *b.min < dtype_min(d)) b = {};
    if (b.max && *b.max > dtype_max(d)) b = {};
    return b;
  }
  ConstBounds full = dtype_bounds(d);
  if (!b.min || !b.max || *b.min < *full.min || *b.max > *full.max) return full;
  return b;
}

ConstBounds mul_bounds(const ConstBounds& a, const ConstBounds& b) {
  if (a.min && a.max && b.min && b.max) {
    std::int64_t c[4] = {*a.min * *b.min, *a.min * *b.max, *a.max * *b.min, *a.max * *b.max};
    return {checked(*std::min_element(c, c + 4)), checked(*std::max_element(c, c + 4))};
  }
  const ConstBounds* k = a.is_point() ? &a : (b.is_point() ? &b : nullptr);
  if (!k) return {};
  const ConstBounds& o = k == &a ? b : a;
  std::int64_t c = *k->min;
  if (c == 0) return {0, 0};
  auto m = [c](Opt v) { return v ? checked(*v * c) : std::nullopt; };
  return c > 0 ? ConstBounds{m(o.min), m(o.max)} : ConstBounds{m(o.max), m(o.min)};
}

std::int64_t fdiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

const ConstBounds* Simplifier::lookup(const VarNode* v) const {
  auto it = local_.find(v);
  if (it != local_.end() && !it->second.empty()) return &it->second.back();
  if (base_) {
    auto jt = base_->find(v);
    if (jt != base_->end()) return &jt->second;
  }
  return nullptr;
}

void Simplifier::push(const VarNode* v, ConstBounds b) {
  local_[v].push_back(b);
}
void Simplifier::pop(const VarNode* v) {
  auto it = local_.find(v);
  if (it != local_.end() && !it->second.empty()) it->second.pop_back();
}

ConstBounds Simplifier::bounds(const Expr& e) const {
  DType d = e.dtype();
  switch (e.node_type()) {
    case NodeType::kIntImm: {
      std::int64_t v = e.as<IntImmNode>()->value;
      return {v, v};
    }
    case NodeType::kVar: {
      const ConstBounds* b = lookup(e.as<VarNode>());
      return b ? fit(d, *b) : dtype_bounds(d);
    }
    case NodeType::kAdd: {
      auto* n = e.as<AddNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      return fit(d, {add_opt(a.min, b.min), add_opt(a.max, b.max)});
    }
    case NodeType::kSub: {
      auto* n = e.as<SubNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      return fit(d, {add_opt(a.min, neg_opt(b.max)), add_opt(a.max, neg_opt(b.min))});
    }
    case NodeType::kMul: {
      auto* n = e.as<MulNode>();
      return fit(d, mul_bounds(bounds(n->a), bounds(n->b)));
    }
    case NodeType::kFloorDiv: {
      auto* n = e.as<FloorDivNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      if (!b.is_point() || *b.min == 0) return dtype_bounds(d);
      std::int64_t c = *b.min;
      Opt lo = a.min ? Opt(fdiv(*a.min, c)) : std::nullopt;
      Opt hi = a.max ? Opt(fdiv(*a.max, c)) : std::nullopt;
      return fit(d, c > 0 ? ConstBounds{lo, hi} : ConstBounds{hi, lo});
    }
    case NodeType::kFloorMod: {
      auto* n = e.as<FloorModNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      if (!b.is_point() || *b.min == 0) return dtype_bounds(d);
      std::int64_t c = *b.min;
      if (c > 0 && a.min && a.max && fdiv(*a.min, c) == fdiv(*a.max, c)) {
        std::int64_t base = fdiv(*a.min, c) * c;
        return {*a.min - base, *a.max - base};
      }
      return c > 0 ? ConstBounds{0, c - 1} : ConstBounds{c + 1, 0};
    }
    case NodeType::kMin: {
      auto* n = e.as<MinNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      Opt lo = a.min && b.min ? Opt(std::min(*a.min, *b.min)) : std::nullopt;
      Opt hi = a.max && b.max ? Opt(std::min(*a.max, *b.max)) : (a.max ? a.max : b.max);
      return {lo, hi};
    }
    case NodeType::kMax: {
      auto* n = e.as<MaxNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      Opt lo = a.min && b.min ? Opt(std::max(*a.min, *b.min)) : (a.min ? a.min : b.min);
      Opt hi = a.max && b.max ? Opt(std::max(*a.max, *b.max)) : std::nullopt;
      return {lo, hi};
    }
    case NodeType::kShr: {
      auto* n = e.as<ShrNode>();
      ConstBounds a = bounds(n->a), b = bounds(n->b);
      if (b.is_point() && *b.min >= 0 && *b.min < 63) {
        std::int64_t s = std::min<std::int64_t>(*b.min, dtype_bits(d) - 1);
        return {a.min ? Opt(*a.min >> s) : std::nullopt, a.max ? Opt(*a.max >> s) : std::nullopt};
      }
      return dtype_bounds(d);
    }
    case NodeType::kSelect: {
      auto* n = e.as<SelectNode>();
      ConstBounds c = bounds(n->cond);
      if (c.is_point()) return bounds(*c.min ? n->true_value : n->false_value);
      ConstBounds t = bounds(n->true_value), f = bounds(n->false_value);
      Opt lo = t.min && f.min ? Opt(std::min(*t.min, *f.min)) : std::nullopt;
      Opt hi = t.max && f.max ? Opt(std::max(*t.max, *f.max)) : std::nullopt;
      return {lo, hi};
    }
    case NodeType::kCast:
      return fit(d, bounds(e.as<CastNode>()->value));
    case NodeType::kEQ:
    case NodeType::kNE:
    case NodeType::kLT:
    case NodeType::kLE:
    case NodeType::kGT:
    case NodeType::kGE:
    case NodeType::kAnd:
    case NodeType::kOr:
    case NodeType::kNot:
      return {0, 1};
    default:
      return dtype_bounds(d);
  }
}

ConstBounds Analyzer::bounds(const Expr& e) const {
  Simplifier s(&ranges_);
  return s.bounds(s.mutate(e));
}

}  // namespace tandem::ir
