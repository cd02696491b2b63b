// The tensorize matcher: intrinsic declarations from the HwConfig, success
// on 16x16 blocks, and every failure message (which names intrinsic, stage
// and axis, shows the mismatch and says what to change).
#include <gtest/gtest.h>

#include "compiler/build.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"
#include "tensorize/intrinsic.h"
#include "tensorize/match.h"

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

TEST(Intrinsic, GemmFromConfig) {
  HwConfig hw = HwConfig::load_preset("vta-16x16");
  tensorize::Intrinsic g = tensorize::make_gemm(hw);
  EXPECT_EQ(g.name, "gemm");
  EXPECT_EQ(ir::to_string(g.body), "int32(A[b, i])*int32(B[o, i])");
  EXPECT_EQ(g.inputs[0].scope(), "inp");
  EXPECT_EQ(g.inputs[1].scope(), "wgt");
  EXPECT_EQ(g.output.scope(), "acc");
  EXPECT_EQ(g.inputs[0].num_elements(), hw.batch * hw.block_in);
  EXPECT_EQ(g.inputs[1].num_elements(), 16 * 16);
  EXPECT_EQ(g.reduce_axes[0].extent, 16);
  EXPECT_EQ(g.update_call, "gemm_update");
  EXPECT_EQ(g.reset_call, "gemm_reset");
}

TEST(Intrinsic, AluForms) {
  HwConfig hw = HwConfig::load_preset("tandem-8x8");
  auto a = tensorize::make_alu(hw, isa::AluOp::kAdd, false);
  EXPECT_EQ(a.name, "alu_add");
  EXPECT_EQ(ir::to_string(a.body), "S[b, o] + T[b, o]");
  auto s = tensorize::make_alu(hw, isa::AluOp::kShr, true);
  EXPECT_EQ(s.name, "alu_shr_imm");
  EXPECT_EQ(ir::to_string(s.body), "S[b, o] >> imm");
  EXPECT_EQ(tensorize::alu_call_name(isa::AluOp::kMul, true), "alu_mul_imm");
  EXPECT_EQ(tensorize::alu_call_name(isa::AluOp::kMin, false), "alu_min");
}

// A blocked matmul C[m, n, b, o] over (ko, ki); the schedule is set up by the
// caller through the hooks.
struct Gemm {
  HwConfig hw;
  int MO = 2, NO = 2, KO = 2;
  Tensor A, W, C;
  te::Schedule s;
  Tensor abuf, wbuf;
  explicit Gemm(const std::string& preset, int ki_extent = 0, bool sum_instead = false) {
    hw = HwConfig::load_preset(preset);
    const int B = hw.batch, BI = ki_extent ? ki_extent : hw.block_in, BO = hw.block_out;
    A = te::placeholder({MO, KO, B, BI}, DType::kInt8, "A");
    W = te::placeholder({NO, KO, BO, BI}, DType::kInt8, "W");
    IterVar ko = te::reduce_axis(KO, "ko"), ki = te::reduce_axis(BI, "ki");
    C = te::compute({MO, NO, B, BO},
                    [&](Var m, Var n, Var b, Var o) {
                      Expr x = te::cast(DType::kInt32, A(m, ko, b, ki));
                      Expr y = te::cast(DType::kInt32, W(n, ko, o, ki));
                      return te::sum(sum_instead ? x + y : y * x, {ko, ki});
                    },
                    "C", {"m", "n", "b", "o"});
    s = te::create_schedule({C});
  }
  void caches() {
    abuf = s.cache_read(A, "inp", {C});
    wbuf = s.cache_read(W, "wgt", {C});
  }
  te::Stage sc() { return s[C]; }
  // Reorders to (ko, m, n, b, o, ki) and tensorizes at b.
  void standard_tensorize() {
    te::Stage c = sc();
    c.reorder({c.reduce_axis(0), c.axis(0), c.axis(1), c.axis(2), c.axis(3), c.reduce_axis(1)});
    c.tensorize(c.axis(2), tensorize::make_gemm(hw));
  }
  compiler::LoweredFunc lower() { return compiler::lower(s, {A, W, C}, "g"); }
};

TEST(Tensorize, Vta16x16WithOutputInGlobalIsRejectedForScope) {
  // Without an acc-scope cache the output is in global memory.
  Gemm g("vta-16x16");
  g.caches();
  g.standard_tensorize();
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "tensorize gemm at C.b: output C is in scope \"global\" but intrinsic operand C needs "
            "scope \"acc\" (cache it into acc)");
}

