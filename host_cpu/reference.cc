// Reference operators in plain loops (see reference.h).
#include "host_cpu/reference.h"

#include <algorithm>

#include "isa/error.h"

namespace tandem::host_cpu {

std::vector<std::int32_t> gemm_s8(std::span<const std::int8_t> a, std::span<const std::int8_t> b,
                                  int m, int n, int k) {
  TANDEM_CHECK(m >= 0 && n >= 0 && k >= 0,
               "gemm_s8: negative shape m=" << m << " n=" << n << " k=" << k);
  TANDEM_CHECK(a.size() == static_cast<std::size_t>(m) * k,
               "gemm_s8: A has " << a.size() << " elements, expected m*k = " << m * k);
  TANDEM_CHECK(b.size() == static_cast<std::size_t>(n) * k,
               "gemm_s8: B has " << b.size() << " elements, expected n*k = " << n * k);
  std::vector<std::int32_t> c(static_cast<std::size_t>(m) * n, 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      std::int32_t acc = 0;
      for (int l = 0; l < k; ++l)
        acc = wrap_add(acc, static_cast<std::int32_t>(a[static_cast<std::size_t>(i) * k + l]) *
                                b[static_cast<std::size_t>(j) * k + l]);
      c[static_cast<std::size_t>(i) * n + j] = acc;
    }
  return c;
}

std::vector<std::int32_t> conv2d_nchw(std::span<const std::int8_t> in,
                                      std::span<const std::int8_t> weight,
                                      std::span<const std::int32_t> bias, const Conv2dShape& s) {
  TANDEM_CHECK(s.n > 0 && s.c > 0 && s.h > 0 && s.w > 0 && s.o > 0 && s.kh > 0 && s.kw > 0,
               "conv2d_nchw: every dimension must be positive");
  TANDEM_CHECK(s.stride_h > 0 && s.stride_w > 0 && s.pad_h >= 0 && s.pad_w >= 0,
               "conv2d_nchw: strides must be positive and pads non-negative");
  TANDEM_CHECK(s.h + 2 * s.pad_h >= s.kh && s.w + 2 * s.pad_w >= s.kw,
               "conv2d_nchw: kernel " << s.kh << "x" << s.kw << " larger than padded input "
                                      << s.h + 2 * s.pad_h << "x" << s.w + 2 * s.pad_w);
  const std::size_t in_n = static_cast<std::size_t>(s.n) * s.c * s.h * s.w;
  const std::size_t w_n = static_cast<std::size_t>(s.o) * s.c * s.kh * s.kw;
  TANDEM_CHECK(in.size() == in_n,
               "conv2d_nchw: input has " << in.size() << " elements, expected " << in_n);
  TANDEM_CHECK(weight.size() == w_n,
               "conv2d_nchw: weight has " << weight.size() << " elements, expected " << w_n);
  TANDEM_CHECK(bias.empty() || bias.size() == static_cast<std::size_t>(s.o),
               "conv2d_nchw: bias has " << bias.size() << " elements, expected 0 or " << s.o);
  const int oh = s.out_h(), ow = s.out_w();
  std::vector<std::int32_t> out(static_cast<std::size_t>(s.n) * s.o * oh * ow);
  for (int n = 0; n < s.n; ++n)
    for (int o = 0; o < s.o; ++o)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x) {
          std::int32_t acc = bias.empty() ? 0 : bias[o];
          for (int c = 0; c < s.c; ++c)
            for (int ky = 0; ky < s.kh; ++ky)
              for (int kx = 0; kx < s.kw; ++kx) {
                const int iy = y * s.stride_h + ky - s.pad_h;
                const int ix = x * s.stride_w + kx - s.pad_w;
                if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w) continue;
                const std::int32_t v =
                    in[((static_cast<std::size_t>(n) * s.c + c) * s.h + iy) * s.w + ix];
                const std::int32_t wv =
                    weight[((static_cast<std::size_t>(o) * s.c + c) * s.kh + ky) * s.kw + kx];
                acc = wrap_add(acc, v * wv);
              }
          out[((static_cast<std::size_t>(n) * s.o + o) * oh + y) * ow + x] = acc;
        }
  return out;
}

std::int32_t shift_right(std::int32_t x, int s) {
  if (s >= 0) return x >> std::min(s, 31);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << std::min(-s, 31));
}

std::int32_t alu(isa::AluOp op, std::int32_t x, std::int32_t y) {
  switch (op) {
    case isa::AluOp::kMin:
      return std::min(x, y);
    case isa::AluOp::kMax:
      return std::max(x, y);
    case isa::AluOp::kAdd:
      return wrap_add(x, y);
    case isa::AluOp::kShr:
      return shift_right(x, y);
    case isa::AluOp::kMul:
      return wrap_mul(x, y);
  }
  throw Error(Msg() << "alu: unknown ALU op " << static_cast<int>(op));
}

std::vector<std::int32_t> shift_requantize(std::span<const std::int32_t> x, int shift,
                                           std::int32_t lo, std::int32_t hi) {
  TANDEM_CHECK(lo <= hi, "shift_requantize: clip range [" << lo << ", " << hi << "] is empty");
  std::vector<std::int32_t> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::clamp(shift_right(x[i], shift), lo, hi);
  return y;
}

std::vector<std::int32_t> relu(std::span<const std::int32_t> x) {
  std::vector<std::int32_t> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::max(x[i], 0);
  return y;
}

std::vector<std::int8_t> narrow(std::span<const std::int32_t> x) {
  std::vector<std::int8_t> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = narrow_s8(x[i]);
  return y;
}

}  // namespace tandem::host_cpu
