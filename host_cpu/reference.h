// Reference operators: plain, obviously-right loops that define the exact
// integer semantics the accelerator must reproduce bit for bit.
//
// Conventions: row-major arrays; int8 x int8 products accumulate in int32
// with two's-complement wrap-around (like the accumulator SRAM); shifts are
// arithmetic. Shapes that do not match the spans raise tandem::Error.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "isa/insn.h"

namespace tandem::host_cpu {

// Wrapping int32 arithmetic (the accumulator's, no undefined behaviour).
inline std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline std::int32_t wrap_mul(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
}

// C[i][j] = sum_l A[i][l] * B[j][l]   (A: m x k, B: n x k, C: m x n, int32).
std::vector<std::int32_t> gemm_s8(std::span<const std::int8_t> a, std::span<const std::int8_t> b,
                                  int m, int n, int k);

struct Conv2dShape {
  int n = 1, c = 1, h = 1, w = 1;  // input NCHW
  int o = 1, kh = 1, kw = 1;       // weight OIHW (I == c)
  int stride_h = 1, stride_w = 1;
  int pad_h = 0, pad_w = 0;  // zero padding on both sides
  int out_h() const { return (h + 2 * pad_h - kh) / stride_h + 1; }
  int out_w() const { return (w + 2 * pad_w - kw) / stride_w + 1; }
};

// out[n][o][y][x] = bias[o] + sum_{c,ky,kx} in[n][c][y*sh+ky-ph][x*sw+kx-pw] * w[o][c][ky][kx]
// (out-of-range input positions read 0). `bias` may be empty. int32 result.
std::vector<std::int32_t> conv2d_nchw(std::span<const std::int8_t> in,
                                      std::span<const std::int8_t> weight,
                                      std::span<const std::int32_t> bias, const Conv2dShape& s);

// The ALU operation of isa/insn.h on one pair of accumulator values.
std::int32_t alu(isa::AluOp op, std::int32_t x, std::int32_t y);
// x >> s (arithmetic) for s >= 0, x << -s (wrapping) for s < 0; |s| capped at 31.
std::int32_t shift_right(std::int32_t x, int s);
// Two's-complement truncation to int8 (the out buffer's narrowing).
inline std::int8_t narrow_s8(std::int32_t x) {
  return static_cast<std::int8_t>(x);
}

// y = clip(x >> shift, lo, hi) element-wise (shift as in shift_right).
std::vector<std::int32_t> shift_requantize(std::span<const std::int32_t> x, int shift,
                                           std::int32_t lo, std::int32_t hi);
// y = max(x, 0).
std::vector<std::int32_t> relu(std::span<const std::int32_t> x);
// Element-wise narrow_s8.
std::vector<std::int8_t> narrow(std::span<const std::int32_t> x);

}  // namespace tandem::host_cpu
