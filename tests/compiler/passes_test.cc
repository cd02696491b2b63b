// Each generic lowering pass on hand-written IR (before/after text), and the
// IR dump of lower().
#include <gtest/gtest.h>

#include <sstream>

#include "compiler/build.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/lower/passes.h"
#include "isa/error.h"
#include "tensorize/match.h"

namespace tandem {
namespace {

using ir::Buffer;
using ir::DType;
using ir::Expr;
using ir::Stmt;
using ir::Var;

TEST(Pass, StorageFlattenRowMajor) {
  Buffer a("A", DType::kInt8, {4, 3, 2});
  Buffer t("T", DType::kInt32, {3, 2}, "acc");
  Var i("i"), j("j");
  Stmt body = ir::AllocateNode::make(
      t, ir::for_loop(
             i, 0, 3,
             ir::for_loop(j, 0, 2,
                          ir::store(t, {i, j}, ir::cast(DType::kInt32, ir::load(a, {1, i, j}))))));
  EXPECT_EQ(ir::to_string(body),
            "allocate T: int32[3, 2] in acc {\n  for (i, 0, 3) {\n    for (j, 0, 2) {\n"
            "      T[i, j] = int32(A[1, i, j])\n    }\n  }\n}\n");
  std::vector<Buffer> flat;
  Stmt out = pass::storage_flatten(body, {a}, &flat);
  ASSERT_EQ(flat.size(), 1u);
  EXPECT_EQ(ir::to_string(flat[0]->shape[0]), "24");
  EXPECT_FALSE(flat[0].same_as(a));
  EXPECT_EQ(ir::to_string(out),
            "allocate T: int32[6] in acc {\n  for (i, 0, 3) {\n    for (j, 0, 2) {\n"
            "      T[i*2 + j] = int32(A[(1*3 + i)*2 + j])\n    }\n  }\n}\n");
  EXPECT_EQ(ir::to_string(pass::simplify_pass(out)),
            "allocate T: int32[6] in acc {\n  for (i, 0, 3) {\n    for (j, 0, 2) {\n"
            "      T[i*2 + j] = int32(A[i*2 + j + 6])\n    }\n  }\n}\n");
}

TEST(Pass, RemoveUnitLoops) {
  Buffer a("A", DType::kInt32, {8});
  Var i("i"), j("j");
  Stmt s =
      ir::for_loop(i, 3, 1, ir::for_loop(j, 0, 2, ir::store(a, {i + j}, i), ir::ForKind::kVThread));
  EXPECT_EQ(ir::to_string(pass::remove_unit_loops(s)),
            "for (j, 0, 2) vthread {\n  A[3 + j] = 3\n}\n");
  Stmt keep = ir::for_loop(j, 0, 2, ir::store(a, {j}, 0));
  EXPECT_TRUE(pass::remove_unit_loops(keep).same_as(keep));
}

TEST(Pass, IntrinOffsetsDividesByTheTile) {
  Buffer acc("C", DType::kInt32, {64}, "acc");
  Buffer inp("A", DType::kInt8, {32}, "inp");
  Var i("i");
  auto addr = [](const Buffer& b, Expr flat, int elem) {
    return ir::call(DType::kInt32, tensorize::kTensorAddr, {ir::load(b, {flat}), Expr(elem)});
  };
  Stmt s = ir::for_loop(i, 0, 4,
                        ir::evaluate(ir::call(DType::kInt32, "f",
                                              {addr(acc, i * 16 + 8, 8), addr(inp, i * 8, 8), 5})));
  EXPECT_EQ(ir::to_string(pass::intrin_offsets(s)),
            "for (i, 0, 4) {\n  f<C:acc, A:inp>(i*2 + 1, i, 5)\n}\n");
  Stmt bad =
      ir::for_loop(i, 0, 4, ir::evaluate(ir::call(DType::kInt32, "f", {addr(acc, i * 4, 8)})));
  try {
    pass::intrin_offsets(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(
        e.what(),
        "f: the offset i*4 into C is not a multiple of the intrinsic tile (8 elements); its "
        "tiles must be aligned");
  }
}

TEST(Pass, SimplifyUsesLoopRanges) {
  Buffer a("A", DType::kInt32, {32});
  Var i("i"), j("j");
  Stmt s = ir::for_loop(
      i, 0, 4,
      ir::for_loop(
          j, 0, 8,
          ir::IfThenElseNode::make(i * 8 + j < 32,
                                   ir::store(a, {(i * 8 + j) / 8 * 8 + (i * 8 + j) % 8}, j % 8))));
  EXPECT_EQ(ir::to_string(pass::simplify_pass(s)),
            "for (i, 0, 4) {\n  for (j, 0, 8) {\n    A[i*8 + j] = j\n  }\n}\n");
}

TEST(Pass, LowerDumpsEveryPass) {
  te::Tensor A = te::placeholder({2, 4}, DType::kInt32, "A");
  te::Tensor B =
      te::compute({2, 4}, [&](te::Var x, te::Var y) { return A(x, y) * 2; }, "B", {"x", "y"});
  te::Schedule s = te::create_schedule({B});
  std::ostringstream os;
  compiler::LowerOptions opt;
  opt.dump_stream = &os;
  compiler::LoweredFunc f = compiler::lower(s, {A, B}, "dbl", opt);
  std::string d = os.str();
  size_t pos = 0;
  for (const std::string& p : compiler::lower_pass_names()) {
    size_t at = d.find("// ---- " + p + " ----\n", pos);
    ASSERT_NE(at, std::string::npos) << p << "\n" << d;
    pos = at;
  }
  EXPECT_NE(d.find("// ---- schedule_ops ----\nfor (x, 0, 2) {\n  for (y, 0, 4) {\n    B[x, y] = "
                   "A[x, y]*2\n"),
            std::string::npos)
      << d;
  EXPECT_EQ(f.arg_shapes[0], (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(f.args[1].name(), "B");
  EXPECT_EQ(f.args[1].scope(), "global");
}

}  // namespace
}  // namespace tandem