TEST(Tensorize, Vta16x16Succeeds) {
  Gemm g("vta-16x16");
  g.caches();
  Tensor cacc = g.s.cache_write(g.C, "acc");
  te::Stage c = g.s[cacc];
  c.reorder({c.reduce_axis(0), c.axis(0), c.axis(1), c.axis(2), c.axis(3), c.reduce_axis(1)});
  c.tensorize(c.axis(2), tensorize::make_gemm(g.hw));
  std::string text = ir::to_string(g.lower().body);
  // Whole-tensor caches; inp element = 16 int8, wgt element = 256, acc element = 16 int32.
  EXPECT_NE(text.find("gemm_update<C.acc:acc, A.inp:inp, W.wgt:wgt>(m*2 + n, ko + m*2, ko + n*2)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gemm_reset<C.acc:acc>(m.init*2 + n.init)"), std::string::npos) << text;
}

TEST(Tensorize, WholeReductionInsideRegionEmitsResetThenUpdate) {
  Gemm g("tandem-8x8");
  g.KO = 1;
  g = Gemm("tandem-8x8");
  g.caches();
  Tensor cacc = g.s.cache_write(g.C, "acc");
  te::Stage c = g.s[cacc];
  // Fuse nothing; tensorize at ko? ko has extent 2 -> not part of the intrinsic.
  c.reorder({c.axis(0), c.axis(1), c.axis(2), c.axis(3), c.reduce_axis(0), c.reduce_axis(1)});
  c.tensorize(c.axis(2), tensorize::make_gemm(g.hw));
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "tensorize gemm at C.acc.b: the region has 2 reduce loop(s) (ko:2, ki:8) but the "
            "intrinsic has 1 (BLOCK_IN=8); tensorize at the axis whose inner loops are exactly "
            "the intrinsic's tile");
}

TEST(Tensorize, WrongInnerExtentSaysWhatToSplit) {
  Gemm g("tandem-8x8", /*ki_extent=*/16);
  g.caches();
  Tensor cacc = g.s.cache_write(g.C, "acc");
  te::Stage c = g.s[cacc];
  c.reorder({c.reduce_axis(0), c.axis(0), c.axis(1), c.axis(2), c.axis(3), c.reduce_axis(1)});
  c.tensorize(c.axis(2), tensorize::make_gemm(g.hw));
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "tensorize gemm at C.acc.b: loop ki has extent 16 but the intrinsic's reduce axis "
            "BLOCK_IN needs 8; split axis ki by 8 so the inner extent matches BLOCK_IN");
  // Splitting as told makes it match the loop shape; the operand layout is
  // then not a contiguous tile (dimension of extent 16).
  auto [kio, kii] = c.split(c.reduce_axis(1), 8);
  c.reorder({c.reduce_axis(0), kio, c.axis(0), c.axis(1), c.axis(2), c.axis(3), kii});
  std::string e = error_of([&] { g.lower(); });
  EXPECT_NE(e.find("first mismatch: stage has A.inp[m, ko, 0, ki.outer*8 + ki.inner] where the "
                   "intrinsic has A[0, ki.inner] (dimension 3 of A.inp has extent 16 but "
                   "intrinsic operand A needs 8 (the innermost dimensions of a tensorized operand "
                   "must be exactly the tile))"),
            std::string::npos)
      << e;
}

TEST(Tensorize, BodyMismatchShowsBothSides) {
  Gemm g("tandem-8x8", 0, /*sum_instead=*/true);
  g.caches();
  Tensor cacc = g.s.cache_write(g.C, "acc");
  te::Stage c = g.s[cacc];
  c.reorder({c.reduce_axis(0), c.axis(0), c.axis(1), c.axis(2), c.axis(3), c.reduce_axis(1)});
  c.tensorize(c.axis(2), tensorize::make_gemm(g.hw));
  std::string e = error_of([&] { g.lower(); });
  EXPECT_NE(e.find("tensorize gemm at C.acc.b: the stage's computation does not match the "
                   "intrinsic\n  stage:     int32(A.inp["),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("\n  intrinsic: int32(A[0, ki])*int32(B[o, ki])\n"), std::string::npos) << e;
  EXPECT_NE(
      e.find("first mismatch: stage has int32(A.inp[m, ko, 0, ki]) + int32(W.wgt[n, ko, o, ki])"
             " where the intrinsic has int32(A[0, ki])*int32(B[o, ki]) (different "
             "operations)"),
      std::string::npos)
      << e;
}

