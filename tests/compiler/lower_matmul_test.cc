// End-to-end lowering of small CPU-style computations, checked by running the
// lowered IR in the reference interpreter against direct loops.
#include <gtest/gtest.h>

#include <random>

#include "compiler/build.h"
#include "compiler/ir/interpreter.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"

namespace tandem {
namespace {

using ir::DType;
using te::IterVar;
using te::Tensor;
using te::Var;

struct Matmul {
  int M, N, K;
  Tensor A, B, C;
  IterVar k;
  Matmul(int m, int n, int kk) : M(m), N(n), K(kk) {
    A = te::placeholder({M, K}, DType::kInt8, "A");
    B = te::placeholder({N, K}, DType::kInt8, "B");
    k = te::reduce_axis(K, "k");
    C = te::compute({M, N},
                    [&](Var i, Var j) {
                      return te::sum(
                          te::cast(DType::kInt32, A(i, k)) * te::cast(DType::kInt32, B(j, k)), {k});
                    },
                    "C", {"i", "j"});
  }
  // Runs f and compares with a direct triple loop.
  void check(const compiler::LoweredFunc& f, unsigned seed = 1) const {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(-128, 127);
    ir::Interpreter::Storage a(M * K), b(N * K), c(M * N, 12345);
    for (auto& v : a) v = d(rng);
    for (auto& v : b) v = d(rng);
    ir::Interpreter in;
    in.bind(f.args[0], &a);
    in.bind(f.args[1], &b);
    in.bind(f.args[2], &c);
    in.run(f.body);
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j) {
        std::int64_t want = 0;
        for (int kk = 0; kk < K; ++kk) want += a[i * K + kk] * b[j * K + kk];
        ASSERT_EQ(c[i * N + j], want) << "at " << i << "," << j << "\n" << f.body;
      }
    }
  }
};

TEST(LowerMatmul, DefaultSchedule) {
  Matmul mm(4, 3, 5);
  te::Schedule s = te::create_schedule({mm.C});
  auto f = compiler::lower(s, {mm.A, mm.B, mm.C}, "mm");
  EXPECT_EQ(ir::to_string(f.body),
            "for (i, 0, 4) {\n"
            "  for (j, 0, 3) {\n"
            "    C[i*3 + j] = 0\n"
            "    for (k, 0, 5) {\n"
            "      C[i*3 + j] = int32(A[k + i*5])*int32(B[k + j*5]) + C[i*3 + j]\n"
            "    }\n"
            "  }\n"
            "}\n");
  mm.check(f);
}

TEST(LowerMatmul, TiledWithCachesAndComputeAt) {
  Matmul mm(8, 12, 16);
  te::Schedule s = te::create_schedule({mm.C});
  Tensor cl = s.cache_write(mm.C, "local");
  Tensor al = s.cache_read(mm.A, "local", {cl});
  te::Stage sc = s[mm.C];
  auto t = sc.tile(sc.axis(0), sc.axis(1), 4, 4);
  s[cl].compute_at(sc, t[1]);
  te::Stage scl = s[cl];
  auto [ko, ki] = scl.split(scl.reduce_axis(0), 4);
  scl.reorder({ko, scl.axis(0), scl.axis(1), ki});
  s[al].compute_at(scl, ko);
  std::string dump;
  compiler::LowerOptions opt;
  opt.dump_ir = [&](const std::string& pass, const ir::Stmt&) { dump += pass + ";"; };
  auto f = compiler::lower(s, {mm.A, mm.B, mm.C}, "mm", opt);
  EXPECT_EQ(dump,
            "schedule_ops;storage_flatten;simplify;intrin_offsets;remove_unit_loops;"
            "simplify_final;");
  std::string text = ir::to_string(f.body);
  // The A cache holds a 4x4 tile at each ko iteration; the C cache a 4x4 tile.
  EXPECT_NE(text.find("allocate A.local: int8[16] in local"), std::string::npos) << text;
  EXPECT_NE(text.find("allocate C.local: int32[16] in local"), std::string::npos) << text;
  mm.check(f, 7);
}

TEST(LowerMatmul, NonDivisibleSplitIsGuarded) {
  Matmul mm(5, 3, 3);
  te::Schedule s = te::create_schedule({mm.C});
  te::Stage sc = s[mm.C];
  sc.split(sc.axis(0), 2);
  auto f = compiler::lower(s, {mm.A, mm.B, mm.C}, "mm");
  EXPECT_NE(ir::to_string(f.body).find("if (i.outer*2 + i.inner < 5)"), std::string::npos)
      << f.body;
  mm.check(f, 3);
}

}  // namespace
}  // namespace tandem
