// IR nodes, builders, printer, structural equality and mutator identity.
#include <gtest/gtest.h>

#include "compiler/ir/equal.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/substitute.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::ir {
namespace {

TEST(IrNodes, VarIdentityIsNotName) {
  Var a("x"), b("x");
  EXPECT_FALSE(a.same_as(b));
  EXPECT_NE(a.get()->id, b.get()->id);
  EXPECT_FALSE(equal(a + 1, b + 1));
  EXPECT_TRUE(equal(a + 1, a + 1));
}

TEST(IrNodes, LiteralAdoptsOtherDtype) {
  Buffer buf("A", DType::kInt8, {16});
  Expr e = load(buf, {Expr(3)}) + 1;
  EXPECT_EQ(e.dtype(), DType::kInt8);
  EXPECT_EQ(e.as<AddNode>()->b.dtype(), DType::kInt8);
}

TEST(IrNodes, DtypeMismatchThrows) {
  Buffer a("A", DType::kInt8, {16});
  Buffer b("B", DType::kInt32, {16});
  EXPECT_THROW(load(a, {0}) + load(b, {0}), Error);
  EXPECT_THROW(load(a, {0}) && load(a, {1}), Error);
  Var x("x");
  EXPECT_THROW(select(x, 1, 2), Error);
  EXPECT_THROW(store(a, {0}, load(b, {0})), Error);
  try {
    (void)(load(a, {0}) * load(b, {0}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("int8 vs int32"), std::string::npos) << e.what();
  }
}

TEST(IrNodes, WrapToDtype) {
  EXPECT_EQ(wrap_to(DType::kInt8, 128), -128);
  EXPECT_EQ(wrap_to(DType::kInt8, -129), 127);
  EXPECT_EQ(wrap_to(DType::kInt32, 0x80000000ll), -2147483648ll);
  EXPECT_EQ(make_const(DType::kInt16, 70000).as<IntImmNode>()->value, 70000 - 65536);
}

TEST(IrPrinter, Precedence) {
  Var i("i"), j("j");
  EXPECT_EQ(to_string(i * 16 + j), "i*16 + j");
  EXPECT_EQ(to_string((i + 1) * 16), "(i + 1)*16");
  EXPECT_EQ(to_string(i - (j - 1)), "i - (j - 1)");
  EXPECT_EQ(to_string(i - j - 1), "i - j - 1");
  EXPECT_EQ(to_string(i < 4 && j >= 2), "i < 4 && j >= 2");
  EXPECT_EQ(to_string(min(i, j) / 2 % 3), "min(i, j)/2%3");
  EXPECT_EQ(to_string(!(i == j)), "!(i == j)");
  EXPECT_EQ(to_string(cast(DType::kInt8, i >> 2)), "int8(i >> 2)");
}

TEST(IrPrinter, Statements) {
  Var i("i");
  Buffer a("A", DType::kInt32, {8});
  Buffer s("S", DType::kInt32, {8}, "acc");
  Stmt body = for_loop(i, 0, 8, store(s, {i}, load(a, {i}) + 1), ForKind::kUnrolled);
  Stmt st = AllocateNode::make(s, AttrStmtNode::make("dma_copy", 0, "S.i", body));
  EXPECT_EQ(to_string(st),
            "allocate S: int32[8] in acc {\n"
            "  attr dma_copy = 0 \"S.i\" {\n"
            "    for (i, 0, 8) unrolled {\n"
            "      S[i] = A[i] + 1\n"
            "    }\n"
            "  }\n"
            "}\n");
  Expr c = call(DType::kInt32, "gemm_update", {i, 2}, {s, a});
  EXPECT_EQ(to_string(c), "gemm_update<S:acc, A:global>(i, 2)");
}

TEST(IrEqual, AlphaEquivalenceOfBoundVars) {
  Var i("i"), j("j"), free("n");
  Buffer a("A", DType::kInt32, {8});
  Stmt s1 = for_loop(i, 0, 8, store(a, {i}, i + free));
  Stmt s2 = for_loop(j, 0, 8, store(a, {j}, j + free));
  Stmt s3 = for_loop(j, 0, 8, store(a, {j}, j + j));
  EXPECT_TRUE(equal(s1, s2));
  EXPECT_FALSE(equal(s1, s3));
  EXPECT_FALSE(equal(s1, for_loop(j, 0, 4, store(a, {j}, j + free))));
}

class Nothing : public IRMutator {};
class IncConst : public IRMutator {
 public:
  using IRMutator::visit;
  Expr visit(const IntImmNode* op, const Expr& self) override {
    return op->value == 7 ? make_const(op->dtype, 8) : self;
  }
};

TEST(IrMutator, ReturnsSameNodeWhenUnchanged) {
  Var i("i"), j("j");
  Buffer a("A", DType::kInt32, {64});
  Stmt s = for_loop(i, 0, 8,
                    seq({store(a, {i * 8 + j}, select(i < j, load(a, {i}), max(i, 3))),
                         IfThenElseNode::make(i == 2, evaluate(call(DType::kInt32, "f", {i})))}));
  Nothing n;
  EXPECT_TRUE(n.mutate(s).same_as(s));
  IncConst inc;
  EXPECT_TRUE(inc.mutate(s).same_as(s));
  Stmt s7 = for_loop(i, 0, 8, seq({store(a, {i}, i + 7), store(a, {j}, j)}));
  Stmt r = inc.mutate(s7);
  EXPECT_FALSE(r.same_as(s7));
  // The untouched second store is shared.
  EXPECT_TRUE(r.as<ForNode>()->body.as<SeqNode>()->stmts[1].same_as(
      s7.as<ForNode>()->body.as<SeqNode>()->stmts[1]));
  EXPECT_EQ(to_string(r), "for (i, 0, 8) {\n  A[i] = i + 8\n  A[j] = j\n}\n");
}

TEST(IrSubstitute, ReplacesFreeVarsOnly) {
  Var i("i"), n("n");
  Buffer a("A", DType::kInt32, {64});
  Stmt s = seq({store(a, {i}, n), for_loop(i, 0, 4, store(a, {i}, i))});
  Stmt r = substitute(s, {{i.get(), Expr(5)}, {n.get(), Expr(9)}});
  EXPECT_EQ(to_string(r), "A[5] = 9\nfor (i, 0, 4) {\n  A[i] = i\n}\n");
  EXPECT_TRUE(uses_var(i * 2 + n, n.get()));
  EXPECT_FALSE(uses_var(i * 2, n.get()));
  auto vars = collect_vars(n + i * n);
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_TRUE(vars[0].same_as(n));
}

TEST(IrVisitor, CountsNodes) {
  Var i("i");
  Buffer a("A", DType::kInt32, {64});
  Stmt s = for_loop(i, 0, 8, store(a, {i}, load(a, {i + 1}) * 2));
  int loads = 0, stores = 0;
  post_order_visit(s, [&](const Node* n) {
    loads += n->node_type == NodeType::kLoad;
    stores += n->node_type == NodeType::kStore;
  });
  EXPECT_EQ(loads, 1);
  EXPECT_EQ(stores, 1);
}

}  // namespace
}  // namespace tandem::ir
