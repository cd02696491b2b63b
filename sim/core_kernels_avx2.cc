// AVX2 GEMM kernels (see sim/core_kernels.h).
//
// int8 operands are widened to int16 and multiplied pairwise with vpmaddwd
// (products of two int8 and sums of two such products fit int32 exactly);
// horizontal adds then reduce each output row. Results are bit-identical to
// gemm_kernel_scalar. Every function in this file is compiled for AVX2 by
// the target pragma below and must only run when host_has_avx2(); no
// standard-library templates are instantiated after the pragma, so no AVX2
// code can leak into inline functions shared with other files.
#include "sim/core_kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

namespace tandem::sim {
namespace {

// acc[0..8) += r; out[0..8) = (int8)acc.
inline void accumulate8(std::int32_t* acc, std::int8_t* out, __m256i r) {
  __m256i v = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc)), r);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc), v);
  // Low byte of each int32: bytes 0,4,8,12 of each 128-bit lane.
  const __m256i pick =
      _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i b = _mm256_shuffle_epi8(v, pick);
  const __m128i lo = _mm256_castsi256_si128(b);
  const __m128i hi = _mm256_extracti128_si256(b, 1);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi32(lo, hi));
}

inline __m256i widen16(const std::int8_t* p) {
  return _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Eight output rows of an 8-wide dot product: w holds rows [8][8], x 8 values.
inline __m256i dot8x8(const std::int8_t* w, __m256i xx) {
  const __m256i m0 = _mm256_madd_epi16(widen16(w), xx);       // lanes: row0 | row1
  const __m256i m1 = _mm256_madd_epi16(widen16(w + 16), xx);  // row2 | row3
  const __m256i m2 = _mm256_madd_epi16(widen16(w + 32), xx);  // row4 | row5
  const __m256i m3 = _mm256_madd_epi16(widen16(w + 48), xx);  // row6 | row7
  const __m256i h01 = _mm256_hadd_epi32(m0, m1);              // r0 r0 r2 r2 | r1 r1 r3 r3
  const __m256i h23 = _mm256_hadd_epi32(m2, m3);              // r4 r4 r6 r6 | r5 r5 r7 r7
  const __m256i h = _mm256_hadd_epi32(h01, h23);              // r0 r2 r4 r6 | r1 r3 r5 r7
  return _mm256_permutevar8x32_epi32(h, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// Eight output rows of a BI-wide dot product (BI a multiple of 16); w points
// at row 0, rows are BI apart; x holds BI int8 values.
template <int BI>
inline __m256i dot8xn(const std::int8_t* w, const std::int8_t* x) {
  __m256i m[8];
  for (int r = 0; r < 8; ++r) m[r] = _mm256_setzero_si256();
  for (int c = 0; c < BI; c += 16) {
    const __m256i xx = widen16(x + c);
    for (int r = 0; r < 8; ++r)
      m[r] = _mm256_add_epi32(m[r], _mm256_madd_epi16(widen16(w + r * BI + c), xx));
  }
  // Each m[r] holds 8 partial sums of row r (4 per lane).
  const __m256i h01 = _mm256_hadd_epi32(m[0], m[1]);
  const __m256i h23 = _mm256_hadd_epi32(m[2], m[3]);
  const __m256i h45 = _mm256_hadd_epi32(m[4], m[5]);
  const __m256i h67 = _mm256_hadd_epi32(m[6], m[7]);
  const __m256i ha = _mm256_hadd_epi32(h01, h23);  // r0 r1 r2 r3 (lo half) | same (hi half)
  const __m256i hb = _mm256_hadd_epi32(h45, h67);  // r4 r5 r6 r7 (lo half) | same (hi half)
  return _mm256_add_epi32(_mm256_permute2x128_si256(ha, hb, 0x20),
                          _mm256_permute2x128_si256(ha, hb, 0x31));
}

}  // namespace

void gemm_kernel_avx2_bi8(const GemmKernelArgs& a) {
  const int B = a.batch, BO = a.block_out;
  const std::size_t wgt_elem = static_cast<std::size_t>(BO) * 8;
  for (std::uint32_t i0 = 0; i0 < a.iter_out; ++i0) {
    for (std::uint32_t i1 = 0; i1 < a.iter_in; ++i1) {
      const std::uint32_t da = i0 * a.dst_out + i1 * a.dst_in;
      const std::uint32_t ds = i0 * a.src_out + i1 * a.src_in;
      const std::uint32_t dw = i0 * a.wgt_out + i1 * a.wgt_in;
      for (std::uint32_t u = a.uop_bgn; u < a.uop_end; ++u) {
        const isa::Uop& up = a.uops[u];
        const std::size_t row_a = static_cast<std::size_t>(up.dst + da) * B;
        const std::size_t row_s = static_cast<std::size_t>(up.src + ds) * B;
        const std::int8_t* w = a.wgt + static_cast<std::size_t>(up.wgt + dw) * wgt_elem;
        for (int b = 0; b < B; ++b) {
          const __m128i x8 =
              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(a.inp + (row_s + b) * 8));
          const __m256i xx = _mm256_broadcastsi128_si256(_mm_cvtepi8_epi16(x8));
          std::int32_t* acc = a.acc + (row_a + b) * BO;
          std::int8_t* out = a.out + (row_a + b) * BO;
          for (int g = 0; g < BO; g += 8) accumulate8(acc + g, out + g, dot8x8(w + g * 8, xx));
        }
      }
    }
  }
}

template <int BI>
static void gemm_loop_bi16n(const GemmKernelArgs& a) {
  const int B = a.batch, BO = a.block_out;
  const std::size_t wgt_elem = static_cast<std::size_t>(BO) * BI;
  for (std::uint32_t i0 = 0; i0 < a.iter_out; ++i0) {
    for (std::uint32_t i1 = 0; i1 < a.iter_in; ++i1) {
      const std::uint32_t da = i0 * a.dst_out + i1 * a.dst_in;
      const std::uint32_t ds = i0 * a.src_out + i1 * a.src_in;
      const std::uint32_t dw = i0 * a.wgt_out + i1 * a.wgt_in;
      for (std::uint32_t u = a.uop_bgn; u < a.uop_end; ++u) {
        const isa::Uop& up = a.uops[u];
        const std::size_t row_a = static_cast<std::size_t>(up.dst + da) * B;
        const std::size_t row_s = static_cast<std::size_t>(up.src + ds) * B;
        const std::int8_t* w = a.wgt + static_cast<std::size_t>(up.wgt + dw) * wgt_elem;
        for (int b = 0; b < B; ++b) {
          const std::int8_t* x = a.inp + (row_s + b) * BI;
          std::int32_t* acc = a.acc + (row_a + b) * BO;
          std::int8_t* out = a.out + (row_a + b) * BO;
          for (int g = 0; g < BO; g += 8)
            accumulate8(acc + g, out + g, dot8xn<BI>(w + static_cast<std::size_t>(g) * BI, x));
        }
      }
    }
  }
}

void gemm_kernel_avx2_bi16n(const GemmKernelArgs& a) {
  switch (a.block_in) {
    case 16:
      return gemm_loop_bi16n<16>(a);
    case 32:
      return gemm_loop_bi16n<32>(a);
    case 64:
      return gemm_loop_bi16n<64>(a);
  }
  gemm_kernel_scalar(a);  // not reached: select_gemm_kernel() only picks 16, 32, 64
}

}  // namespace tandem::sim

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // x86
