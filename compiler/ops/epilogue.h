// The fused ALU epilogue shared by the GEMM-based operators (conv2d, dense):
// optional bias add, arithmetic shift right, clip to [relu ? 0 : -128, 127],
// then int8 narrowing -- each an element-wise tensor-expression stage.
#pragma once

#include <string>
#include <vector>

#include "compiler/ops/conv2d.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/te.h"

namespace tandem::ops {

struct EpilogueTensors {
  te::Tensor bias;                 // placeholder [cob][B][BO] int32 (undefined without bias)
  std::vector<te::Tensor> stages;  // int32 element-wise stages, in order
  te::Tensor res;                  // int8 result
};

// `acc` has shape `shape`; its axis `co_axis` indexes output-channel blocks and
// the last two axes are (b, o). The bias stage reads bias(co, b, o).
EpilogueTensors make_epilogue(const te::Tensor& acc, const std::vector<ir::Expr>& shape,
                              int co_axis, const Epilogue& epi, int cob, int batch, int block_out);

// Schedules the epilogue stages in "acc" at (stage, axis) with the "alu"
// pragma, and the bias copy in "acc" with "dma_copy". Returns the bias copy
// (undefined without bias).
te::Tensor schedule_epilogue(te::Schedule& s, const EpilogueTensors& e, const te::Tensor& reader,
                             const te::Stage& at, const te::IterVar& axis);

}  // namespace tandem::ops
