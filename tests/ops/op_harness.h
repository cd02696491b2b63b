// Shared helpers of the operator tests: random tensors, running a compiled
// operator on a target through driver::Runtime + packing, and the element-by-
// element comparison against the host_cpu reference operators.
#pragma once

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/ops/conv2d.h"
#include "driver/packing.h"
#include "driver/runtime.h"
#include "host_cpu/reference.h"

namespace tandem::opstest {

struct Outcome {
  bool pass = true;
  std::string mismatch;  // first mismatch: NCHW index, got, expected
  isa::Stats stats;
};

inline std::vector<std::int8_t> random_i8(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}

inline std::vector<std::int32_t> random_i32(std::size_t n, int lo, int hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

template <typename T>
void put(driver::Runtime& rt, const std::string& name, const std::vector<T>& v) {
  rt.allocate(name, v.size() * sizeof(T));
  rt.write(name, v.data(), v.size() * sizeof(T));
}

// Compares NCHW int8 tensors; records the first mismatch.
inline Outcome compare_nchw(const std::vector<std::int8_t>& got,
                            const std::vector<std::int8_t>& want, const driver::Shape4& s) {
  Outcome o;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;
    const std::size_t w = i % s.w, h = (i / s.w) % s.h, c = (i / s.w / s.h) % s.c,
                      n = i / s.w / s.h / s.c;
    std::ostringstream m;
    m << "mismatch at [" << n << "," << c << "," << h << "," << w << "]: got " << int(got[i])
      << ", expected " << int(want[i]);
    o.pass = false;
    o.mismatch = m.str();
    return o;
  }
  return o;
}

// Random inputs, the compiled conv2d on `target`, the host reference.
inline Outcome run_conv2d(const HwConfig& cfg, const ops::Conv2dShape& s, const ops::Epilogue& e,
                          const ops::CompiledOp& op, const std::string& target = "fsim",
                          unsigned seed = 1) {
  std::mt19937 rng(seed);
  const driver::Shape4 in{s.n, s.ci, s.h, s.w}, wt{s.co, s.ci, s.kh, s.kw},
      out{s.n, s.co, s.oh(), s.ow()};
  const auto data = random_i8(in.elems(), rng);
  const auto weight = random_i8(wt.elems(), rng);
  const auto bias = e.bias ? random_i32(static_cast<std::size_t>(s.co), -4096, 4096, rng)
                           : std::vector<std::int32_t>{};
  driver::Runtime rt(cfg, target);
  put(rt, "data", driver::pack_activation(cfg, data, in));
  put(rt, "kernel", driver::pack_weight(cfg, weight, wt));
  if (e.bias) put(rt, "bias", driver::pack_bias(cfg, bias));
  rt.allocate("res", driver::packed_out_size(cfg, out));
  Outcome o;
  o.stats = rt.run(op.program);
  const auto got = driver::unpack_output(cfg, rt.read_as<std::int8_t>("res"), out);
  host_cpu::Conv2dShape hs;
  hs.n = s.n, hs.c = s.ci, hs.h = s.h, hs.w = s.w, hs.o = s.co, hs.kh = s.kh, hs.kw = s.kw;
  hs.stride_h = s.stride_h, hs.stride_w = s.stride_w, hs.pad_h = s.pad_h, hs.pad_w = s.pad_w;
  const auto acc = host_cpu::conv2d_nchw(data, weight, bias, hs);
  const auto want =
      host_cpu::narrow(host_cpu::shift_requantize(acc, e.shift, e.relu ? 0 : -128, 127));
  const isa::Stats stats = o.stats;
  o = compare_nchw(got, want, out);
  o.stats = stats;
  return o;
}

}  // namespace tandem::opstest
