// 2D DMA tests on every target: padded loads of the input buffer (observed
// through a GEMM with an identity weight block) and of the accumulator
// buffer (observed through ALU add 0), for each of the four pads alone and
// all together, at a non-zero DRAM offset with a row stride.
#include "harness.h"
#include "host_cpu/reference.h"

namespace tandem::integration {
namespace {

using isa::AluOp;
using isa::MemType;
using isa::Module;

struct Region {
  int src_rows = 5, src_cols = 6;  // source tensor in elements
  int y = 1, x = 2;                // top-left of the loaded block
  int ys = 3, xs = 3;              // loaded block
};

// The padded 2D image of `src` (elements of `elem` scalars), row-major H x W.
template <typename T>
std::vector<T> padded_image(const std::vector<T>& src, const Region& r, const isa::Pad& p,
                            int elem) {
  const int h = int(p.y0) + r.ys + int(p.y1), w = int(p.x0) + r.xs + int(p.x1);
  std::vector<T> img(std::size_t(h) * w * elem, T{0});
  for (int yy = 0; yy < h; ++yy)
    for (int xx = 0; xx < w; ++xx) {
      const int sy = yy - int(p.y0), sx = xx - int(p.x0);
      if (sy < 0 || sy >= r.ys || sx < 0 || sx >= r.xs) continue;
      const std::size_t s = std::size_t(r.y + sy) * r.src_cols + r.x + sx;
      for (int e = 0; e < elem; ++e) img[(std::size_t(yy) * w + xx) * elem + e] = src[s * elem + e];
    }
  return img;
}

const isa::Pad kPads[] = {{1, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 3}, {2, 1, 3, 2}};

std::string pad_name(const isa::Pad& p) {
  return "pads y0=" + std::to_string(p.y0) + " y1=" + std::to_string(p.y1) +
         " x0=" + std::to_string(p.x0) + " x1=" + std::to_string(p.x1);
}

class LoadStoreTest : public AccelTest {};

TEST_P(LoadStoreTest, PaddedInputLoads) {
  if (cfg.block_in != cfg.block_out) GTEST_SKIP() << "identity weight needs BLOCK_IN == BLOCK_OUT";
  const Region r;
  const int elem = cfg.batch * cfg.block_in;
  const auto src = random_vec<std::int8_t>(std::size_t(r.src_rows) * r.src_cols * elem, -128, 127);
  std::vector<std::int8_t> ident(std::size_t(cfg.block_out) * cfg.block_in, 0);
  for (int o = 0; o < cfg.block_out; ++o) ident[std::size_t(o) * cfg.block_in + o] = 1;
  put("S", src);
  put("W", ident);
  for (const isa::Pad& p : kPads) {
    const auto hw = static_cast<std::uint32_t>((p.y0 + r.ys + p.y1) * (p.x0 + r.xs + p.x1));
    make("O", hw * cfg.out_elem_bytes);
    driver::CommandBuilder b(cfg);
    b.declare_buffer("S", src.size());
    b.declare_buffer("W", ident.size());
    b.declare_buffer("O", hw * cfg.out_elem_bytes);
    b.load(MemType::kWgt, 0, {"W", 0}, 1, 1, 1);
    b.load(MemType::kInp, 0, {"S", std::uint64_t(r.y) * r.src_cols + r.x}, r.ys, r.xs, r.src_cols,
           p);
    b.push_dep(Module::kLoad, Module::kCompute);
    b.pop_dep(Module::kLoad, Module::kCompute);
    b.kernel(isa::KernelOp::gemm_reset(), {{hw, 1, 0, 0}}, {{0, 0, 0}});
    b.kernel(isa::KernelOp::gemm(), {{hw, 1, 1, 0}}, {{0, 0, 0}});
    b.push_dep(Module::kCompute, Module::kStore);
    b.pop_dep(Module::kCompute, Module::kStore);
    b.store(0, {"O", 0}, 1, hw, hw);
    const auto stats = rt->run(b.finish());
    const auto got = get<std::int8_t>("O");
    const auto want = padded_image(src, r, p, elem);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << pad_name(p) << " at scalar " << i;
    EXPECT_EQ(stats.get("pad_elems"), hw - std::uint64_t(r.ys) * r.xs) << pad_name(p);
  }
}

TEST_P(LoadStoreTest, PaddedAccumulatorLoads) {
  const Region r;
  const int elem = row();
  const auto src =
      random_vec<std::int32_t>(std::size_t(r.src_rows) * r.src_cols * elem, -1000, 1000);
  put("S", src);
  for (const isa::Pad& p : kPads) {
    const auto hw = static_cast<std::uint32_t>((p.y0 + r.ys + p.y1) * (p.x0 + r.xs + p.x1));
    make("O", hw * cfg.out_elem_bytes);
    driver::CommandBuilder b(cfg);
    b.declare_buffer("S", src.size() * 4);
    b.declare_buffer("O", hw * cfg.out_elem_bytes);
    b.load(MemType::kAcc, 0, {"S", std::uint64_t(r.y) * r.src_cols + r.x}, r.ys, r.xs, r.src_cols,
           p);
    b.kernel(isa::KernelOp::alu_imm(AluOp::kAdd, 0), {{hw, 1, 1, 0}}, {{0, 0, 0}});
    b.push_dep(Module::kCompute, Module::kStore);
    b.pop_dep(Module::kCompute, Module::kStore);
    b.store(0, {"O", 0}, 1, hw, hw);
    rt->run(b.finish());
    const auto got = get<std::int8_t>("O");
    const auto want = padded_image(src, r, p, elem);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], host_cpu::narrow_s8(want[i])) << pad_name(p) << " at scalar " << i;
  }
}

TEST_P(LoadStoreTest, StridedStoreScattersRows) {
  // acc rows 0..5 stored as a 2 x 3 block into a 4-wide output at offset 1.
  const int elem = row();
  const auto x = random_vec<std::int32_t>(6 * std::size_t(elem), -128, 127);
  put("X", x);
  std::vector<std::int8_t> canvas(std::size_t(3) * 4 * elem, 55);
  put("O", canvas);
  driver::CommandBuilder b(cfg);
  b.declare_buffer("X", x.size() * 4);
  b.declare_buffer("O", canvas.size());
  b.load(MemType::kAcc, 0, {"X", 0}, 1, 6, 6);
  b.kernel(isa::KernelOp::alu_imm(AluOp::kAdd, 0), {{6, 1, 1, 0}}, {{0, 0, 0}});
  b.push_dep(Module::kCompute, Module::kStore);
  b.pop_dep(Module::kCompute, Module::kStore);
  b.store(0, {"O", 1}, 2, 3, 4);
  rt->run(b.finish());
  const auto got = get<std::int8_t>("O");
  std::vector<std::int8_t> want = canvas;
  for (int yy = 0; yy < 2; ++yy)
    for (int xx = 0; xx < 3; ++xx)
      for (int e = 0; e < elem; ++e)
        want[(std::size_t(1 + yy * 4 + xx)) * elem + e] =
            static_cast<std::int8_t>(x[(std::size_t(yy) * 3 + xx) * elem + e]);
  EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(Targets, LoadStoreTest, testing::ValuesIn(all_targets()), target_name);

}  // namespace
}  // namespace tandem::integration
