// Bundle replay tests: GEMM bundles written, read back and replayed on every
// built target (fsim, csim, rtl), the expected cycles from csim, and the
// mismatch report when the expected output is wrong.
#include <gtest/gtest.h>

#include <algorithm>

#include "bundle_test_util.h"
#include "driver/bundle.h"
#include "driver/bundle_make.h"
#include "driver/device_registry.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

using test::expect_error;
using test::scratch_dir;

bool has_target(const std::string& t) {
  const auto v = available_targets();
  return std::find(v.begin(), v.end(), t) != v.end();
}

GemmSpec small_gemm() {
  GemmSpec s;
  s.m = 16;
  s.n = 24;
  s.k = 40;
  return s;
}

TEST(BundleReplay, GemmBundlePassesOnEveryBuiltTarget) {
  const HwConfig cfg = HwConfig::default_config();
  const std::string dir = scratch_dir("gemm_targets");
  write_bundle(make_gemm_bundle(cfg, small_gemm(), 3, "test"), dir);
  const Bundle b = read_bundle(dir);
  EXPECT_EQ(b.workload, "gemm");
  ASSERT_EQ(b.expected.size(), 1u);
  EXPECT_EQ(b.expected[0].name, "C");
  // C is [ceil(16/1)][ceil(24/8)] blocks of 1 x 8 int8.
  EXPECT_EQ(b.expected[0].data.size(), 16u * 24u);
  if (has_target("csim")) {
    ASSERT_TRUE(b.expected_cycles.has_value()) << b.cycles_note;
    EXPECT_EQ(b.cycles_note, "csim");
    EXPECT_GT(*b.expected_cycles, 0u);
  } else {
    EXPECT_FALSE(b.expected_cycles.has_value());
    EXPECT_NE(b.cycles_note.find("csim"), std::string::npos);
  }
  for (const std::string& target : available_targets()) {
    SCOPED_TRACE(target);
    auto dev = make_device(target, b.cfg);
    const ReplayResult r = replay_bundle(b, *dev);
    EXPECT_TRUE(r.pass) << r.message;
    EXPECT_EQ(r.message, "replay: PASS");
    if (target == "csim") {
      ASSERT_TRUE(r.cycles.has_value());
      EXPECT_EQ(*r.cycles, *b.expected_cycles);  // the same simulator made the bundle
    }
    if (r.cycles && b.expected_cycles)
      RecordProperty(target + "_cycles", std::to_string(*r.cycles));
  }
}

TEST(BundleReplay, TwoThreadRequantizedGemmPassesOnFsim) {
  const HwConfig cfg = HwConfig::default_config();
  GemmSpec s = small_gemm();
  s.vthreads = 2;
  s.requantize = true;
  s.shift = 6;
  MakeBundleOptions o;
  o.csim_cycles = false;
  const std::string dir = scratch_dir("gemm_vt2");
  write_bundle(make_gemm_bundle(cfg, s, 11, "test", o), dir);
  const Bundle b = read_bundle(dir);
  EXPECT_FALSE(b.expected_cycles.has_value());
  auto dev = make_device("fsim", cfg);
  const ReplayResult r = replay_bundle(b, *dev);
  EXPECT_TRUE(r.pass) << r.message;
  // Requantized outputs are clipped, so the image holds more than wrapped noise.
  EXPECT_NE(b.expected[0].data, std::vector<std::uint8_t>(b.expected[0].data.size(), 0));
}

TEST(BundleReplay, WrongExpectedOutputIsReportedAsFirstMismatch) {
  const HwConfig cfg = HwConfig::default_config();
  MakeBundleOptions o;
  o.csim_cycles = false;
  Bundle b = make_gemm_bundle(cfg, small_gemm(), 5, "test", o);
  const std::int8_t real = static_cast<std::int8_t>(b.expected[0].data[37]);
  b.expected[0].data[37] ^= 0x81;
  b.expected[0].data[300] ^= 0x01;
  const std::string dir = scratch_dir("gemm_wrong");
  write_bundle(b, dir);  // checksums describe the wrong image: only replay can tell
  const Bundle r = read_bundle(dir);
  auto dev = make_device("fsim", cfg);
  const ReplayResult res = replay_bundle(r, *dev);
  EXPECT_FALSE(res.pass);
  EXPECT_EQ(res.region, "C");
  EXPECT_EQ(res.byte_offset, 37u);
  EXPECT_EQ(res.elem_index, 37u);
  EXPECT_EQ(res.got, real);
  EXPECT_EQ(res.want, static_cast<std::int8_t>(real ^ 0x81));
  EXPECT_EQ(res.mismatched_bytes, 2u);
  EXPECT_NE(res.message.find("MISMATCH in region 'C' at byte offset 37"), std::string::npos)
      << res.message;
}