TEST(Tensorize, MissingInputCacheNamesScope) {
  Gemm g("tandem-8x8");
  Tensor cacc = g.s.cache_write(g.C, "acc");
  g.wbuf = g.s.cache_read(g.W, "wgt", {cacc});
  te::Stage c = g.s[cacc];
  c.reorder({c.reduce_axis(0), c.axis(0), c.axis(1), c.axis(2), c.axis(3), c.reduce_axis(1)});
  c.tensorize(c.axis(2), tensorize::make_gemm(g.hw));
  std::string e = error_of([&] { g.lower(); });
  EXPECT_NE(e.find("(A is in scope \"global\" but intrinsic operand A needs scope \"inp\" (cache "
                   "it into inp))"),
            std::string::npos)
      << e;
}

TEST(Tensorize, ElementwiseVsReduction) {
  Gemm g("tandem-8x8");
  g.caches();
  Tensor cacc = g.s.cache_write(g.C, "acc");
  te::Stage c = g.s[cacc];
  c.tensorize(c.axis(2), tensorize::make_alu(g.hw, isa::AluOp::kAdd, false));
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "tensorize alu_add at C.acc.b: the intrinsic is element-wise but stage C.acc is a "
            "reduction");
}

// An acc-scope element-wise stage for the ALU intrinsic tests.
struct Alu {
  HwConfig hw = HwConfig::load_preset("tandem-8x8");
  Tensor X = te::placeholder({2, 1, 8}, DType::kInt32, "X");
  Tensor Y;
  te::Schedule s;
  Tensor xacc;
  explicit Alu(const std::function<Expr(Expr)>& f) {
    Y = te::compute({2, 1, 8}, [&](Var n, Var b, Var o) { return f(X(n, b, o)); }, "Y",
                    {"n", "b", "o"});
    s = te::create_schedule({Y});
    xacc = s.cache_read(X, "acc", {Y});
  }
  std::string run(isa::AluOp op, bool imm) {
    Tensor yacc = s.cache_write(Y, "acc");
    s[yacc].tensorize(s[yacc].axis(1), tensorize::make_alu(hw, op, imm));
    return ir::to_string(compiler::lower(s, {X, Y}, "a").body);
  }
};

TEST(TensorizeAlu, ImmediateForms) {
  Alu relu([](Expr x) { return te::max(Expr(0), x); });  // commutative order accepted
  std::string t = relu.run(isa::AluOp::kMax, true);
  EXPECT_NE(t.find("alu_max_imm<Y.acc:acc, X.acc:acc>(n, n, 0)"), std::string::npos) << t;
  Alu big([](Expr x) { return x + 40000; });
  EXPECT_NE(error_of([&] { big.run(isa::AluOp::kAdd, true); })
                .find("first mismatch: stage has 40000 where the intrinsic has imm (constant 40000 "
                      "outside the immediate range [-32768, 32767])"),
            std::string::npos);
}

TEST(TensorizeAlu, ImmediateMustBeConstant) {
  Alu a([](Expr x) { return x >> x; });
  std::string e = error_of([&] { a.run(isa::AluOp::kShr, true); });
  EXPECT_NE(e.find("(the intrinsic parameter must be a constant)"), std::string::npos) << e;
}

TEST(TensorizeAlu, WrongOperator) {
  Alu a([](Expr x) { return te::min(x, 127); });
  std::string e = error_of([&] { a.run(isa::AluOp::kMax, true); });
  EXPECT_NE(e.find("first mismatch: stage has min(X.acc[n, 0, o], 127) where the intrinsic has "
                   "max(S[0, o], imm) (different operations)"),
            std::string::npos)
      << e;
}

TEST(TensorizeAlu, MisalignedTileIsRejectedAfterFlattening) {
  // BATCH 2: one acc element is 2 rows of 8. Y[b] = X[b + 1] + X[b] needs X
  // rows 0..2 in acc; the X[b + 1] tile starts at row 1, half an element.
  HwConfig hw = HwConfig::load_preset("tandem-8x8");
  hw.batch = 2;
  hw.finalize();
  Tensor X = te::placeholder({3, 8}, DType::kInt32, "X");
  Tensor Y =
      te::compute({2, 8}, [&](Var b, Var o) { return X(b + 1, o) + X(b, o); }, "Y", {"b", "o"});
  te::Schedule s = te::create_schedule({Y});
  s.cache_read(X, "acc", {Y});
  Tensor yacc = s.cache_write(Y, "acc");
  s[yacc].tensorize(s[yacc].axis(0), tensorize::make_alu(hw, isa::AluOp::kAdd, false));
  EXPECT_EQ(error_of([&] {
              compiler::lower(s, {X, Y}, "a");
            }),
            "alu_add: the offset 8 into X.acc is not a multiple of the intrinsic tile (16 "
            "elements); its tiles must be aligned");
}

}  // namespace
}  // namespace tandem
