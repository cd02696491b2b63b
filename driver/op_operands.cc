// Random operands and host references of conv2d/dense layer runs.
#include "driver/op_operands.h"

#include <chrono>
#include <random>

#include "driver/runtime.h"
#include "host_cpu/reference.h"

namespace tandem::driver {

OpOperands random_operands(std::size_t data_elems, std::size_t weight_elems, std::size_t bias_elems,
                           std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d8(-128, 127), d32(-4096, 4096);
  OpOperands x;
  x.data.resize(data_elems);
  x.weight.resize(weight_elems);
  x.bias.resize(bias_elems);
  for (auto& v : x.data) v = static_cast<std::int8_t>(d8(rng));
  for (auto& v : x.weight) v = static_cast<std::int8_t>(d8(rng));
  for (auto& v : x.bias) v = d32(rng);
  return x;
}

OpOperands random_conv2d_operands(const ops::Conv2dShape& s, const ops::Epilogue& e,
                                  std::uint64_t seed) {
  const auto n = [](auto v) { return static_cast<std::size_t>(v); };
  return random_operands(n(s.n) * n(s.ci) * n(s.h) * n(s.w), n(s.co) * n(s.ci) * n(s.kh) * n(s.kw),
                         e.bias ? n(s.co) : 0, seed);
}

OpOperands random_dense_operands(const ops::DenseShape& s, const ops::Epilogue& e,
                                 std::uint64_t seed) {
  const auto n = [](auto v) { return static_cast<std::size_t>(v); };
  return random_operands(n(s.n) * n(s.ci), n(s.co) * n(s.ci), e.bias ? n(s.co) : 0, seed);
}

namespace {

std::vector<std::int8_t> epilogue(const std::vector<std::int32_t>& acc, const ops::Epilogue& e) {
  return host_cpu::narrow(host_cpu::shift_requantize(acc, e.shift, e.relu ? 0 : -128, 127));
}

}  // namespace

std::vector<std::int8_t> reference_conv2d(const OpOperands& x, const ops::Conv2dShape& s,
                                          const ops::Epilogue& e) {
  host_cpu::Conv2dShape hs;
  hs.n = s.n, hs.c = s.ci, hs.h = s.h, hs.w = s.w, hs.o = s.co, hs.kh = s.kh, hs.kw = s.kw;
  hs.stride_h = s.stride_h, hs.stride_w = s.stride_w, hs.pad_h = s.pad_h, hs.pad_w = s.pad_w;
  return epilogue(host_cpu::conv2d_nchw(x.data, x.weight, x.bias, hs), e);
}

std::vector<std::int8_t> reference_dense(const OpOperands& x, const ops::DenseShape& s,
                                         const ops::Epilogue& e) {
  std::vector<std::int32_t> acc = host_cpu::gemm_s8(x.data, x.weight, s.n, s.co, s.ci);
  if (!x.bias.empty())
    for (std::size_t i = 0; i < acc.size(); ++i)
      acc[i] = host_cpu::wrap_add(acc[i], x.bias[i % static_cast<std::size_t>(s.co)]);
  return epilogue(acc, e);
}

LayerRun run_layer(const HwConfig& cfg, const std::string& target,
                   const isa::DeviceOptions& dev_opts, const isa::Program& program,
                   const OpOperands& x, const Shape4& in, const Shape4& wt, const Shape4& out,
                   const std::string& weight_name) {
  Runtime rt(cfg, target, dev_opts);
  auto put = [&](const std::string& name, const auto& v) {
    rt.allocate(name, v.size() * sizeof(v[0]));
    rt.write(name, v.data(), v.size() * sizeof(v[0]));
  };
  put("data", pack_activation(cfg, x.data, in));
  put(weight_name, pack_weight(cfg, x.weight, wt));
  if (!x.bias.empty()) put("bias", pack_bias(cfg, x.bias));
  rt.allocate("res", packed_out_size(cfg, out));
  LayerRun r;
  const auto t0 = std::chrono::steady_clock::now();
  r.stats = rt.run(program);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.out = unpack_output(cfg, rt.read_as<std::int8_t>("res"), out);
  return r;
}

}  // namespace tandem::driver
