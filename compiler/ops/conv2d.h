// conv2d on the accelerator: tensor expression + parameterized schedule.
//
// Layouts (driver/packing.h): data NCHW{B}n{BI}c int8
// [ceil(N/B)][ceil(CI/BI)][H][W][B][BI], kernel OIHW{BO}o{BI}i int8
// [ceil(CO/BO)][ceil(CI/BI)][KH][KW][BO][BI], bias int32 [ceil(CO/BO)][B][BO],
// result NCHW{B}n{BO}c int8 [ceil(N/B)][ceil(CO/BO)][OH][OW][B][BO]. Channel
// counts that are not multiples of the block are zero-padded by the packing.
// Program buffer names: "data", "kernel", "bias" (only with a bias), "res".
//
// Semantics (host_cpu::conv2d_nchw + shift_requantize + narrow):
//   res = int8(clip((conv(data, kernel) + bias) >> shift, relu ? 0 : -128, 127))
//
// The operator is built ONLY from a tensor expression and a schedule (tile
// sizes, virtual threads) that go through compiler::lower() and the
// accelerator passes (compiler/accel/build_accel.h); no instruction is
// written by hand here.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/ops/compiled_op.h"
#include "isa/hw_config.h"

namespace tandem::ops {

struct Conv2dShape {
  int n = 1, ci = 1, h = 1, w = 1;  // input NCHW
  int co = 1, kh = 1, kw = 1;       // weight OIHW
  int stride_h = 1, stride_w = 1;
  int pad_h = 0, pad_w = 0;
  int oh() const { return (h + 2 * pad_h - kh) / stride_h + 1; }
  int ow() const { return (w + 2 * pad_w - kw) / stride_w + 1; }
  std::uint64_t macs() const;
  // tandem::Error naming the field for a non-positive size, a kernel larger
  // than the padded input, or padding beyond what a LOAD can insert (15).
  void validate() const;
  std::string to_string() const;
};

// Fused epilogue on the ALU.
struct Epilogue {
  bool bias = false;  // add a per-output-channel int32 bias
  int shift = 0;      // arithmetic shift right (requantization), 0..31
  bool relu = false;  // clip low bound 0 instead of -128
  void validate() const;
};

enum class VThreadAxis { kCo, kH };

struct Conv2dSchedule {
  int tile_h = 1;   // output rows per tile (per virtual thread when split on h)
  int tile_w = 1;   // output columns per tile
  int tile_ci = 1;  // input-channel blocks loaded per reduction step
  int tile_co = 1;  // output-channel blocks per tile (per virtual thread when split on co)
  int vthreads = 1;
  VThreadAxis vthread_axis = VThreadAxis::kCo;
  std::string to_string() const;
};

// Picks tile sizes that divide the shape and fit the SRAMs and the uop buffer
// of `cfg` with `vthreads` virtual threads (1 or 2), minimizing an estimate of
// DRAM traffic plus instruction overhead. tandem::Error when nothing fits.
Conv2dSchedule default_conv2d_schedule(const HwConfig& cfg, const Conv2dShape& shape,
                                       const Epilogue& epi = {}, int vthreads = 1);

// Checks a schedule against the shape (tile factors must divide it) and the
// SRAM capacities; tandem::Error naming the tile factor to shrink.
void check_conv2d_schedule(const HwConfig& cfg, const Conv2dShape& shape, const Epilogue& epi,
                           const Conv2dSchedule& sch);

CompiledOp compile_conv2d(const HwConfig& cfg, const Conv2dShape& shape, const Epilogue& epi,
                          const Conv2dSchedule& sch, const CompileOptions& opts = {});

}  // namespace tandem::ops
