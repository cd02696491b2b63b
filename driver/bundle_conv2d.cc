// make_conv2d_bundle(): a compiler-built conv2d (ops::compile_conv2d) with
// seeded random inputs, checked against the host_cpu reference (see
// driver/bundle_make.h).
#include <nlohmann/json.hpp>

#include "driver/bundle_make.h"
#include "driver/op_operands.h"
#include "driver/packing.h"
#include "isa/error.h"

namespace tandem::driver {
Bundle make_conv2d_bundle(const HwConfig& cfg, const ops::Conv2dShape& s, const ops::Epilogue& epi,
                          const ops::Conv2dSchedule* sch, int vthreads, std::uint64_t seed,
                          const std::string& command_line, const MakeBundleOptions& opts) {
  s.validate();
  epi.validate();
  const ops::Conv2dSchedule schedule =
      sch ? *sch : ops::default_conv2d_schedule(cfg, s, epi, vthreads);
  const ops::CompiledOp op = ops::compile_conv2d(cfg, s, epi, schedule);

  const Shape4 in{s.n, s.ci, s.h, s.w}, wt{s.co, s.ci, s.kh, s.kw}, out{s.n, s.co, s.oh(), s.ow()};
  const OpOperands x = random_conv2d_operands(s, epi, seed);
  const auto& data = x.data;
  const auto& weight = x.weight;
  const auto& bias = x.bias;
  const auto want = reference_conv2d(x, s, epi);

  VectorSource src;
  src.workload = "conv2d";
  nlohmann::ordered_json p;
  p["n"] = s.n, p["ci"] = s.ci, p["h"] = s.h, p["w"] = s.w;
  p["co"] = s.co, p["kh"] = s.kh, p["kw"] = s.kw;
  p["stride_h"] = s.stride_h, p["stride_w"] = s.stride_w, p["pad_h"] = s.pad_h,
  p["pad_w"] = s.pad_w;
  p["bias"] = epi.bias, p["shift"] = epi.shift, p["relu"] = epi.relu;
  p["schedule"] = schedule.to_string();
  p["layout"] = {{"data", "NCHW{B}n{BI}c int8 [ceil(N/B)][ceil(CI/BI)][H][W][B][BI]"},
                 {"kernel", "OIHW{BO}o{BI}i int8 [ceil(CO/BO)][ceil(CI/BI)][KH][KW][BO][BI]"},
                 {"bias", "int32 [ceil(CO/BO)][B][BO]"},
                 {"res", "NCHW{B}n{BO}c int8 [ceil(N/B)][ceil(CO/BO)][OH][OW][B][BO]"}};
  src.params_json = p.dump();
  src.seed = seed;
  src.command_line = command_line;
  src.program = op.program;
  src.buffers["data"] = {RegionRole::kInput, 1, as_bytes(pack_activation(cfg, data, in))};
  src.buffers["kernel"] = {RegionRole::kWeight, 1, as_bytes(pack_weight(cfg, weight, wt))};
  if (epi.bias) src.buffers["bias"] = {RegionRole::kBias, 4, as_bytes(pack_bias(cfg, bias))};
  src.buffers["res"] = {RegionRole::kOutput, 1, {}};
  src.verify = verify_int8_output(cfg, "conv2d", "res", out, want);
  return make_bundle(cfg, src, opts);
}

}  // namespace tandem::driver
