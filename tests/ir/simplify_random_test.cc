// Soundness of the simplifier: random integer expressions over variables with
// known ranges must evaluate to the same value before and after
// simplification, for random points inside the ranges (fixed seeds).
#include <gtest/gtest.h>

#include <random>

#include "compiler/ir/interpreter.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"
#include "compiler/ir/substitute.h"

namespace tandem::ir {
namespace {

struct Gen {
  std::mt19937 rng;
  std::vector<Var> vars;
  explicit Gen(unsigned seed) : rng(seed) {}
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  Expr leaf() {
    if (pick(3) == 0) return Expr(pick(33) - 16);
    return vars[pick(static_cast<int>(vars.size()))];
  }
  Expr cond(int depth) {
    Expr a = expr(depth - 1), b = expr(depth - 1);
    switch (pick(6)) {
      case 0:
        return a < b;
      case 1:
        return a <= b;
      case 2:
        return a == b;
      case 3:
        return a != b;
      case 4:
        return a >= b && b > Expr(pick(9) - 4);
      default:
        return !(a > b) || a == Expr(3);
    }
  }
  Expr expr(int depth) {
    if (depth <= 0) return leaf();
    Expr a = expr(depth - 1);
    switch (pick(10)) {
      case 0:
        return a + expr(depth - 1);
      case 1:
        return a - expr(depth - 1);
      case 2:
        return a * Expr(pick(9) - 4);
      case 3:
        return a / Expr(pick(8) + 1);
      case 4:
        return a % Expr(pick(8) + 1);
      case 5:
        return min(a, expr(depth - 1));
      case 6:
        return max(a, expr(depth - 1));
      case 7:
        return select(cond(depth - 1), a, expr(depth - 1));
      case 8:
        return a * expr(depth - 1);
      default:
        return (a * Expr(pick(4) + 1) + expr(depth - 1)) / Expr(pick(4) + 1) * Expr(pick(3) + 1);
    }
  }
};

TEST(SimplifyRandom, PreservesValuesInsideRanges) {
  int checked = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    Gen g(seed);
    Analyzer an;
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    for (int v = 0; v < 3; ++v) {
      g.vars.push_back(Var("v" + std::to_string(v)));
      std::int64_t mn = g.pick(11) - 5, ext = g.pick(12) + 1;
      ranges.push_back({mn, ext});
      an.bind(g.vars.back(), mn, ext);
    }
    Expr e = g.expr(4);
    Expr s = an.simplify(e);
    for (int trial = 0; trial < 20; ++trial) {
      Interpreter in;
      VarMap m;
      for (size_t v = 0; v < g.vars.size(); ++v) {
        std::int64_t x = ranges[v].first + g.pick(static_cast<int>(ranges[v].second));
        m[g.vars[v].get()] = Expr(x);
      }
      std::int64_t va = in.eval(substitute(e, m)), vb = in.eval(substitute(s, m));
      ASSERT_EQ(va, vb) << "seed " << seed << "\n  expr:       " << e << "\n  simplified: " << s;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8000);
}

}  // namespace
}  // namespace tandem::ir
