// Max pooling on the ALU: res = int8(clip(max over the k x k window >> shift,
// relu ? 0 : -128, 127)) of an int32 tensor in the acc layout
// NCHW{B}n{BO}c (driver::pack_acc); the window steps by `stride`, with
// `pad` positions on each side that count as 0 (the DMA pads with zeros, so
// this equals -infinity padding for non-negative inputs, e.g. after ReLU as
// in ResNet). The reduction runs as ALU MAX micro-ops; its initial value
// INT32_MIN is built with reset + add + shift immediates.
// Program buffers: "data", "res".
#pragma once

#include "compiler/ops/compiled_op.h"
#include "compiler/ops/conv2d.h"
#include "compiler/ops/eltwise_schedule.h"
#include "compiler/ops/residual_add.h"

namespace tandem::ops {

struct PoolShape {
  TensorShape in;
  int k = 2, stride = 2, pad = 0;
  int oh() const { return (in.h + 2 * pad - k) / stride + 1; }
  int ow() const { return (in.w + 2 * pad - k) / stride + 1; }
  void validate() const;
  std::string to_string() const;
};

EltwiseSchedule default_max_pool_schedule(const HwConfig& cfg, const PoolShape& s,
                                          int vthreads = 1);
CompiledOp compile_max_pool(const HwConfig& cfg, const PoolShape& s, const Epilogue& epi,
                            const EltwiseSchedule& sch, const CompileOptions& opts = {});

}  // namespace tandem::ops
