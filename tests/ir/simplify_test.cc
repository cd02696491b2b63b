// The simplifier: folding, linear canonical forms, div/mod, min/max and
// range-aware comparisons.
#include <gtest/gtest.h>

#include "compiler/ir/interval.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"

namespace tandem::ir {
namespace {

std::string S(const Expr& e) {
  return to_string(simplify(e));
}

class SimplifyRanges : public ::testing::Test {
 protected:
  void SetUp() override {
    an.bind(i, 0, 8);
    an.bind(j, 0, 16);
    an.bind(k, 0, 4);
  }
  std::string S(const Expr& e) { return to_string(an.simplify(e)); }
  Var i{"i"}, j{"j"}, k{"k"}, x{"x"}, y{"y"};
  Analyzer an;
};

TEST(Simplify, ConstantFolding) {
  EXPECT_EQ(S(Expr(3) + 4 * 5), "23");
  EXPECT_EQ(S(Expr(-7) / 2), "-4");
  EXPECT_EQ(S(Expr(-7) % 2), "1");
  EXPECT_EQ(S(Expr(7) % -2), "-1");
  EXPECT_EQ(S(min(Expr(3), 9) + max(Expr(-1), 2)), "5");
  EXPECT_EQ(S(Expr(1) << 4), "16");
  EXPECT_EQ(S(Expr(-64) >> 3), "-8");
  EXPECT_EQ(S(Expr(5) >> -1), "10");
  EXPECT_EQ(S(Expr(3) < 4), "true");
  EXPECT_EQ(S(!(Expr(3) == 3)), "false");
  EXPECT_EQ(S(cast(DType::kInt8, Expr(200))), "int8(-56)");
  EXPECT_EQ(S(Expr(2147483647) + 1), "-2147483648");
  EXPECT_EQ(S(Expr(5) / 0), "5/0");  // not folded, kept for the user to see
}

TEST(Simplify, LinearCanonicalForms) {
  Var x("x"), y("y");
  EXPECT_EQ(S(x + 3 - 1), "x + 2");
  EXPECT_EQ(S(x * 16 + y - x * 16), "y");
  EXPECT_EQ(S(y + x), "x + y");  // sorted by var id: x was created first
  EXPECT_EQ(S((x + y) * 4 - y * 4), "x*4");
  EXPECT_EQ(S(x - x), "0");
  EXPECT_EQ(S(0 - x), "x*-1");
  EXPECT_EQ(S(x * 2 - y * 3 + 5), "x*2 - y*3 + 5");
  EXPECT_EQ(S((x + 1) * (y + 2) - (x + 1) * (y + 2)), "0");
  EXPECT_EQ(S(3 * x * 2), "x*6");
}

TEST(Simplify, DivModByConstants) {
  Var x("x"), y("y");
  EXPECT_EQ(S((x * 8 + 16) / 8), "x + 2");
  EXPECT_EQ(S((x * 8 + 3) % 8), "3");
  EXPECT_EQ(S((x * 8 + y) / 8), "x + y/8");
  EXPECT_EQ(S((x * 8 + y) % 8), "y%8");
  EXPECT_EQ(S(x / 4 / 2), "x/8");
  EXPECT_EQ(S(x % 8 % 4), "x%4");
  EXPECT_EQ(S(x / 1), "x");
  EXPECT_EQ(S(x % 1), "0");
  EXPECT_EQ(S((x * 6 + y * 4) / 2), "x*3 + y*2");
  EXPECT_EQ(S((x * 6 + y * 4) % 2), "0");
}

TEST_F(SimplifyRanges, DivModWithRanges) {
  EXPECT_EQ(S((i * 16 + j) / 16), "i");
  EXPECT_EQ(S((i * 16 + j) % 16), "j");
  EXPECT_EQ(S(j / 16), "0");
  EXPECT_EQ(S(j % 16), "j");
  EXPECT_EQ(S((j + 16) % 16), "j");
  EXPECT_EQ(S((i * 4 + k) / 4 * 4 + (i * 4 + k) % 4), "i*4 + k");
  EXPECT_EQ(S((k + 1) / 8), "0");
  EXPECT_EQ(S((i * 64 + j * 4 + k) / 4), "i*16 + j");
  EXPECT_EQ(S(x * 0 + j / 32), "0");
}

TEST_F(SimplifyRanges, MinMaxWithRanges) {
  EXPECT_EQ(S(min(j, 16)), "j");
  EXPECT_EQ(S(min(j, 15)), "j");
  EXPECT_EQ(S(max(j, 0)), "j");
  EXPECT_EQ(S(min(j, 10)), "min(j, 10)");
  EXPECT_EQ(S(min(Expr(10), j)), "min(j, 10)");
  EXPECT_EQ(S(min(x + 3, x + 5)), "x + 3");
  EXPECT_EQ(S(max(x + 3, x + 5)), "x + 5");
  EXPECT_EQ(S(min(min(x, 4), 2)), "min(x, 2)");
  EXPECT_EQ(S(min(16, 100 - i * 16)), "min(i*-16 + 100, 16)");
  an.bind(x, 0, 6);
  EXPECT_EQ(S(min(16, 100 - x * 16)), "16");
}

TEST_F(SimplifyRanges, ComparisonsFromRanges) {
  EXPECT_EQ(S(i < 8), "true");
  EXPECT_EQ(S(i < 7), "i < 7");
  EXPECT_EQ(S(i * 16 + j < 128), "true");
  EXPECT_EQ(S(i * 16 + j < 100), "i*16 + j < 100");
  EXPECT_EQ(S(i + 3 < 10), "i < 7");
  EXPECT_EQ(S(Expr(10) > i + 3), "i < 7");
  EXPECT_EQ(S(i >= 0), "true");
  EXPECT_EQ(S(i - 8 >= 0), "false");
  EXPECT_EQ(S(i == 9), "false");
  EXPECT_EQ(S(i != 9), "true");
  EXPECT_EQ(S(i < 8 && j < x), "j < x");
  EXPECT_EQ(S(i >= 8 || j < x), "j < x");
  EXPECT_EQ(S(!(i < x)), "i >= x");
  EXPECT_EQ(S(select(i < 8, x, y)), "x");
  EXPECT_EQ(S(select(i < x, y, y)), "y");
  EXPECT_TRUE(an.can_prove(i * 2 + 1 <= 15));
  EXPECT_FALSE(an.can_prove(i * 2 + 1 <= 14));
  EXPECT_TRUE(an.can_prove_equal((i * 16 + j) / 4, i * 4 + j / 4));
}

TEST_F(SimplifyRanges, Bounds) {
  ConstBounds b = an.bounds(i * 16 + j - 3);
  EXPECT_EQ(*b.min, -3);
  EXPECT_EQ(*b.max, 124);
  b = an.bounds(x + 1);
  EXPECT_FALSE(b.min.has_value());
  b = an.bounds(cast(DType::kInt32, load(Buffer("A", DType::kInt8, {4}), {0})));
  EXPECT_EQ(*b.min, -128);
  EXPECT_EQ(*b.max, 127);
  b = an.bounds((j - 20) % 8);
  EXPECT_EQ(*b.min, 0);
  EXPECT_EQ(*b.max, 7);
}

TEST(Simplify, CastChains) {
  Buffer a("A", DType::kInt8, {4});
  Expr l = load(a, {0});
  EXPECT_EQ(S(cast(DType::kInt32, cast(DType::kInt16, l))), "int32(A[0])");
  EXPECT_EQ(S(cast(DType::kInt8, cast(DType::kInt32, l))), "int8(int32(A[0]))");
  EXPECT_EQ(S(cast(DType::kInt8, l)), "A[0]");
}

TEST(SimplifyStmt, LoopsAndIfs) {
  Var i("i"), j("j");
  Buffer a("A", DType::kInt32, {128});
  Stmt s = for_loop(i, 0, 8,
                    for_loop(j, 0, 16,
                             IfThenElseNode::make(i * 16 + j < 128,
                                                  store(a, {(i * 16 + j) / 16 * 16 + j % 16}, 1))));
  EXPECT_EQ(to_string(simplify(s)),
            "for (i, 0, 8) {\n  for (j, 0, 16) {\n    A[i*16 + j] = 1\n  }\n}\n");
  Stmt empty = for_loop(i, 0, 0, store(a, {i}, 1));
  EXPECT_EQ(to_string(simplify(seq({empty, store(a, {0}, 2)}))), "A[0] = 2\n");
  Stmt dead = for_loop(i, 0, 4, IfThenElseNode::make(i > 5, store(a, {i}, 1)));
  EXPECT_EQ(to_string(simplify(dead)), "");
  Stmt unchanged = for_loop(i, 0, 4, store(a, {i}, 1));
  EXPECT_TRUE(simplify(unchanged).same_as(unchanged));
}

TEST(Interval, AffineAndSymbolic) {
  Var i("i"), j("j"), o("o");
  IntervalMap dom{{i.get(), {Expr(0), Expr(7)}}, {j.get(), {Expr(0), Expr(15)}}};
  Interval r = eval_interval(o * 16 + i * 2 - j, dom);
  EXPECT_EQ(to_string(r.min), "o*16 - 15");
  EXPECT_EQ(to_string(r.max), "o*16 + 14");
  r = eval_interval((o * 8 + i) / 4, dom);
  EXPECT_EQ(to_string(r.min), "o*2");
  EXPECT_EQ(to_string(r.max), "o*2 + 1");
  r = eval_interval(i * j, dom);
  EXPECT_FALSE(r.bounded());
  r = eval_interval(min(i, 3) + o, dom);
  EXPECT_EQ(to_string(r.min), "o");
  EXPECT_EQ(to_string(r.max), "o + 3");
  Interval u = union_interval({Expr(0), o}, {Expr(2), o + 1});
  EXPECT_EQ(to_string(u.min), "0");
  EXPECT_EQ(to_string(u.max), "o + 1");
}

}  // namespace
}  // namespace tandem::ir
namespace tandem::ir {
TEST(SimplifyRangesPoint, ModOfMultipleWithUnitRange) {
  Var m("m");
  Analyzer an;
  an.bind(m, 0, 2);
  EXPECT_EQ(to_string(an.simplify(floormod(m * 8, Expr(8)))), "0");
  EXPECT_EQ(to_string(simplify(floormod(m * 8, Expr(8)))), "0");
}
}  // namespace tandem::ir
namespace tandem::ir {
TEST(Simplify, RecombinesDivMod) {
  Var x("x"), y("y");
  EXPECT_EQ(to_string(simplify(x / 6 * 6 + x % 6)), "x");
  EXPECT_EQ(to_string(simplify((x / 4 * 4 + x % 4) * 2 + y)), "x*2 + y");
  EXPECT_EQ(to_string(simplify(x / 4 * 8 + x % 4 * 2)), "x*2");
  EXPECT_EQ(to_string(simplify(x / 4 * 4 + y % 4)), "x/4*4 + y%4");
}
}  // namespace tandem::ir
namespace tandem::ir {
TEST(Simplify, NestedDivisionAfterSplit) {
  Var x("x"), y("y");
  EXPECT_EQ(to_string(simplify((x * 3 + (y / 8)) / 3)), "x + y/24");
  EXPECT_EQ(to_string(simplify((x * 3 + (y / 8)) / 3 - y / 24)), "x");
}
}  // namespace tandem::ir
