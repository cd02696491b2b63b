// Tests of driver packing: exact blocked layouts, zero padding, round trips.
#include "driver/packing.h"

#include <gtest/gtest.h>

#include <random>

#include "isa/error.h"

namespace tandem::driver {
namespace {

HwConfig custom(int batch, int bi, int bo) {
  HwConfig c = HwConfig::load_preset("tandem-8x8");
  c.batch = batch;
  c.block_in = bi;
  c.block_out = bo;
  c.uop_buff_bytes = c.inp_buff_bytes = c.wgt_buff_bytes = c.out_buff_bytes = 1024;
  c.acc_buff_bytes = 4096;
  c.finalize();
  return c;
}

std::vector<std::int8_t> iota8(std::size_t n) {
  std::vector<std::int8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int8_t>(i + 1);
  return v;
}

TEST(Packing, ActivationLayoutIsNCHWnc) {
  const HwConfig cfg = custom(2, 2, 4);
  // N=3, C=3, H=1, W=2: pads N to 4 and C to 4.
  const Shape4 s{3, 3, 1, 2};
  const auto x = iota8(s.elems());  // x[n][c][0][w] = 1 + (n*3 + c)*2 + w
  const auto p = pack_activation(cfg, x, s);
  ASSERT_EQ(p.size(), 4u * 4 * 1 * 2);
  ASSERT_EQ(p.size(), packed_inp_size(cfg, s));
  auto at = [&](int no, int co, int w, int b, int i) {
    return p[(((no * 2 + co) * 1 + 0) * 2 + w) * 4 + b * 2 + i];
  };
  auto ref = [&](int n, int c, int w) { return static_cast<std::int8_t>(1 + (n * 3 + c) * 2 + w); };
  EXPECT_EQ(at(0, 0, 0, 0, 0), ref(0, 0, 0));
  EXPECT_EQ(at(0, 0, 1, 1, 1), ref(1, 1, 1));
  EXPECT_EQ(at(1, 1, 0, 0, 0), ref(2, 2, 0));
  EXPECT_EQ(at(1, 1, 0, 0, 1), 0);  // c = 3 is padding
  EXPECT_EQ(at(1, 0, 1, 1, 0), 0);  // n = 3 is padding
  EXPECT_EQ(unpack_activation(cfg, p, s), x);
}

TEST(Packing, WeightBlockIsOOuterIInner) {
  const HwConfig cfg = custom(1, 4, 2);
  const Shape4 s{3, 5, 2, 1};  // O=3, I=5, KH=2, KW=1 -> O pads to 4, I to 8
  const auto w = iota8(s.elems());
  const auto p = pack_weight(cfg, w, s);
  ASSERT_EQ(p.size(), packed_wgt_size(cfg, s));
  ASSERT_EQ(p.size(), 4u * 8 * 2);
  // Block (oo=1, io=1, y=1): element [o][i] = w[2+o][4+i][1] (o outer, i inner).
  const std::size_t blk = ((1 * 2 + 1) * 2 + 1) * 1;
  auto wref = [&](int o, int i, int y) { return w[(o * 5 + i) * 2 + y]; };
  EXPECT_EQ(p[blk * 8 + 0 * 4 + 0], wref(2, 4, 1));
  EXPECT_EQ(p[blk * 8 + 0 * 4 + 1], 0);  // i = 5 pads
  EXPECT_EQ(p[blk * 8 + 1 * 4 + 0], 0);  // o = 3 pads
  EXPECT_EQ(unpack_weight(cfg, p, s), w);
}

TEST(Packing, AccBiasAndOutputLayouts) {
  const HwConfig cfg = custom(2, 8, 4);
  const Shape4 s{2, 6, 1, 1};
  std::vector<std::int32_t> a(s.elems());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i) * 1000 - 3000;
  const auto pa = pack_acc(cfg, a, s);
  ASSERT_EQ(pa.size(), 2u * 8);
  EXPECT_EQ(pa[1 * 8 + 1 * 4 + 1], a[1 * 6 + 5]);  // block co=1, b=1, o=1 -> c=5
  EXPECT_EQ(pa[1 * 8 + 1 * 4 + 2], 0);
  EXPECT_EQ(unpack_acc(cfg, pa, s), a);

  const std::vector<std::int32_t> bias = {7, 8, 9, 10, 11};
  const auto pb = pack_bias(cfg, bias);
  ASSERT_EQ(pb.size(), 2u * 2 * 4);
  EXPECT_EQ(pb[0 * 8 + 1 * 4 + 2], 9);  // b=1 repeats the bias
  EXPECT_EQ(pb[1 * 8 + 0 * 4 + 0], 11);
  EXPECT_EQ(pb[1 * 8 + 1 * 4 + 0], 11);
  EXPECT_EQ(pb[1 * 8 + 1 * 4 + 1], 0);

  std::vector<std::int8_t> po(packed_out_size(cfg, s));
  for (std::size_t i = 0; i < po.size(); ++i) po[i] = static_cast<std::int8_t>(i);
  const auto o = unpack_output(cfg, po, s);
  ASSERT_EQ(o.size(), s.elems());
  EXPECT_EQ(o[1 * 6 + 5], po[1 * 8 + 1 * 4 + 1]);
}

TEST(Packing, RandomRoundTripsOnPresets) {
  std::mt19937 rng(5);
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    for (int t = 0; t < 20; ++t) {
      const Shape4 s{1 + static_cast<int>(rng() % 5), 1 + static_cast<int>(rng() % 40),
                     1 + static_cast<int>(rng() % 4), 1 + static_cast<int>(rng() % 4)};
      std::vector<std::int8_t> x(s.elems());
      for (auto& v : x) v = static_cast<std::int8_t>(rng());
      EXPECT_EQ(unpack_activation(cfg, pack_activation(cfg, x, s), s), x);
      EXPECT_EQ(unpack_weight(cfg, pack_weight(cfg, x, s), s), x);
      std::vector<std::int32_t> y(s.elems());
      for (auto& v : y) v = static_cast<std::int32_t>(rng());
      EXPECT_EQ(unpack_acc(cfg, pack_acc(cfg, y, s), s), y);
    }
  }
}

TEST(Packing, ShapeErrors) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  const std::vector<std::int8_t> x(10);
  EXPECT_THROW(pack_activation(cfg, x, Shape4{1, 11, 1, 1}), Error);
  EXPECT_THROW(pack_activation(cfg, x, Shape4{0, 10, 1, 1}), Error);
  EXPECT_THROW(unpack_output(cfg, x, Shape4{1, 10, 1, 1}), Error);  // needs 16
  EXPECT_THROW(pack_bias(cfg, std::vector<std::int32_t>{}), Error);
}

}  // namespace
}  // namespace tandem::driver
