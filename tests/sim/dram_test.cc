// Tests of sim::Dram: zero-initialised, round trips, bounds checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/dram.h"
#include "sim_test_util.h"

namespace tandem::sim::testing {
namespace {

TEST(Dram, StartsZeroAndRoundTrips) {
  Dram d(1 << 20);
  EXPECT_EQ(d.size(), 1u << 20);
  std::vector<std::uint8_t> buf(64, 0xff);
  d.read(4096, buf.data(), buf.size());
  for (std::uint8_t b : buf) EXPECT_EQ(b, 0);
  const std::vector<std::uint8_t> data = {1, 2, 3, 4, 5};
  d.write((1 << 20) - 5, data.data(), data.size());
  std::vector<std::uint8_t> back(5);
  d.read((1 << 20) - 5, back.data(), back.size());
  EXPECT_EQ(back, data);
  d.write(1 << 20, data.data(), 0);  // empty access at the end is legal
}

TEST(Dram, OutOfRangeNamesAddressSizeAndCapacity) {
  Dram d(1 << 20);
  std::uint8_t b[8] = {};
  expect_error([&] { d.write((1 << 20) - 4, b, 8); },
               {"DRAM write", "8 bytes", "0xffffc", "1048576 bytes"});
  expect_error([&] { d.read(~0ull - 2, b, 8); }, {"DRAM read", "8 bytes", "capacity"});
  expect_error([&] { d.check_range(5, ~0ull, "probe"); }, {"probe", "capacity of 1048576"});
}

}  // namespace
}  // namespace tandem::sim::testing
