// Operands, host reference and device run of one int8 layer (conv2d or dense
// with the accelerator's epilogue), shared by the CLI commands, the
// test-vector producers and the benchmarks so that all of them draw the same
// inputs for the same seed, run them the same way and check against the same
// reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ops/conv2d.h"
#include "compiler/ops/dense.h"
#include "driver/packing.h"
#include "isa/device.h"
#include "isa/program.h"

namespace tandem::driver {

// data and weight uniform in [-128, 127]; bias (only if bias_elems > 0)
// uniform in [-4096, 4096]; drawn in that order from mt19937_64(seed).
struct OpOperands {
  std::vector<std::int8_t> data, weight;
  std::vector<std::int32_t> bias;
};
OpOperands random_operands(std::size_t data_elems, std::size_t weight_elems, std::size_t bias_elems,
                           std::uint64_t seed);
OpOperands random_conv2d_operands(const ops::Conv2dShape& s, const ops::Epilogue& e,
                                  std::uint64_t seed);
OpOperands random_dense_operands(const ops::DenseShape& s, const ops::Epilogue& e,
                                 std::uint64_t seed);

// int8 NCHW outputs: clip((conv|dense)(data, weight) + bias) >> shift) to
// [relu ? 0 : -128, 127], computed by host_cpu's reference operators.
std::vector<std::int8_t> reference_conv2d(const OpOperands& x, const ops::Conv2dShape& s,
                                          const ops::Epilogue& e);
std::vector<std::int8_t> reference_dense(const OpOperands& x, const ops::DenseShape& s,
                                         const ops::Epilogue& e);

// Result of running a compiled layer on a device.
struct LayerRun {
  isa::Stats stats;
  double seconds = 0;            // wall time of Runtime::run()
  std::vector<std::int8_t> out;  // the "res" buffer, unpacked to NCHW `out`
};

// Packs x into the program's buffers "data" (NCHW `in`), `weight_name` (OIHW
// `wt`) and, when x has a bias, "bias"; allocates "res"; runs `program` on
// `target` and unpacks the result.
LayerRun run_layer(const HwConfig& cfg, const std::string& target,
                   const isa::DeviceOptions& dev_opts, const isa::Program& program,
                   const OpOperands& x, const Shape4& in, const Shape4& wt, const Shape4& out,
                   const std::string& weight_name);

}  // namespace tandem::driver
