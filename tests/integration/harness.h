// Shared fixture of the integration tests: every test runs on every device
// target built into this binary (driver::available_targets()) and on both
// presets (tandem-8x8, vta-16x16), and compares results element by element
// with host-computed expectations.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <random>
#include <ostream>
#include <string>
#include <vector>

#include "driver/command_builder.h"
#include "driver/device_registry.h"
#include "driver/runtime.h"
#include "isa/hw_config.h"

namespace tandem::integration {

struct TargetParam {
  std::string target;
  std::string config;
};

// Readable parameter in test listings ("csim on vta-16x16").
inline void PrintTo(const TargetParam& p, std::ostream* os) { *os << p.target << " on " << p.config; }

inline std::vector<TargetParam> all_targets() {
  std::vector<TargetParam> p;
  for (const auto& t : driver::available_targets())
    for (const char* c : {"tandem-8x8", "vta-16x16"}) p.push_back({t, c});
  return p;
}

inline std::string target_name(const testing::TestParamInfo<TargetParam>& info) {
  std::string s = info.param.target + "_" + info.param.config;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

class AccelTest : public testing::TestWithParam<TargetParam> {
 protected:
  void SetUp() override {
    cfg = HwConfig::load_preset(GetParam().config);
    rt = std::make_unique<driver::Runtime>(cfg, GetParam().target);
  }
  // The RTL simulation is slow: tests keep its shapes small.
  bool slow_target() const { return GetParam().target == "rtl"; }
  int row() const { return cfg.batch * cfg.block_out; }  // int32/int8 per acc/out element

  template <typename T>
  void put(const std::string& name, const std::vector<T>& data) {
    if (rt->has(name)) rt->free(name);
    rt->allocate(name, data.size() * sizeof(T));
    rt->write(name, data.data(), data.size() * sizeof(T));
  }
  void make(const std::string& name, std::uint64_t bytes) {
    if (rt->has(name)) rt->free(name);
    rt->allocate(name, bytes);
  }
  template <typename T>
  std::vector<T> get(const std::string& name) {
    return rt->read_as<T>(name);
  }
  template <typename T>
  std::vector<T> random_vec(std::size_t n, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
  }

  HwConfig cfg;
  std::unique_ptr<driver::Runtime> rt;
  std::mt19937 rng{1234};
};

}  // namespace tandem::integration
