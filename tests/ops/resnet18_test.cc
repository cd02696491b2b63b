// Every ResNet-18 convolution layer (batch 1, incl. the 7x7 stride-2 stem
// with 3 input channels and the 1x1 stride-2 downsample layers) compiled with
// the default schedule for both presets, with 1 and 2 virtual threads, and
// run on fsim bit-exactly against host_cpu. The reference output of each
// layer is computed once and shared by the four configurations.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "compiler/ops/conv2d.h"
#include "compiler/ops/resnet18.h"
#include "op_harness.h"

namespace tandem {
namespace {

struct Param {
  std::string preset;
  int vthreads;
  std::size_t layer;
};

std::string param_name(const testing::TestParamInfo<Param>& p) {
  std::string s = ops::resnet18_conv_layers()[p.param.layer].name + "_" + p.param.preset + "_vt" +
                  std::to_string(p.param.vthreads);
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

std::vector<Param> all_params() {
  std::vector<Param> v;
  for (const char* p : {"tandem-8x8", "vta-16x16"})
    for (int vt : {1, 2})
      for (std::size_t l = 0; l < ops::resnet18_conv_layers().size(); ++l) v.push_back({p, vt, l});
  return v;
}

// Inputs and the host reference per layer, computed once.
struct LayerData {
  std::vector<std::int8_t> data, weight, want;
  std::vector<std::int32_t> bias;
};

const LayerData& layer_data(std::size_t l, const ops::Epilogue& e) {
  static std::map<std::size_t, LayerData> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(l);
  if (it != cache.end()) return it->second;
  const ops::Conv2dShape& s = ops::resnet18_conv_layers()[l].shape;
  std::mt19937 rng(100 + static_cast<unsigned>(l));
  LayerData d;
  d.data = opstest::random_i8(static_cast<std::size_t>(s.n) * s.ci * s.h * s.w, rng);
  d.weight = opstest::random_i8(static_cast<std::size_t>(s.co) * s.ci * s.kh * s.kw, rng);
  d.bias = opstest::random_i32(static_cast<std::size_t>(s.co), -20000, 20000, rng);
  host_cpu::Conv2dShape hs;
  hs.n = s.n, hs.c = s.ci, hs.h = s.h, hs.w = s.w, hs.o = s.co, hs.kh = s.kh, hs.kw = s.kw;
  hs.stride_h = s.stride_h, hs.stride_w = s.stride_w, hs.pad_h = s.pad_h, hs.pad_w = s.pad_w;
  d.want = host_cpu::narrow(host_cpu::shift_requantize(
      host_cpu::conv2d_nchw(d.data, d.weight, d.bias, hs), e.shift, e.relu ? 0 : -128, 127));
  return cache.emplace(l, std::move(d)).first->second;
}

class ResNet18 : public testing::TestWithParam<Param> {};

TEST_P(ResNet18, BitExactOnFsim) {
  const Param& p = GetParam();
  const HwConfig cfg = HwConfig::load_preset(p.preset);
  const ops::Conv2dShape& s = ops::resnet18_conv_layers()[p.layer].shape;
  ops::Epilogue e;
  e.bias = true;
  e.shift = 9;
  e.relu = true;
  const LayerData& d = layer_data(p.layer, e);
  const ops::Conv2dSchedule sch = ops::default_conv2d_schedule(cfg, s, e, p.vthreads);
  const ops::CompiledOp op = ops::compile_conv2d(cfg, s, e, sch);
  const driver::Shape4 in{s.n, s.ci, s.h, s.w}, wt{s.co, s.ci, s.kh, s.kw},
      out{s.n, s.co, s.oh(), s.ow()};
  driver::Runtime rt(cfg, "fsim");
  opstest::put(rt, "data", driver::pack_activation(cfg, d.data, in));
  opstest::put(rt, "kernel", driver::pack_weight(cfg, d.weight, wt));
  opstest::put(rt, "bias", driver::pack_bias(cfg, d.bias));
  rt.allocate("res", driver::packed_out_size(cfg, out));
  const isa::Stats st = rt.run(op.program);
  const auto got = driver::unpack_output(cfg, rt.read_as<std::int8_t>("res"), out);
  const opstest::Outcome o = opstest::compare_nchw(got, d.want, out);
  EXPECT_TRUE(o.pass) << s.to_string() << " " << sch.to_string() << ": " << o.mismatch;
  // Every MAC of the layer (with channel padding) ran as GEMM micro-ops.
  const std::uint64_t cib = (s.ci + cfg.block_in - 1) / cfg.block_in;
  const std::uint64_t cob = (s.co + cfg.block_out - 1) / cfg.block_out;
  std::uint64_t gemm_uops = 0, all_gemm = 0;
  for (const isa::Instruction& i : op.program.insns) {
    if (i.opcode != isa::Opcode::kGemm) continue;
    all_gemm += isa::uop_count(i);
    if (!i.reset) gemm_uops += isa::uop_count(i);
  }
  EXPECT_EQ(st.get("uop.gemm"), all_gemm);
  EXPECT_EQ(gemm_uops,
            cob * cib * s.oh() * s.ow() * s.kh * s.kw * ((s.n + cfg.batch - 1) / cfg.batch));
}

INSTANTIATE_TEST_SUITE_P(AllLayers, ResNet18, testing::ValuesIn(all_params()), param_name);

}  // namespace
}  // namespace tandem
