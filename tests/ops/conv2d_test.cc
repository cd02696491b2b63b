// conv2d through the whole compiler (tensor expression, schedule, lowering,
// tensorize, accelerator passes) on fsim, bit-exact against host_cpu.
#include <gtest/gtest.h>

#include "compiler/ops/conv2d.h"
#include "isa/error.h"
#include "op_harness.h"

namespace tandem {
namespace {

using ops::Conv2dSchedule;
using ops::Conv2dShape;
using ops::Epilogue;

Conv2dShape conv(int ci, int hw, int co, int k, int stride, int pad, int n = 1) {
  Conv2dShape s;
  s.n = n, s.ci = ci, s.h = s.w = hw, s.co = co, s.kh = s.kw = k;
  s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad;
  return s;
}

void expect_pass(const std::string& preset, const Conv2dShape& s, const Epilogue& e,
                 const Conv2dSchedule& sch) {
  const HwConfig cfg = HwConfig::load_preset(preset);
  const ops::CompiledOp op = ops::compile_conv2d(cfg, s, e, sch);
  const opstest::Outcome o = opstest::run_conv2d(cfg, s, e, op);
  EXPECT_TRUE(o.pass) << preset << " " << s.to_string() << " " << sch.to_string() << ": "
                      << o.mismatch;
}

TEST(Conv2d, Small3x3OneTile) {
  const Conv2dShape s = conv(8, 6, 8, 3, 1, 1);
  Epilogue e;
  e.shift = 6;
  Conv2dSchedule t;
  t.tile_h = 6, t.tile_w = 6, t.tile_ci = 1, t.tile_co = 1;
  expect_pass("tandem-8x8", s, e, t);
}

TEST(Conv2d, RandomShapesStridesPaddings) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int> ch(1, 40), hw(1, 19), kk(1, 5), st(1, 3), pd(0, 3), nn(1, 3),
      coin(0, 1);
  int cases = 0;
  for (int k = 0; k < 40; ++k) {
    const char* preset = k % 2 ? "vta-16x16" : "tandem-8x8";
    const HwConfig cfg = HwConfig::load_preset(preset);
    Conv2dShape s;
    s.n = k % 5 == 0 ? nn(rng) : 1;
    s.ci = ch(rng), s.co = ch(rng), s.h = hw(rng), s.w = hw(rng);
    s.kh = kk(rng), s.kw = kk(rng), s.stride_h = st(rng), s.stride_w = st(rng);
    s.pad_h = std::min(pd(rng), s.kh - 1), s.pad_w = std::min(pd(rng), s.kw - 1);
    if (s.kh > s.h + 2 * s.pad_h || s.kw > s.w + 2 * s.pad_w) continue;
    Epilogue e;
    e.bias = coin(rng);
    e.relu = coin(rng);
    e.shift = 4 + k % 6;
    const int vt = 1 + coin(rng);
    Conv2dSchedule sch;
    try {
      sch = ops::default_conv2d_schedule(cfg, s, e, vt);
    } catch (const Error&) {
      // Two virtual threads need an even number of co or row tiles.
      sch = ops::default_conv2d_schedule(cfg, s, e, 1);
    }
    const ops::CompiledOp op = ops::compile_conv2d(cfg, s, e, sch);
    const opstest::Outcome o = opstest::run_conv2d(cfg, s, e, op, "fsim", 50 + k);
    EXPECT_TRUE(o.pass) << preset << " " << s.to_string() << " " << sch.to_string() << ": "
                        << o.mismatch;
    ++cases;
  }
  EXPECT_GE(cases, 30);
}

TEST(Conv2d, ExplicitSchedulesBothThreadAxes) {
  const Conv2dShape s = conv(32, 12, 64, 3, 1, 1, 2);  // batch 2, 12x12
  Epilogue e;
  e.bias = true;
  e.shift = 8;
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    const int cob = 64 / cfg.block_out, cib = 32 / cfg.block_in;
    Conv2dSchedule t;
    t.tile_h = 3, t.tile_w = 12, t.tile_ci = cib > 1 ? cib / 2 : 1, t.tile_co = 1;
    t.vthreads = 2;
    t.vthread_axis = ops::VThreadAxis::kH;
    expect_pass(preset, s, e, t);
    t.vthread_axis = ops::VThreadAxis::kCo;
    t.tile_h = 6, t.tile_co = cob / 4;  // four co tiles, two per thread
    expect_pass(preset, s, e, t);
  }
}

TEST(Conv2d, ScheduleTooLargeNamesTileFactor) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  const Conv2dShape s = conv(64, 56, 64, 3, 1, 1);
  Conv2dSchedule t;
  t.tile_h = 56, t.tile_w = 56, t.tile_ci = 8, t.tile_co = 8;
  try {
    ops::compile_conv2d(cfg, s, Epilogue{}, t);
    FAIL() << "expected an SRAM capacity error";
  } catch (const Error& err) {
    const std::string m = err.what();
    EXPECT_NE(m.find("inp"), std::string::npos) << m;
    EXPECT_NE(m.find("shrink tile_h, tile_w or tile_ci"), std::string::npos) << m;
    EXPECT_NE(m.find("16384 bytes"), std::string::npos) << m;
  }
  t.tile_h = 5;  // does not divide 56
  EXPECT_THROW(ops::compile_conv2d(cfg, s, Epilogue{}, t), Error);
}

TEST(Conv2d, InvalidShapesAreErrors) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  Conv2dShape s = conv(8, 4, 8, 7, 1, 0);  // kernel larger than the input
  EXPECT_THROW(ops::default_conv2d_schedule(cfg, s), Error);
  s = conv(8, 8, 8, 3, 1, 16);  // padding beyond the LOAD pad fields
  EXPECT_THROW(ops::default_conv2d_schedule(cfg, s), Error);
  s = conv(0, 8, 8, 3, 1, 1);
  EXPECT_THROW(ops::default_conv2d_schedule(cfg, s), Error);
  Epilogue e;
  e.shift = 40;
  EXPECT_THROW(ops::compile_conv2d(cfg, conv(8, 4, 8, 3, 1, 1), e, Conv2dSchedule{}), Error);
}

}  // namespace
}  // namespace tandem
