// Bound inference: regions at attach points, sliding windows, clipping,
// relation extents and guards.
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/schedule/bound.h"
#include "isa/error.h"

namespace tandem {
namespace {

using ir::DType;
using te::IterVar;
using te::Tensor;
using te::Var;

std::string range_str(const ir::Range& r) {
  return "[" + ir::to_string(r.min) + " +" + ir::to_string(r.extent) + "]";
}

TEST(Bound, ComputeAtSlidingWindow) {
  // 1-D convolution: C[i] = sum_r B[i + r], B computed per tile of 4 outputs.
  Tensor A = te::placeholder({20}, DType::kInt32, "A");
  Tensor B = te::compute({20}, [&](Var i) { return A(i) + 1; }, "B", {"bi"});
  IterVar r = te::reduce_axis(3, "r");
  Tensor C = te::compute({16}, [&](Var i) { return te::sum(B(i + r), {r}); }, "C", {"ci"});
  te::Schedule s = te::create_schedule({C});
  auto [o, in] = s[C].split(s[C].axis(0), 4);
  s[B].compute_at(s[C], o);
  te::StageGraph g = te::build_graph(s);
  te::BoundMap b = te::infer_bound(g);
  const te::StageBound& bb = b.at(s[B].get());
  EXPECT_EQ(range_str(bb.root_region[0]), "[ci.outer*4 +6]");
  const te::StageBound& cb = b.at(s[C].get());
  EXPECT_EQ(range_str(cb.root_region[0]), "[0 +16]");
  EXPECT_EQ(range_str(cb.root_region[1]), "[0 +3]");
  EXPECT_EQ(cb.extent.at(o.get()), 4);
  EXPECT_EQ(cb.extent.at(in.get()), 4);
  EXPECT_EQ(ir::to_string(cb.value.at(s[C].axis(0).get())), "ci.outer*4 + ci.inner");
  EXPECT_TRUE(cb.guards.empty());
}

TEST(Bound, RootStageCoversAllReadsAndIsClipped) {
  Tensor A = te::placeholder({10}, DType::kInt32, "A");
  Tensor B = te::compute({10}, [&](Var i) { return A(i) * 3; }, "B", {"bi"});
  // Reads B[2..7] only.
  Tensor C = te::compute({6}, [&](Var i) { return B(i + 2); }, "C", {"ci"});
  // Reads B[0..9] through a clamp: region is the whole tensor.
  Tensor D = te::compute({12}, [&](Var i) { return B(te::min(i, 9)); }, "D", {"di"});
  {
    te::Schedule s = te::create_schedule({C});
    te::BoundMap b = te::infer_bound(te::build_graph(s));
    EXPECT_EQ(range_str(b.at(s[B].get()).root_region[0]), "[2 +6]");
  }
  {
    te::Schedule s = te::create_schedule({D});
    te::BoundMap b = te::infer_bound(te::build_graph(s));
    EXPECT_EQ(range_str(b.at(s[B].get()).root_region[0]), "[0 +10]");
  }
}

TEST(Bound, SplitFuseExtentsAndGuards) {
  Tensor A = te::placeholder({10, 3}, DType::kInt32, "A");
  Tensor B = te::compute({10, 3}, [&](Var i, Var j) { return A(i, j); }, "B", {"i", "j"});
  te::Schedule s = te::create_schedule({B});
  te::Stage st = s[B];
  auto [io, ii] = st.split(st.axis(0), 4);
  IterVar f = st.fuse(ii, st.axis(1));
  auto [fo, fi] = st.split_nparts(f, 5);
  te::BoundMap b = te::infer_bound(te::build_graph(s));
  const te::StageBound& sb = b.at(st.get());
  EXPECT_EQ(sb.extent.at(io.get()), 3);
  EXPECT_EQ(sb.extent.at(f.get()), 12);
  EXPECT_EQ(sb.extent.at(fo.get()), 5);
  EXPECT_EQ(sb.extent.at(fi.get()), 3);
  ASSERT_EQ(sb.guards.size(), 2u);  // 5*3 > 12 and 3*4 > 10
  EXPECT_EQ(ir::to_string(sb.guards[0]), "i.inner.j.fused.outer*3 + i.inner.j.fused.inner < 12");
  EXPECT_EQ(ir::to_string(sb.value.at(st.axis(1).get())), "i.inner.j.fused.inner%3");
}

TEST(Bound, NestedAttachUsesOuterLoopsSymbolically) {
  // A -> B -> C -> D; C computed at D's outer loop, B at C's outer loop.
  Tensor A = te::placeholder({32}, DType::kInt32, "A");
  Tensor B = te::compute({32}, [&](Var i) { return A(i) + 1; }, "B", {"bi"});
  Tensor C = te::compute({32}, [&](Var i) { return B(i) * 2; }, "C", {"ci"});
  Tensor D = te::compute({32}, [&](Var i) { return C(i) - 1; }, "D", {"di"});
  te::Schedule s = te::create_schedule({D});
  auto [dpo, dpi] = s[D].split(s[D].axis(0), 8);
  s[C].compute_at(s[D], dpo);
  auto [co, ci] = s[C].split(s[C].axis(0), 2);
  s[B].compute_at(s[C], co);
  te::BoundMap b = te::infer_bound(te::build_graph(s));
  EXPECT_EQ(range_str(b.at(s[C].get()).root_region[0]), "[di.outer*8 +8]");
  EXPECT_EQ(range_str(b.at(s[B].get()).root_region[0]), "[di.outer*8 + ci.outer*2 +2]");
  (void)dpi;
  (void)ci;
}

TEST(Bound, UnboundedAccessIsAnError) {
  Tensor A = te::placeholder({8}, DType::kInt32, "A");
  Tensor I = te::placeholder({8}, DType::kInt32, "I");
  Tensor B = te::compute({8}, [&](Var i) { return A(i) + 1; }, "B", {"bi"});
  Tensor C = te::compute({8}, [&](Var i) { return B(I(i)); }, "C", {"ci"});
  te::Schedule s = te::create_schedule({C});
  try {
    te::infer_bound(te::build_graph(s));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "bound inference: stage C reads B with index I[ci] whose range is unbounded");
  }
}

}  // namespace
}  // namespace tandem
