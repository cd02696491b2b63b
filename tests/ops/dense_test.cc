// dense through the whole compiler on fsim, bit-exact against host_cpu
// (gemm_s8 + bias + shift_requantize + narrow), both presets, 1 and 2
// virtual threads, shapes that are and are not multiples of the blocks.
#include <gtest/gtest.h>

#include "compiler/ops/dense.h"
#include "isa/error.h"
#include "op_harness.h"

namespace tandem {
namespace {

opstest::Outcome run_dense(const HwConfig& cfg, const ops::DenseShape& s, const ops::Epilogue& e,
                           const ops::CompiledOp& op, unsigned seed) {
  std::mt19937 rng(seed);
  const driver::Shape4 in{s.n, s.ci, 1, 1}, wt{s.co, s.ci, 1, 1}, out{s.n, s.co, 1, 1};
  const auto data = opstest::random_i8(in.elems(), rng);
  const auto weight = opstest::random_i8(wt.elems(), rng);
  const auto bias = e.bias ? opstest::random_i32(static_cast<std::size_t>(s.co), -3000, 3000, rng)
                           : std::vector<std::int32_t>{};
  driver::Runtime rt(cfg, "fsim");
  opstest::put(rt, "data", driver::pack_activation(cfg, data, in));
  opstest::put(rt, "weight", driver::pack_weight(cfg, weight, wt));
  if (e.bias) opstest::put(rt, "bias", driver::pack_bias(cfg, bias));
  rt.allocate("res", driver::packed_out_size(cfg, out));
  rt.run(op.program);
  const auto got = driver::unpack_output(cfg, rt.read_as<std::int8_t>("res"), out);
  std::vector<std::int32_t> acc = host_cpu::gemm_s8(data, weight, s.n, s.co, s.ci);
  if (e.bias)
    for (int n = 0; n < s.n; ++n)
      for (int c = 0; c < s.co; ++c)
        acc[static_cast<std::size_t>(n) * s.co + c] =
            host_cpu::wrap_add(acc[static_cast<std::size_t>(n) * s.co + c], bias[c]);
  const auto want =
      host_cpu::narrow(host_cpu::shift_requantize(acc, e.shift, e.relu ? 0 : -128, 127));
  return opstest::compare_nchw(got, want, out);
}

TEST(Dense, RandomShapesBothPresetsBothThreadCounts) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> n_d(1, 20), c_d(1, 300);
  int cases = 0;
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    for (int k = 0; k < 6; ++k) {
      ops::DenseShape s{n_d(rng), c_d(rng), c_d(rng)};
      ops::Epilogue e;
      e.bias = k % 2 == 0;
      e.relu = k % 3 == 0;
      e.shift = 5 + k;
      for (int vt : {1, 2}) {
        const int cob = (s.co + cfg.block_out - 1) / cfg.block_out;
        if (vt == 2 && cob % 2 != 0) continue;
        const ops::DenseSchedule sch = ops::default_dense_schedule(cfg, s, e, vt);
        const ops::CompiledOp op = ops::compile_dense(cfg, s, e, sch);
        const opstest::Outcome o = run_dense(cfg, s, e, op, 10 + k);
        EXPECT_TRUE(o.pass) << preset << " " << s.to_string() << " " << sch.to_string() << ": "
                            << o.mismatch;
        ++cases;
      }
    }
  }
  EXPECT_GE(cases, 16);
}

TEST(Dense, ExplicitSmallTilesManyReductionSteps) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  const ops::DenseShape s{16, 64, 32};
  ops::Epilogue e;
  e.shift = 7;
  const ops::DenseSchedule sch{1, 1, 1, 2};  // 8 reduction steps, 2 threads
  const ops::CompiledOp op = ops::compile_dense(cfg, s, e, sch);
  const opstest::Outcome o = run_dense(cfg, s, e, op, 3);
  EXPECT_TRUE(o.pass) << o.mismatch;
}

TEST(Dense, ScheduleErrorsNameTheFactor) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  const ops::DenseShape s{8, 4096, 512};
  ops::Epilogue e;
  try {
    ops::compile_dense(cfg, s, e, ops::DenseSchedule{1, 512, 64, 1});
    FAIL() << "expected an SRAM error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("wgt"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("tile_co or tile_ci"), std::string::npos) << err.what();
  }
  EXPECT_THROW(ops::compile_dense(cfg, s, e, ops::DenseSchedule{3, 1, 1, 1}), Error);
}

}  // namespace
}  // namespace tandem
