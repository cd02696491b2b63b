// Packing between NCHW/OIHW host tensors and blocked layouts (see header).
#include "driver/packing.h"

#include "isa/error.h"

namespace tandem::driver {
namespace {

void check_shape(const Shape4& s, const char* what) {
  TANDEM_CHECK(s.n > 0 && s.c > 0 && s.h > 0 && s.w > 0, what << ": shape " << s.n << "x" << s.c
                                                              << "x" << s.h << "x" << s.w
                                                              << " has a non-positive dimension");
}

std::size_t blocked_size(const Shape4& s, int bn, int bc) {
  return static_cast<std::size_t>(round_up(s.n, bn)) * round_up(s.c, bc) * s.h * s.w;
}

}  // namespace

template <typename T>
std::vector<T> pack_blocked(std::span<const T> src, const Shape4& s, int bn, int bc) {
  check_shape(s, "pack");
  TANDEM_CHECK(bn > 0 && bc > 0, "pack: block sizes " << bn << "x" << bc << " must be positive");
  TANDEM_CHECK(src.size() == s.elems(),
               "pack: source has " << src.size() << " elements, the shape needs " << s.elems());
  const int no_n = ceil_div(s.n, bn), co_n = ceil_div(s.c, bc);
  std::vector<T> dst(blocked_size(s, bn, bc), T{0});
  for (int no = 0; no < no_n; ++no)
    for (int co = 0; co < co_n; ++co)
      for (int h = 0; h < s.h; ++h)
        for (int w = 0; w < s.w; ++w) {
          const std::size_t blk = ((static_cast<std::size_t>(no) * co_n + co) * s.h + h) * s.w + w;
          for (int b = 0; b < bn; ++b) {
            const int n = no * bn + b;
            if (n >= s.n) break;
            for (int i = 0; i < bc; ++i) {
              const int c = co * bc + i;
              if (c >= s.c) break;
              dst[(blk * bn + b) * bc + i] =
                  src[((static_cast<std::size_t>(n) * s.c + c) * s.h + h) * s.w + w];
            }
          }
        }
  return dst;
}

template <typename T>
std::vector<T> unpack_blocked(std::span<const T> packed, const Shape4& s, int bn, int bc) {
  check_shape(s, "unpack");
  TANDEM_CHECK(bn > 0 && bc > 0, "unpack: block sizes " << bn << "x" << bc << " must be positive");
  TANDEM_CHECK(packed.size() == blocked_size(s, bn, bc),
               "unpack: packed tensor has " << packed.size() << " elements, the shape needs "
                                            << blocked_size(s, bn, bc));
  const int co_n = ceil_div(s.c, bc);
  std::vector<T> dst(s.elems());
  for (int n = 0; n < s.n; ++n)
    for (int c = 0; c < s.c; ++c)
      for (int h = 0; h < s.h; ++h)
        for (int w = 0; w < s.w; ++w) {
          const std::size_t blk =
              ((static_cast<std::size_t>(n / bn) * co_n + c / bc) * s.h + h) * s.w + w;
          dst[((static_cast<std::size_t>(n) * s.c + c) * s.h + h) * s.w + w] =
              packed[(blk * bn + n % bn) * bc + c % bc];
        }
  return dst;
}

template std::vector<std::int8_t> pack_blocked(std::span<const std::int8_t>, const Shape4&, int,
                                               int);
template std::vector<std::int32_t> pack_blocked(std::span<const std::int32_t>, const Shape4&, int,
                                                int);
template std::vector<std::int8_t> unpack_blocked(std::span<const std::int8_t>, const Shape4&, int,
                                                 int);
template std::vector<std::int32_t> unpack_blocked(std::span<const std::int32_t>, const Shape4&, int,
                                                  int);

std::vector<std::int8_t> pack_activation(const HwConfig& cfg, std::span<const std::int8_t> nchw,
                                         const Shape4& s) {
  return pack_blocked(nchw, s, cfg.batch, cfg.block_in);
}
std::vector<std::int8_t> unpack_activation(const HwConfig& cfg, std::span<const std::int8_t> packed,
                                           const Shape4& s) {
  return unpack_blocked(packed, s, cfg.batch, cfg.block_in);
}
std::vector<std::int8_t> pack_weight(const HwConfig& cfg, std::span<const std::int8_t> oihw,
                                     const Shape4& s) {
  return pack_blocked(oihw, s, cfg.block_out, cfg.block_in);
}
std::vector<std::int8_t> unpack_weight(const HwConfig& cfg, std::span<const std::int8_t> packed,
                                       const Shape4& s) {
  return unpack_blocked(packed, s, cfg.block_out, cfg.block_in);
}
std::vector<std::int32_t> pack_acc(const HwConfig& cfg, std::span<const std::int32_t> nchw,
                                   const Shape4& s) {
  return pack_blocked(nchw, s, cfg.batch, cfg.block_out);
}
std::vector<std::int32_t> unpack_acc(const HwConfig& cfg, std::span<const std::int32_t> packed,
                                     const Shape4& s) {
  return unpack_blocked(packed, s, cfg.batch, cfg.block_out);
}
std::vector<std::int8_t> unpack_output(const HwConfig& cfg, std::span<const std::int8_t> packed,
                                       const Shape4& s) {
  return unpack_blocked(packed, s, cfg.batch, cfg.block_out);
}

std::vector<std::int32_t> pack_bias(const HwConfig& cfg, std::span<const std::int32_t> bias) {
  TANDEM_CHECK(!bias.empty(), "pack_bias: bias is empty");
  const int o_n = static_cast<int>(bias.size());
  const int oo_n = ceil_div(o_n, cfg.block_out);
  std::vector<std::int32_t> dst(static_cast<std::size_t>(oo_n) * cfg.batch * cfg.block_out, 0);
  for (int oo = 0; oo < oo_n; ++oo)
    for (int b = 0; b < cfg.batch; ++b)
      for (int o = 0; o < cfg.block_out; ++o) {
        const int ch = oo * cfg.block_out + o;
        if (ch < o_n)
          dst[(static_cast<std::size_t>(oo) * cfg.batch + b) * cfg.block_out + o] = bias[ch];
      }
  return dst;
}

std::size_t packed_inp_size(const HwConfig& cfg, const Shape4& s) {
  return blocked_size(s, cfg.batch, cfg.block_in);
}
std::size_t packed_wgt_size(const HwConfig& cfg, const Shape4& s) {
  return blocked_size(s, cfg.block_out, cfg.block_in);
}
std::size_t packed_out_size(const HwConfig& cfg, const Shape4& s) {
  return blocked_size(s, cfg.batch, cfg.block_out);
}

}  // namespace tandem::driver
