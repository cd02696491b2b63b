// make_dense_bundle(): a compiler-built dense layer (ops::compile_dense) with
// seeded random inputs, checked against the host_cpu reference (see
// driver/bundle_make.h).
#include <nlohmann/json.hpp>

#include "driver/bundle_make.h"
#include "driver/op_operands.h"
#include "driver/packing.h"
#include "isa/error.h"

namespace tandem::driver {
Bundle make_dense_bundle(const HwConfig& cfg, const ops::DenseShape& s, const ops::Epilogue& epi,
                         const ops::DenseSchedule* sch, int vthreads, std::uint64_t seed,
                         const std::string& command_line, const MakeBundleOptions& opts) {
  s.validate();
  epi.validate();
  const ops::DenseSchedule schedule =
      sch ? *sch : ops::default_dense_schedule(cfg, s, epi, vthreads);
  const ops::CompiledOp op = ops::compile_dense(cfg, s, epi, schedule);

  const Shape4 in{s.n, s.ci, 1, 1}, wt{s.co, s.ci, 1, 1}, out{s.n, s.co, 1, 1};
  const OpOperands x = random_dense_operands(s, epi, seed);
  const auto& data = x.data;
  const auto& weight = x.weight;
  const auto& bias = x.bias;
  const auto want = reference_dense(x, s, epi);

  VectorSource src;
  src.workload = "dense";
  nlohmann::ordered_json p;
  p["n"] = s.n, p["ci"] = s.ci, p["co"] = s.co;
  p["bias"] = epi.bias, p["shift"] = epi.shift, p["relu"] = epi.relu;
  p["schedule"] = schedule.to_string();
  p["layout"] = {{"data", "int8 [ceil(N/B)][ceil(CI/BI)][B][BI]"},
                 {"weight", "int8 [ceil(CO/BO)][ceil(CI/BI)][BO][BI]"},
                 {"bias", "int32 [ceil(CO/BO)][B][BO]"},
                 {"res", "int8 [ceil(N/B)][ceil(CO/BO)][B][BO]"}};
  src.params_json = p.dump();
  src.seed = seed;
  src.command_line = command_line;
  src.program = op.program;
  src.buffers["data"] = {RegionRole::kInput, 1, as_bytes(pack_activation(cfg, data, in))};
  src.buffers["weight"] = {RegionRole::kWeight, 1, as_bytes(pack_weight(cfg, weight, wt))};
  if (epi.bias) src.buffers["bias"] = {RegionRole::kBias, 4, as_bytes(pack_bias(cfg, bias))};
  src.buffers["res"] = {RegionRole::kOutput, 1, {}};
  src.verify = verify_int8_output(cfg, "dense", "res", out, want);
  return make_bundle(cfg, src, opts);
}

}  // namespace tandem::driver
