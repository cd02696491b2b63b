// The reference interpreter: semantics of operators, bounds checks, calls.
#include <gtest/gtest.h>

#include "compiler/ir/interpreter.h"
#include "compiler/ir/op.h"
#include "isa/error.h"

namespace tandem::ir {
namespace {

TEST(Interpreter, OperatorSemantics) {
  Interpreter in;
  EXPECT_EQ(in.eval(Expr(-7) / 2), -4);
  EXPECT_EQ(in.eval(Expr(-7) % 2), 1);
  EXPECT_EQ(in.eval(Expr(-64) >> 3), -8);
  EXPECT_EQ(in.eval(Expr(1) >> -4), 16);
  EXPECT_EQ(in.eval(Expr(-1) >> 40), -1);
  EXPECT_EQ(in.eval(Expr(2147483647) + 1), -2147483648ll);
  EXPECT_EQ(in.eval(cast(DType::kInt8, Expr(300))), 44);
  EXPECT_EQ(in.eval(select(Expr(1) < 2, 5, 6)), 5);
  EXPECT_THROW(in.eval(Expr(1) / 0), Error);
}

TEST(Interpreter, LoopsStoresAndBounds) {
  Buffer a("A", DType::kInt8, {2, 3});
  Var i("i"), j("j");
  Stmt s = for_loop(i, 0, 2, for_loop(j, 0, 3, store(a, {i, j}, cast(DType::kInt8, i * 100 + j))));
  Interpreter::Storage st(6);
  Interpreter in;
  in.bind(a, &st);
  in.run(s);
  EXPECT_EQ(st, (Interpreter::Storage{0, 1, 2, 100, 101, 102}));
  Stmt oob = store(a, {2, 0}, cast(DType::kInt8, Expr(1)));
  try {
    in.run(oob);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "interpreter: index 2 of dimension 0 of A outside [0, 2)");
  }
  Interpreter::Storage small(2);
  EXPECT_THROW(in.bind(a, &small), Error);
}

TEST(Interpreter, CallsAndStepLimit) {
  Buffer a("A", DType::kInt32, {4});
  Interpreter::Storage st(4, 0);
  Interpreter in;
  in.bind(a, &st);
  in.register_call(
      "fill", [](const std::vector<std::int64_t>& args, std::vector<Interpreter::Storage*>& b) {
        (*b[0])[args[0]] = args[1];
        return std::int64_t{0};
      });
  in.run(evaluate(call(DType::kInt32, "fill", {2, 9}, {a})));
  EXPECT_EQ(st[2], 9);
  EXPECT_THROW(in.run(evaluate(call(DType::kInt32, "nope", {}))), Error);
  Var i("i");
  in.set_step_limit(10);
  EXPECT_THROW(in.run(for_loop(i, 0, 100, store(a, {0}, i))), Error);
}

}  // namespace
}  // namespace tandem::ir
