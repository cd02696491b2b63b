// Helpers for the RTL tests: runs of a raw program (tests/hw/raw_program.h)
// on fsim and on the RTL with their DRAM compared byte for byte.
#pragma once

#include <gtest/gtest.h>

#include "hw/rtl_device.h"
#include "sim/fsim.h"
#include "tests/hw/raw_program.h"

namespace tandem::hw_test {

// Runs `p` on fsim and on the RTL; expects identical data regions. Returns
// the RTL's statistics.
inline isa::Stats expect_same_as_fsim(const HwConfig& cfg, const RawProgram& p) {
  auto f = sim::make_fsim(cfg);
  auto r = hw::make_rtl(cfg);
  run(*f, p);
  const isa::Stats s = run(*r, p);
  const auto a = data_region(*f), b = data_region(*r);
  std::size_t diffs = 0, first = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && diffs++ == 0) first = i;
  EXPECT_EQ(diffs, 0u) << "first differing byte at data offset " << first << ": fsim "
                       << int(a[first]) << ", rtl " << int(b[first]);
  return s;
}

}  // namespace tandem::hw_test
