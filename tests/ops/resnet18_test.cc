// Every ResNet-18 convolution layer (batch 1, incl. the 7x7 stride-2 stem
// with 3 input channels and the 1x1 stride-2 downsample layers) compiled with
// the default schedule for both presets, with 1 and 2 virtual threads, and
// run on fsim bit-exactly against host_cpu. The reference output of each
// layer is computed once and shared by the four configurations. Under the
// sanitizers (unoptimized, ~100x slower host loops) the reference and the
// comparison cover three output channels per layer (first, middle, last);
// every other build compares every element.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "compiler/ops/conv2d.h"
#include "compiler/ops/resnet18.h"
#include "op_harness.h"

namespace tandem {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

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
  std::vector<std::int8_t> data, weight, want;  // want: NCHW over `channels`
  std::vector<std::int32_t> bias;
  std::vector<int> channels;  // output channels the reference covers
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
  if (kSanitized) {
    d.channels = {0, s.co / 2, s.co - 1};
  } else {
    for (int c = 0; c < s.co; ++c) d.channels.push_back(c);
  }
  // Reference over the selected output channels (a weight/bias slice).
  const std::size_t per_o = static_cast<std::size_t>(s.ci) * s.kh * s.kw;
  std::vector<std::int8_t> w;
  std::vector<std::int32_t> b;
  for (int c : d.channels) {
    w.insert(w.end(), d.weight.begin() + static_cast<std::ptrdiff_t>(c * per_o),
             d.weight.begin() + static_cast<std::ptrdiff_t>((c + 1) * per_o));
    b.push_back(d.bias[static_cast<std::size_t>(c)]);
  }
  host_cpu::Conv2dShape hs;
  hs.n = s.n, hs.c = s.ci, hs.h = s.h, hs.w = s.w, hs.kh = s.kh, hs.kw = s.kw;
  hs.o = static_cast<int>(d.channels.size());
  hs.stride_h = s.stride_h, hs.stride_w = s.stride_w, hs.pad_h = s.pad_h, hs.pad_w = s.pad_w;
  d.want = host_cpu::narrow(host_cpu::shift_requantize(host_cpu::conv2d_nchw(d.data, w, b, hs),
                                                       e.shift, e.relu ? 0 : -128, 127));
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
  const auto all = driver::unpack_output(cfg, rt.read_as<std::int8_t>("res"), out);
  // The device output restricted to the reference's channels.
  const std::size_t plane = static_cast<std::size_t>(out.h) * out.w;
  const int nc = static_cast<int>(d.channels.size());
  std::vector<std::int8_t> got;
  for (int n = 0; n < out.n; ++n)
    for (int c : d.channels) {
      const auto first = all.begin() + static_cast<std::ptrdiff_t>(
                                           (static_cast<std::size_t>(n) * out.c + c) * plane);
      got.insert(got.end(), first, first + static_cast<std::ptrdiff_t>(plane));
    }
  const opstest::Outcome o =
      opstest::compare_nchw(got, d.want, driver::Shape4{out.n, nc, out.h, out.w});
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
