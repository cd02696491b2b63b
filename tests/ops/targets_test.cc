// Compiled operators on every device target built into this binary
// (driver::available_targets(): fsim, and csim / rtl when built), both
// presets: small conv2d layers (padding, stride, bias, ReLU, 1 and 2 virtual
// threads) checked element by element against host_cpu.
#include <gtest/gtest.h>

#include "compiler/ops/conv2d.h"
#include "driver/device_registry.h"
#include "isa/error.h"
#include "op_harness.h"

namespace tandem {
namespace {

TEST(AllTargets, SmallConvolutionsMatchHost) {
  ops::Conv2dShape a;
  a.ci = 16, a.h = a.w = 8, a.co = 32, a.kh = a.kw = 3, a.pad_h = a.pad_w = 1;
  ops::Conv2dShape b;
  b.ci = 3, b.h = b.w = 11, b.co = 16, b.kh = b.kw = 5, b.stride_h = b.stride_w = 2;
  b.pad_h = b.pad_w = 2;
  ops::Epilogue e;
  e.bias = true;
  e.relu = true;
  e.shift = 7;
  for (const std::string& target : driver::available_targets())
    for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
      const HwConfig cfg = HwConfig::load_preset(preset);
      for (const ops::Conv2dShape& s : {a, b})
        for (int vt : {1, 2}) {
          ops::Conv2dSchedule sch;
          try {
            sch = ops::default_conv2d_schedule(cfg, s, e, vt);
          } catch (const Error&) {
            continue;  // no even split for two threads
          }
          const ops::CompiledOp op = ops::compile_conv2d(cfg, s, e, sch);
          const opstest::Outcome o = opstest::run_conv2d(cfg, s, e, op, target, 11);
          EXPECT_TRUE(o.pass) << target << " " << preset << " " << s.to_string() << " "
                              << sch.to_string() << ": " << o.mismatch;
          EXPECT_GT(o.stats.get("insn.gemm"), 0u) << target;
        }
    }
}

}  // namespace
}  // namespace tandem
