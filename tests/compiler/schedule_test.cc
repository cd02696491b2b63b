// Each schedule primitive: the loop nest it produces (lowered text) and the
// errors it raises for invalid use.
#include <gtest/gtest.h>

#include "compiler/build.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"

namespace tandem {
namespace {

using ir::DType;
using te::IterVar;
using te::Tensor;
using te::Var;

struct Ew {
  Tensor A = te::placeholder({8, 6}, DType::kInt32, "A");
  Tensor B = te::compute({8, 6}, [&](Var i, Var j) { return A(i, j) + 1; }, "B", {"i", "j"});
  te::Schedule s = te::create_schedule({B});
  te::Stage st = s[B];
  std::string lower(bool unit_loops = true) {
    compiler::LowerOptions o;
    o.remove_unit_loops = unit_loops;
    return ir::to_string(compiler::lower(s, {A, B}, "f", o).body);
  }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Schedule, Default) {
  Ew e;
  EXPECT_EQ(e.lower(),
            "for (i, 0, 8) {\n  for (j, 0, 6) {\n    B[i*6 + j] = A[i*6 + j] + 1\n  }\n}\n");
}

TEST(Schedule, Split) {
  Ew e;
  auto [o, i] = e.st.split(e.st.axis(0), 4);
  EXPECT_EQ(o.name(), "i.outer");
  EXPECT_EQ(i.name(), "i.inner");
  EXPECT_EQ(e.lower(),
            "for (i.outer, 0, 2) {\n  for (i.inner, 0, 4) {\n    for (j, 0, 6) {\n"
            "      B[j + i.outer*24 + i.inner*6] = A[j + i.outer*24 + i.inner*6] + 1\n"
            "    }\n  }\n}\n");
}

TEST(Schedule, SplitNpartsAndGuard) {
  Ew e;
  e.st.split_nparts(e.st.axis(1), 4);  // 6 = 4 parts of 2 -> 8 > 6: guard
  EXPECT_EQ(e.lower(),
            "for (i, 0, 8) {\n  for (j.outer, 0, 4) {\n    for (j.inner, 0, 2) {\n"
            "      if (j.outer*2 + j.inner < 6) {\n"
            "        B[i*6 + j.outer*2 + j.inner] = A[i*6 + j.outer*2 + j.inner] + 1\n"
            "      }\n    }\n  }\n}\n");
}

TEST(Schedule, TileAndReorder) {
  Ew e;
  auto t = e.st.tile(e.st.axis(0), e.st.axis(1), 4, 3);
  EXPECT_EQ(e.st.leaf_iter_vars().size(), 4u);
  EXPECT_TRUE(e.st.leaf_iter_vars()[1].same_as(t[1]));
  e.st.reorder({t[3], t[2]});
  std::string s = e.lower();
  EXPECT_EQ(s.substr(0, s.find("B[")),
            "for (i.outer, 0, 2) {\n  for (j.outer, 0, 2) {\n    for (j.inner, 0, 3) {\n"
            "      for (i.inner, 0, 4) {\n        ");
}

TEST(Schedule, Fuse) {
  Ew e;
  IterVar f = e.st.fuse(e.st.axis(0), e.st.axis(1));
  EXPECT_EQ(f.name(), "i.j.fused");
  EXPECT_EQ(e.lower(), "for (i.j.fused, 0, 48) {\n  B[i.j.fused] = A[i.j.fused] + 1\n}\n");
}

TEST(Schedule, FuseAfterSplit) {
  Ew e;
  auto [o, i] = e.st.split(e.st.axis(0), 2);
  IterVar f = e.st.fuse(i, e.st.axis(1));
  EXPECT_EQ(e.lower(),
            "for (i.outer, 0, 4) {\n  for (i.inner.j.fused, 0, 12) {\n"
            "    B[i.outer*12 + i.inner.j.fused] = A[i.outer*12 + i.inner.j.fused] + 1\n  }\n}\n");
  (void)o;
  (void)f;
}

TEST(Schedule, AnnotationsBecomeKindsAndAttrs) {
  Ew e;
  auto [o, i] = e.st.split(e.st.axis(1), 2);
  e.st.unroll(i);
  e.st.vectorize(e.st.axis(0));
  e.st.parallel(o);
  e.st.pragma(o, "alu", 3);
  EXPECT_EQ(e.lower(),
            "for (i, 0, 8) vectorized {\n  attr alu = 3 \"B.j.outer\" {\n"
            "    for (j.outer, 0, 3) parallel {\n      for (j.inner, 0, 2) unrolled {\n"
            "        B[i*6 + j.outer*2 + j.inner] = A[i*6 + j.outer*2 + j.inner] + 1\n"
            "      }\n    }\n  }\n}\n");
  Ew v;
  v.st.bind_vthread(v.st.axis(0));
  EXPECT_EQ(v.lower().substr(0, 24), "for (i, 0, 8) vthread {\n");
}

TEST(Schedule, ComputeInline) {
  Tensor A = te::placeholder({6}, DType::kInt32, "A");
  Tensor B = te::compute({6}, [&](Var i) { return A(i) * 2; }, "B", {"bi"});
  Tensor C = te::compute({6}, [&](Var i) { return B(i) + B(5 - i); }, "C", {"ci"});
  te::Schedule s = te::create_schedule({C});
  s[B].compute_inline();
  EXPECT_EQ(ir::to_string(compiler::lower(s, {A, C}, "f").body),
            "for (ci, 0, 6) {\n  C[ci] = A[ci]*2 + A[ci*-1 + 5]*2\n}\n");
}

TEST(Schedule, ComputeAtRegionAndRebase) {
  Tensor A = te::placeholder({12}, DType::kInt32, "A");
  Tensor B = te::compute({12}, [&](Var i) { return A(i) * 2; }, "B", {"bi"});
  Tensor C = te::compute({10}, [&](Var i) { return B(i) + B(i + 2); }, "C", {"ci"});
  te::Schedule s = te::create_schedule({C});
  auto [o, i] = s[C].split(s[C].axis(0), 5);
  s[B].compute_at(s[C], o);
  EXPECT_EQ(ir::to_string(compiler::lower(s, {A, C}, "f").body),
            "for (ci.outer, 0, 2) {\n"
            "  allocate B: int32[7] in global {\n"
            "    for (bi, 0, 7) {\n"
            "      B[bi] = A[bi + ci.outer*5]*2\n"
            "    }\n"
            "    for (ci.inner, 0, 5) {\n"
            "      C[ci.outer*5 + ci.inner] = B[ci.inner] + B[ci.inner + 2]\n"
            "    }\n"
            "  }\n"
            "}\n");
  (void)i;
}

TEST(Schedule, CacheReadAndWrite) {
  Ew e;
  Tensor al = e.s.cache_read(e.A, "local", {e.B});
  Tensor bl = e.s.cache_write(e.B, "local");
  EXPECT_EQ(al.name(), "A.local");
  EXPECT_EQ(bl.name(), "B.local");
  EXPECT_EQ(e.s.stages().size(), 4u);
  std::string s = e.lower();
  EXPECT_NE(s.find("allocate A.local: int32[48] in local"), std::string::npos) << s;
  EXPECT_NE(s.find("B.local[i*6 + j] = A.local[i*6 + j] + 1"), std::string::npos) << s;
  EXPECT_NE(s.find("B[i.c*6 + j.c] = B.local[i.c*6 + j.c]"), std::string::npos) << s;
}

TEST(Schedule, UnitLoopsKeptOnRequest) {
  Tensor A = te::placeholder({1, 4}, DType::kInt32, "A");
  Tensor B = te::compute({1, 4}, [&](Var i, Var j) { return A(i, j); }, "B", {"i", "j"});
  te::Schedule s = te::create_schedule({B});
  compiler::LowerOptions keep;
  keep.remove_unit_loops = false;
  EXPECT_EQ(ir::to_string(compiler::lower(s, {A, B}, "f", keep).body),
            "for (i, 0, 1) {\n  for (j, 0, 4) {\n    B[i*4 + j] = A[i*4 + j]\n  }\n}\n");
  EXPECT_EQ(ir::to_string(compiler::lower(s, {A, B}, "f").body),
            "for (j, 0, 4) {\n  B[j] = A[j]\n}\n");
}

TEST(ScheduleErrors, NamesStageAndAxis) {
  Ew e;
  auto [o, i] = e.st.split(e.st.axis(0), 4);
  EXPECT_EQ(error_of([&] { e.st.split(e.st.axis(0), 2); }),
            "split on stage B: axis i is not a leaf axis any more (it was split or fused)");
  Tensor other = te::placeholder({3}, DType::kInt32, "X");
  Tensor Y = te::compute({3}, [&](Var i) { return other(i); }, "Y", {"y"});
  te::Schedule s2 = te::create_schedule({Y});
  EXPECT_EQ(error_of([&] {
              e.st.reorder({o, s2[Y].axis(0)});
            }),
            "reorder on stage B: axis y is not an axis of this stage");
  EXPECT_EQ(error_of([&] {
              e.st.reorder({o, o});
            }),
            "reorder on stage B: axis i.outer appears twice");
  EXPECT_EQ(error_of([&] { e.st.fuse(o, e.st.axis(1)); }),
            "fuse on stage B: axis j must come right after axis i.outer in the loop order");
  EXPECT_EQ(error_of([&] { e.st.split(i, 0); }),
            "split of axis i.inner of stage B: factor 0 must be >= 1");
  EXPECT_EQ(error_of([&] { e.st.set_scope("sram"); }),
            "set_scope on stage B: unknown scope \"sram\" (global, local, inp, wgt, acc, out)");
  EXPECT_EQ(error_of([&] { e.st.compute_inline(); }), "compute_inline: stage B is an output");
  EXPECT_EQ(error_of([&] { e.s[e.A].split(e.s[e.A].axis(0), 2); }),
            "stage A is a placeholder: no axes");
  EXPECT_EQ(error_of([&] { e.st.axis(2); }), "stage B has 2 axes, asked for axis 2");
  EXPECT_EQ(error_of([&] { e.s[Y]; }), "tensor Y is not part of this schedule");
}

TEST(ScheduleErrors, ReductionRules) {
  Tensor A = te::placeholder({4, 4}, DType::kInt32, "A");
  IterVar k = te::reduce_axis(4, "k");
  Tensor R = te::compute({4}, [&](Var i) { return te::sum(A(i, k), {k}); }, "R", {"i"});
  Tensor O = te::compute({4}, [&](Var i) { return R(i) + 1; }, "O", {"o"});
  te::Schedule s = te::create_schedule({O});
  EXPECT_EQ(error_of([&] { s[R].compute_inline(); }),
            "compute_inline: stage R is a reduction and cannot be inlined");
  EXPECT_EQ(error_of([&] { s[R].fuse(s[R].axis(0), s[R].reduce_axis(0)); }),
            "fuse on stage R: cannot fuse the reduce and data-parallel axes i and k");
  EXPECT_EQ(error_of([&] { s.cache_read(A, "local", {O}); }),
            "cache_read of A: stage O does not read A");
  s[R].split(s[R].axis(0), 2);
  EXPECT_EQ(error_of([&] { s.cache_write(R, "local"); }),
            "cache_write of R must come before any other schedule of it");
}

TEST(ScheduleErrors, ComputeAtChecksAtLowering) {
  Tensor A = te::placeholder({4}, DType::kInt32, "A");
  Tensor B = te::compute({4}, [&](Var i) { return A(i) + 1; }, "B", {"b"});
  Tensor C = te::compute({4}, [&](Var i) { return B(i) * 2; }, "C", {"c"});
  Tensor D = te::compute({4}, [&](Var i) { return B(i) + C(i); }, "D", {"d"});
  {
    // B is read by C and D but computed inside C only.
    te::Schedule s = te::create_schedule({D});
    s[B].compute_at(s[C], s[C].axis(0));
    EXPECT_EQ(error_of([&] {
                compiler::lower(s, {A, D}, "f");
              }),
              "stage B is computed at C.c but its consumer D is not inside that loop nest");
  }
  {
    // C computed in B: B does not consume C.
    te::Schedule s = te::create_schedule({D});
    s[C].compute_at(s[B], s[B].axis(0));
    EXPECT_EQ(error_of([&] {
                compiler::lower(s, {A, D}, "f");
              }),
              "compute_at: stage C is computed at B.b, but B does not consume it (directly or "
              "indirectly)");
  }
  {
    te::Schedule s = te::create_schedule({D});
    s[B].pragma(s[B].axis(0), "dma_copy");
    s[B].split(s[B].axis(0), 2);
    EXPECT_EQ(error_of([&] {
                compiler::lower(s, {A, D}, "f");
              }),
              "stage B: axis b was annotated (pragma/tensorize/kind) and then split or fused; "
              "annotate the resulting leaf axes instead");
  }
  {
    te::Schedule s = te::create_schedule({D});
    EXPECT_EQ(error_of([&] { compiler::lower(s, {D}, "f"); }),
              "lower f: input A must be listed in the arguments");
    EXPECT_EQ(error_of([&] { compiler::lower(s, {A}, "f"); }),
              "lower f: output D must be listed in the arguments");
  }
}

}  // namespace
}  // namespace tandem

namespace tandem {
namespace {

TEST(Schedule, TwoOutputsSharingAnIntermediate) {
  Tensor A = te::placeholder({4}, DType::kInt32, "A");
  Tensor B = te::compute({4}, [&](Var i) { return A(i) * 3; }, "B", {"b"});
  Tensor C = te::compute({4}, [&](Var i) { return B(i) + 1; }, "C", {"c"});
  Tensor D = te::compute({2}, [&](Var i) { return B(i * 2) - 1; }, "D", {"d"});
  te::Schedule s = te::create_schedule({C, D});
  EXPECT_EQ(ir::to_string(compiler::lower(s, {A, C, D}, "f").body),
            "allocate B: int32[4] in global {\n"
            "  for (b, 0, 4) {\n    B[b] = A[b]*3\n  }\n"
            "  for (c, 0, 4) {\n    C[c] = B[c] + 1\n  }\n"
            "  for (d, 0, 2) {\n    D[d] = B[d*2] - 1\n  }\n"
            "}\n");
}

}  // namespace
}  // namespace tandem
