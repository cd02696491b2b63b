// Constant semantics of the binary operators (see const_fold.h).
#include "compiler/ir/const_fold.h"

#include <algorithm>

namespace tandem::ir {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
  return a - floor_div(a, b) * b;
}

namespace {
std::int64_t shift_right(DType d, std::int64_t a, std::int64_t s) {
  int bits = dtype_bits(d);
  if (s >= 0) return a >> std::min<std::int64_t>(s, bits - 1);
  std::int64_t l = std::min<std::int64_t>(-s, 63);
  return wrap_to(d, static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << l));
}
}  // namespace

std::int64_t fold_binary(NodeType op, DType d, std::int64_t a, std::int64_t b, bool* ok) {
  *ok = true;
  auto w = [d](std::int64_t v) { return wrap_to(d, v); };
  auto mulw = [&](std::int64_t x, std::int64_t y) {
    return w(
        static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y)));
  };
  switch (op) {
    case NodeType::kAdd:
      return w(a + b);
    case NodeType::kSub:
      return w(a - b);
    case NodeType::kMul:
      return mulw(a, b);
    case NodeType::kFloorDiv:
      if (b == 0) break;
      return w(floor_div(a, b));
    case NodeType::kFloorMod:
      if (b == 0) break;
      return w(floor_mod(a, b));
    case NodeType::kMin:
      return std::min(a, b);
    case NodeType::kMax:
      return std::max(a, b);
    case NodeType::kShr:
      return shift_right(d, a, b);
    case NodeType::kShl:
      return shift_right(d, a, b == INT64_MIN ? INT64_MAX : -b);
    case NodeType::kEQ:
      return a == b;
    case NodeType::kNE:
      return a != b;
    case NodeType::kLT:
      return a < b;
    case NodeType::kLE:
      return a <= b;
    case NodeType::kGT:
      return a > b;
    case NodeType::kGE:
      return a >= b;
    case NodeType::kAnd:
      return (a != 0) && (b != 0);
    case NodeType::kOr:
      return (a != 0) || (b != 0);
    default:
      break;
  }
  *ok = false;
  return 0;
}

}  // namespace tandem::ir