TEST(BundleReplay, DeviceOfAnotherConfigIsRejected) {
  const HwConfig cfg = HwConfig::default_config();
  MakeBundleOptions o;
  o.csim_cycles = false;
  const Bundle b = make_gemm_bundle(cfg, small_gemm(), 5, "test", o);
  auto dev = make_device("fsim", HwConfig::load_preset("vta-16x16"));
  expect_error([&] { replay_bundle(b, *dev); }, {"device config 'vta-16x16'", "'tandem-8x8'"});
}

TEST(BundleReplay, Conv2dBundleWithBiasPassesOnEveryBuiltTarget) {
  const HwConfig cfg = HwConfig::default_config();
  ops::Conv2dShape s;
  s.ci = 16, s.h = s.w = 7, s.co = 16, s.kh = s.kw = 3, s.pad_h = s.pad_w = 1;
  ops::Epilogue e;
  e.bias = true, e.relu = true, e.shift = 7;
  const std::string dir = scratch_dir("conv2d_targets");
  write_bundle(make_conv2d_bundle(cfg, s, e, nullptr, 2, 4, "test"), dir);
  const Bundle b = read_bundle(dir);
  EXPECT_EQ(b.workload, "conv2d");
  const auto bias = std::find_if(b.loads.begin(), b.loads.end(),
                                 [](const BundleRegion& r) { return r.name == "bias"; });
  ASSERT_NE(bias, b.loads.end());
  EXPECT_EQ(bias->role, RegionRole::kBias);
  EXPECT_EQ(bias->elem_bytes, 4u);
  ASSERT_EQ(b.expected.size(), 1u);
  EXPECT_EQ(b.expected[0].name, "res");
  EXPECT_GE(b.expected[0].data.size(), 16u * 7 * 7);
  for (const std::string& target : available_targets()) {
    SCOPED_TRACE(target);
    auto dev = make_device(target, b.cfg);
    const ReplayResult r = replay_bundle(b, *dev);
    EXPECT_TRUE(r.pass) << r.message;
    if (target == "csim" && b.expected_cycles) {
      EXPECT_EQ(r.cycles, b.expected_cycles);
    }
  }
}

TEST(BundleReplay, DenseBundlePassesOnEveryBuiltTarget) {
  const HwConfig cfg = HwConfig::default_config();
  ops::DenseShape s;
  s.n = 3, s.ci = 72, s.co = 24;
  ops::Epilogue e;
  e.bias = true, e.shift = 6;
  const std::string dir = scratch_dir("dense_targets");
  write_bundle(make_dense_bundle(cfg, s, e, nullptr, 1, 6, "test"), dir);
  const Bundle b = read_bundle(dir);
  EXPECT_EQ(b.workload, "dense");
  ASSERT_EQ(b.expected.size(), 1u);
  EXPECT_EQ(b.expected[0].name, "res");
  // res is [ceil(3/1)][ceil(24/8)] blocks of 1 x 8 int8.
  EXPECT_EQ(b.expected[0].data.size(), 3u * 24u);
  for (const std::string& target : available_targets()) {
    SCOPED_TRACE(target);
    auto dev = make_device(target, b.cfg);
    const ReplayResult r = replay_bundle(b, *dev);
    EXPECT_TRUE(r.pass) << r.message;
  }
}

TEST(BundleReplay, DeviceErrorsPropagate) {
  const std::string dir = scratch_dir("deadlock");
  write_bundle(test::deadlocking_bundle(), dir);
  const Bundle b = read_bundle(dir);
  for (const std::string& target : available_targets()) {
    SCOPED_TRACE(target);
    auto dev = make_device(target, b.cfg);
    expect_error([&] { replay_bundle(b, *dev); }, {"deadlock"});
  }
}

TEST(BundleMake, UndescribedBufferIsAnError) {
  const HwConfig cfg = HwConfig::default_config();
  GemmSpec s = small_gemm();
  VectorSource src;
  src.workload = "gemm";
  src.program = build_gemm_program(cfg, s).program;
  src.buffers["A"] = {RegionRole::kInput, 1, {}};
  src.buffers["C"] = {RegionRole::kOutput, 1, {}};
  expect_error([&] { make_bundle(cfg, src); }, {"program buffer 'B' has no role or data"});
  src.buffers["B"] = {RegionRole::kWeight, 1, std::vector<std::uint8_t>(1 << 20, 1)};
  expect_error([&] { make_bundle(cfg, src); }, {"buffer 'B'", "bytes of data"});
}

}  // namespace
}  // namespace tandem::driver
