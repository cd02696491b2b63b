// Random schedules of a small matmul (splits with non-dividing factors,
// reorders, fuses, cache stages computed at random loops) must all compute
// the same result as a direct loop, through the interpreter (fixed seeds).
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(RandomSchedule, MatmulAlwaysCorrect) {
  const int M = 7, N = 6, K = 5;
  int lowered = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    Tensor A = te::placeholder({M, K}, DType::kInt8, "A");
    Tensor B = te::placeholder({N, K}, DType::kInt8, "B");
    IterVar k = te::reduce_axis(K, "k");
    Tensor C = te::compute(
        {M, N},
        [&](Var i, Var j) {
          return te::sum(te::cast(DType::kInt32, A(i, k)) * te::cast(DType::kInt32, B(j, k)), {k});
        },
        "C", {"i", "j"});
    te::Schedule s = te::create_schedule({C});
    Tensor work = C;
    if (pick(2)) work = s.cache_write(C, "local");
    te::Stage st = s[work];
    // Random splits of random leaves.
    for (int n = pick(4); n > 0; --n) {
      auto leaves = st.leaf_iter_vars();
      st.split(leaves[pick(static_cast<int>(leaves.size()))], pick(4) + 1);
    }
    // A random permutation of all leaves (reduce loops may move anywhere).
    auto leaves = st.leaf_iter_vars();
    std::shuffle(leaves.begin(), leaves.end(), rng);
    st.reorder(leaves);
    // Maybe fuse two adjacent leaves of the same kind.
    leaves = st.leaf_iter_vars();
    for (size_t p = 0; p + 1 < leaves.size(); ++p) {
      if (leaves[p].kind() == leaves[p + 1].kind() && pick(3) == 0) {
        st.fuse(leaves[p], leaves[p + 1]);
        break;
      }
    }
    // Cache A, computed at a random loop of the worker.
    if (pick(2)) {
      Tensor al = s.cache_read(A, "local", {work});
      auto l = st.leaf_iter_vars();
      s[al].compute_at(st, l[pick(static_cast<int>(l.size()))]);
    }
    if (!work.same_as(C) && pick(2)) {
      te::Stage sc = s[C];
      auto [o, i] = sc.split(sc.axis(0), pick(3) + 2);
      s[work].compute_at(sc, pick(2) ? o : i);
    }
    compiler::LoweredFunc f = compiler::lower(s, {A, B, C}, "mm");
    ++lowered;
    std::uniform_int_distribution<int> d(-128, 127);
    ir::Interpreter::Storage a(M * K), b(N * K), c(M * N, -1);
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
        ASSERT_EQ(c[i * N + j], want) << "seed " << seed << " at " << i << "," << j << "\n"
                                      << f.body;
      }
    }
  }
  EXPECT_EQ(lowered, 60);
}

}  // namespace
}  // namespace tandem
