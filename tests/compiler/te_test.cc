// Tensor expressions: construction, inputs, reductions and user errors.
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/te/te.h"
#include "isa/error.h"

namespace tandem {
namespace {

using ir::DType;
using ir::Expr;
using te::IterVar;
using te::Tensor;
using te::Var;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Te, ComputeRecordsAxesInputsAndReduction) {
  Tensor A = te::placeholder({4, 8}, DType::kInt8, "A");
  Tensor B = te::placeholder({8}, DType::kInt8, "B");
  IterVar k = te::reduce_axis(8, "k");
  Tensor C = te::compute(
      {4},
      [&](Var i) {
        return te::reduce_max(te::cast(DType::kInt16, A(i, k)) + te::cast(DType::kInt16, B(k)),
                              {k});
      },
      "C");
  EXPECT_EQ(C.dtype(), DType::kInt16);
  EXPECT_EQ(C.op()->axis.size(), 1u);
  EXPECT_EQ(C.op()->axis[0].name(), "C.i0");
  ASSERT_EQ(C.op()->reduce_axis.size(), 1u);
  EXPECT_TRUE(C.op()->reduce_axis[0].same_as(k));  // same Var, same axis
  ASSERT_EQ(C.op()->inputs.size(), 2u);
  EXPECT_EQ(ir::to_string(C.op()->body),
            "reduce_max(int16(A[C.i0, k]) + int16(B[k]), axis=[k:0+8])");
  EXPECT_EQ(ir::Buffer(C).scope(), "global");
  EXPECT_TRUE(Tensor::from_buffer(C.buffer()).same_as(C));
  EXPECT_FALSE(Tensor::from_buffer(ir::Buffer("X", DType::kInt8, {1})).defined());
  std::vector<Tensor> order = te::topo_order({C});
  ASSERT_EQ(order.size(), 3u);
  EXPECT_TRUE(order[2].same_as(C));
}

TEST(Te, VectorLambdaAndShapes) {
  Tensor A = te::placeholder({2, 3, 4}, DType::kInt32, "A");
  Tensor B = te::compute(
      {2, 3, 4}, [&](const std::vector<Var>& v) { return A(v[0], v[1], v[2]) + 1; }, "B");
  EXPECT_EQ(B.const_shape(), (std::vector<std::int64_t>{2, 3, 4}));
}

TEST(Te, Errors) {
  Tensor A = te::placeholder({4}, DType::kInt8, "A");
  EXPECT_EQ(error_of([] { te::placeholder({0}, DType::kInt8, "Z"); }),
            "tensor Z: dimension 0 is 0, must be positive");
  Var n("n");
  EXPECT_EQ(error_of([&] { te::placeholder({n}, DType::kInt8, "Z"); }),
            "tensor Z: dimension 0 must be a constant, got n");
  EXPECT_EQ(error_of([&] {
              te::placeholder({65536, 65536}, DType::kInt8, "Z");
            }),
            "tensor Z has more than 2^31-1 elements (int32 indices)");
  EXPECT_EQ(error_of([&] { A(1, 2); }), "tensor A has 1 dimensions, accessed with 2 indices");
  EXPECT_EQ(error_of([&] {
              te::compute(
                  {4}, [&](Var i) { return A(i) + A(n); }, "B");
            }),
            "compute B uses variable n which is neither one of its axes nor a reduce axis of its "
            "top-level reduction");
  IterVar k = te::reduce_axis(4, "k");
  EXPECT_EQ(error_of([&] {
              te::compute(
                  {4},
                  [&](Var i) {
                    return te::cast(DType::kInt32, A(i)) +
                           te::sum(te::cast(DType::kInt32, A(k)), {k});
                  },
                  "B");
            }),
            "compute B: a reduction may only appear at the top of the body");
  EXPECT_EQ(error_of([&] {
              te::compute(
                  {4},
                  [&](Var i) {
                    return te::sum(A(i), {te::IterVar(Var("x"), {0, 4}, te::IterKind::kDataPar)});
                  },
                  "B");
            }),
            "sum: axis x is not a reduce axis (use te::reduce_axis)");
  EXPECT_EQ(error_of([&] { te::reduce_axis(0, "r"); }), "reduce axis r: extent 0 must be positive");
  EXPECT_EQ(error_of([&] {
              te::compute(
                  {4}, [&](Var i, Var j) { return A(i) + A(j); }, "B");
            }),
            "compute B: the lambda's number of index arguments differs from the 1 dimensions of "
            "the shape");
  EXPECT_EQ(error_of([&] {
              te::compute(
                  {4}, [&](Var i) { return A(i) + te::cast(DType::kInt16, A(i)); }, "B");
            }),
            "dtype mismatch in Add: int8 vs int16");
}

}  // namespace
}  // namespace tandem
