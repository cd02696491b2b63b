// dense (fully connected) on the accelerator: tensor expression +
// parameterized schedule, same path as conv2d.
//
// Layouts (driver/packing.h with H = W = 1): data [ceil(N/B)][ceil(CI/BI)][B][BI]
// int8 (pack_activation of N x CI x 1 x 1), weight [ceil(CO/BO)][ceil(CI/BI)][BO][BI]
// int8 (pack_weight of CO x CI x 1 x 1), bias [ceil(CO/BO)][B][BO] int32, result
// [ceil(N/B)][ceil(CO/BO)][B][BO] int8. Program buffers: "data", "weight",
// "bias" (with a bias), "res".
// Semantics: res = int8(clip((data . weight^T + bias) >> shift, relu ? 0 : -128, 127)).
#pragma once

#include <string>

#include "compiler/ops/compiled_op.h"
#include "compiler/ops/conv2d.h"
#include "isa/hw_config.h"

namespace tandem::ops {

struct DenseShape {
  int n = 1, ci = 1, co = 1;
  void validate() const;
  std::string to_string() const;
};

struct DenseSchedule {
  int tile_n = 1;    // batch blocks per tile
  int tile_ci = 1;   // input-channel blocks per reduction step
  int tile_co = 1;   // output-channel blocks per tile (per virtual thread)
  int vthreads = 1;  // split over co
  std::string to_string() const;
};

DenseSchedule default_dense_schedule(const HwConfig& cfg, const DenseShape& shape,
                                     const Epilogue& epi = {}, int vthreads = 1);
void check_dense_schedule(const HwConfig& cfg, const DenseShape& shape, const Epilogue& epi,
                          const DenseSchedule& sch);
CompiledOp compile_dense(const HwConfig& cfg, const DenseShape& shape, const Epilogue& epi,
                         const DenseSchedule& sch, const CompileOptions& opts = {});

}  // namespace tandem::ops
