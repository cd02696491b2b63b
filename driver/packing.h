// Packing: host tensors <-> the accelerator's blocked DRAM layouts.
//
// Layouts (B = batch, BI = block_in, BO = block_out of the HwConfig; every
// array is row-major, the rightmost index fastest):
//
//   activations  NCHW int8        -> NCHW{B}n{BI}c:
//       packed[N/B][C/BI][H][W][B][BI],  packed[no][co][h][w][b][i] =
//       x[no*B + b][co*BI + i][h][w]
//     One inp SRAM element = one [B][BI] block, so the inp element index of
//     (no, co, h, w) is ((no*(C/BI) + co)*H + h)*W + w.
//   weights      OIHW int8        -> OIHW{BO}o{BI}i:
//       packed[O/BO][I/BI][KH][KW][BO][BI], packed[oo][io][y][x][o][i] =
//       w[oo*BO + o][io*BI + i][y][x]
//     One wgt SRAM element = one [BO][BI] block (o outer, i inner).
//   accumulators NCHW int32       -> NCHW{B}n{BO}c (packed[N/B][C/BO][H][W][B][BO])
//   outputs      NCHW{B}n{BO}c int8 -> NCHW int8 (unpack; drops the padding)
//     One acc/out SRAM element = one [B][BO] block.
//   bias         int32 [O]        -> acc layout [O/BO][B][BO], the bias of
//     channel oo*BO + o repeated for every b (one acc element per block).
//
// N, C (resp. O, I) are zero-padded up to multiples of the block sizes; the
// padded sizes are what the returned vectors hold (N/B above means
// ceil(N/B)). Spans whose size does not match the shape raise tandem::Error.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "isa/hw_config.h"

namespace tandem::driver {

struct Shape4 {
  int n = 1, c = 1, h = 1, w = 1;
  std::size_t elems() const { return static_cast<std::size_t>(n) * c * h * w; }
};

inline int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}
inline int round_up(int a, int b) {
  return ceil_div(a, b) * b;
}

// Generic blocking: src[N][C][H][W] -> dst[ceil(N/bn)][ceil(C/bc)][H][W][bn][bc]
// (zero-padded) and back. Defined for int8_t and int32_t.
template <typename T>
std::vector<T> pack_blocked(std::span<const T> src, const Shape4& s, int bn, int bc);
template <typename T>
std::vector<T> unpack_blocked(std::span<const T> packed, const Shape4& s, int bn, int bc);

// Activations (inp layout) and their inverse.
std::vector<std::int8_t> pack_activation(const HwConfig& cfg, std::span<const std::int8_t> nchw,
                                         const Shape4& s);
std::vector<std::int8_t> unpack_activation(const HwConfig& cfg, std::span<const std::int8_t> packed,
                                           const Shape4& s);
// Weights OIHW, given as Shape4{n=O, c=I, h=KH, w=KW} (wgt layout).
std::vector<std::int8_t> pack_weight(const HwConfig& cfg, std::span<const std::int8_t> oihw,
                                     const Shape4& s);
std::vector<std::int8_t> unpack_weight(const HwConfig& cfg, std::span<const std::int8_t> packed,
                                       const Shape4& s);
// int32 NCHW tensors in the acc layout (C blocked by BO).
std::vector<std::int32_t> pack_acc(const HwConfig& cfg, std::span<const std::int32_t> nchw,
                                   const Shape4& s);
std::vector<std::int32_t> unpack_acc(const HwConfig& cfg, std::span<const std::int32_t> packed,
                                     const Shape4& s);
// Bias per output channel -> [ceil(O/BO)][B][BO].
std::vector<std::int32_t> pack_bias(const HwConfig& cfg, std::span<const std::int32_t> bias);
// Output (out layout, int8, C blocked by BO) -> NCHW.
std::vector<std::int8_t> unpack_output(const HwConfig& cfg, std::span<const std::int8_t> packed,
                                       const Shape4& s);
// Packed element counts (scalars, including padding).
std::size_t packed_inp_size(const HwConfig& cfg, const Shape4& s);
std::size_t packed_wgt_size(const HwConfig& cfg, const Shape4& s);
std::size_t packed_out_size(const HwConfig& cfg, const Shape4& s);  // also acc (in scalars)

}  // namespace tandem::driver
