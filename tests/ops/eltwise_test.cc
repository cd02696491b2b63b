// ALU-only operators through the whole compiler on fsim: residual add and
// max pooling, bit-exact against host_cpu-based references.
#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/ops/max_pool.h"
#include "compiler/ops/residual_add.h"
#include "isa/error.h"
#include "op_harness.h"

namespace tandem {
namespace {

TEST(ResidualAdd, MatchesHostBothPresets) {
  std::mt19937 rng(9);
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    for (int vt : {1, 2}) {
      const ops::TensorShape s{1, 64, 14, 14};
      ops::Epilogue e;
      e.shift = 3;
      e.relu = vt == 2;
      const ops::EltwiseSchedule sch = ops::default_residual_add_schedule(cfg, s, e, vt);
      const ops::CompiledOp op = ops::compile_residual_add(cfg, s, e, sch);
      const driver::Shape4 sh{s.n, s.c, s.h, s.w};
      const auto a = opstest::random_i32(sh.elems(), -2000, 2000, rng);
      const auto b = opstest::random_i32(sh.elems(), -2000, 2000, rng);
      driver::Runtime rt(cfg, "fsim");
      opstest::put(rt, "a", driver::pack_acc(cfg, a, sh));
      opstest::put(rt, "b", driver::pack_acc(cfg, b, sh));
      rt.allocate("res", driver::packed_out_size(cfg, sh));
      rt.run(op.program);
      const auto got = driver::unpack_output(cfg, rt.read_as<std::int8_t>("res"), sh);
      std::vector<std::int32_t> sum(a.size());
      for (std::size_t i = 0; i < a.size(); ++i) sum[i] = host_cpu::wrap_add(a[i], b[i]);
      const auto want =
          host_cpu::narrow(host_cpu::shift_requantize(sum, e.shift, e.relu ? 0 : -128, 127));
      const opstest::Outcome o = opstest::compare_nchw(got, want, sh);
      EXPECT_TRUE(o.pass) << preset << " " << sch.to_string() << ": " << o.mismatch;
    }
  }
}

std::vector<std::int32_t> host_max_pool(const std::vector<std::int32_t>& in,
                                        const ops::PoolShape& p) {
  const int OH = p.oh(), OW = p.ow();
  std::vector<std::int32_t> out(static_cast<std::size_t>(p.in.n) * p.in.c * OH * OW);
  for (int n = 0; n < p.in.n; ++n)
    for (int c = 0; c < p.in.c; ++c)
      for (int y = 0; y < OH; ++y)
        for (int x = 0; x < OW; ++x) {
          std::int32_t m = std::numeric_limits<std::int32_t>::min();
          for (int ky = 0; ky < p.k; ++ky)
            for (int kx = 0; kx < p.k; ++kx) {
              const int iy = y * p.stride + ky - p.pad, ix = x * p.stride + kx - p.pad;
              const bool inside = iy >= 0 && iy < p.in.h && ix >= 0 && ix < p.in.w;
              const std::int32_t v =
                  inside
                      ? in[((static_cast<std::size_t>(n) * p.in.c + c) * p.in.h + iy) * p.in.w + ix]
                      : 0;
              m = host_cpu::alu(isa::AluOp::kMax, m, v);
            }
          out[((static_cast<std::size_t>(n) * p.in.c + c) * OH + y) * OW + x] = m;
        }
  return out;
}

void check_pool(const char* preset, const ops::PoolShape& p, const ops::Epilogue& e, int vt, int lo,
                unsigned seed) {
  const HwConfig cfg = HwConfig::load_preset(preset);
  const ops::EltwiseSchedule sch = ops::default_max_pool_schedule(cfg, p, vt);
  const ops::CompiledOp op = ops::compile_max_pool(cfg, p, e, sch);
  std::mt19937 rng(seed);
  const driver::Shape4 in{p.in.n, p.in.c, p.in.h, p.in.w}, out{p.in.n, p.in.c, p.oh(), p.ow()};
  const auto data = opstest::random_i32(in.elems(), lo, 3000, rng);
  driver::Runtime rt(cfg, "fsim");
  opstest::put(rt, "data", driver::pack_acc(cfg, data, in));
  rt.allocate("res", driver::packed_out_size(cfg, out));
  rt.run(op.program);
  const auto got = driver::unpack_output(cfg, rt.read_as<std::int8_t>("res"), out);
  const auto want = host_cpu::narrow(
      host_cpu::shift_requantize(host_max_pool(data, p), e.shift, e.relu ? 0 : -128, 127));
  const opstest::Outcome o = opstest::compare_nchw(got, want, out);
  EXPECT_TRUE(o.pass) << preset << " " << p.to_string() << " " << sch.to_string() << ": "
                      << o.mismatch;
}

TEST(MaxPool, ResNetStemPoolAfterRelu) {
  // 3x3 stride 2 pad 1 on non-negative data (the ResNet-18 max pool, smaller map).
  ops::PoolShape p{{1, 64, 28, 28}, 3, 2, 1};
  ops::Epilogue e;
  e.shift = 4;
  for (const char* preset : {"tandem-8x8", "vta-16x16"})
    for (int vt : {1, 2}) check_pool(preset, p, e, vt, 0, 5);
}

TEST(MaxPool, NegativeValuesNoPadding) {
  ops::PoolShape p{{2, 12, 9, 9}, 2, 2, 0};
  ops::Epilogue e;
  e.shift = 2;
  check_pool("tandem-8x8", p, e, 1, -3000, 6);
  p = {{1, 16, 10, 10}, 3, 1, 0};
  check_pool("vta-16x16", p, e, 1, -3000, 7);
}

}  // namespace
}  // namespace tandem
