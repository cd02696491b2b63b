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

}  // namespace
}  // namespace tandem
#include <iostream>
namespace tandem {
namespace {
TEST(Conv2d, DISABLED_Dump) {
  const Conv2dShape s = conv(8, 6, 8, 3, 1, 1);
  Epilogue e;
  e.shift = 6;
  Conv2dSchedule t;
  t.tile_h = 6, t.tile_w = 6, t.tile_ci = 1, t.tile_co = 1;
  ops::CompileOptions o;
  o.dump_stream = &std::cout;
  try {
    auto op = ops::compile_conv2d(HwConfig::load_preset("tandem-8x8"), s, e, t, o);
    std::cout << op.ir_dump;
  } catch (const Error& x) {
    std::cout << x.what();
  }
}
}  // namespace
}  // namespace tandem
