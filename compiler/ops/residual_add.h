// Element-wise residual add on the ALU: res = int8(clip((a + b) >> shift,
// relu ? 0 : -128, 127)) for two int32 tensors in the acc layout
// NCHW{B}n{BO}c ([ceil(N/B)][ceil(C/BO)][H][W][B][BO], driver::pack_acc), the
// result in the out layout. The DMA moves whole acc elements (int32), so the
// operands are int32 (e.g. two convolution accumulators). Program buffers:
// "a", "b", "res".
#pragma once

#include "compiler/ops/compiled_op.h"
#include "compiler/ops/conv2d.h"
#include "compiler/ops/eltwise_schedule.h"

namespace tandem::ops {

struct TensorShape {
  int n = 1, c = 1, h = 1, w = 1;
  std::string to_string() const;
};

EltwiseSchedule default_residual_add_schedule(const HwConfig& cfg, const TensorShape& s,
                                              const Epilogue& epi = {}, int vthreads = 1);
CompiledOp compile_residual_add(const HwConfig& cfg, const TensorShape& s, const Epilogue& epi,
                                const EltwiseSchedule& sch, const CompileOptions& opts = {});

}  // namespace tandem::ops
