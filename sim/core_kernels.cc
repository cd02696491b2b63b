// Portable GEMM kernel and kernel selection (see sim/core_kernels.h).
#include "sim/core_kernels.h"

namespace tandem::sim {

void gemm_kernel_scalar(const GemmKernelArgs& a) {
  const int B = a.batch, BI = a.block_in, BO = a.block_out;
  for (std::uint32_t i0 = 0; i0 < a.iter_out; ++i0) {
    for (std::uint32_t i1 = 0; i1 < a.iter_in; ++i1) {
      const std::uint32_t da = i0 * a.dst_out + i1 * a.dst_in;
      const std::uint32_t ds = i0 * a.src_out + i1 * a.src_in;
      const std::uint32_t dw = i0 * a.wgt_out + i1 * a.wgt_in;
      for (std::uint32_t u = a.uop_bgn; u < a.uop_end; ++u) {
        const isa::Uop& up = a.uops[u];
        const std::size_t row_a = static_cast<std::size_t>(up.dst + da) * B;
        const std::size_t row_s = static_cast<std::size_t>(up.src + ds) * B;
        const std::int8_t* w = a.wgt + static_cast<std::size_t>(up.wgt + dw) * BO * BI;
        for (int b = 0; b < B; ++b) {
          const std::int8_t* x = a.inp + (row_s + b) * BI;
          std::int32_t* acc = a.acc + (row_a + b) * BO;
          std::int8_t* out = a.out + (row_a + b) * BO;
          for (int o = 0; o < BO; ++o) {
            // |sum| <= 64 * 128 * 128, so the dot product itself never overflows.
            std::int32_t s = 0;
            const std::int8_t* wr = w + o * BI;
            for (int i = 0; i < BI; ++i) s += static_cast<std::int32_t>(x[i]) * wr[i];
            const auto r = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[o]) +
                                                     static_cast<std::uint32_t>(s));
            acc[o] = r;
            out[o] = static_cast<std::int8_t>(r);
          }
        }
      }
    }
  }
}

bool host_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
#else
  return false;
#endif
}

GemmKernel select_gemm_kernel(int /*batch*/, int block_in, int block_out, bool simd) {
#if defined(__x86_64__) || defined(__i386__)
  if (simd && host_has_avx2() && block_out % 8 == 0) {
    if (block_in == 8) return &gemm_kernel_avx2_bi8;
    if (block_in % 16 == 0) return &gemm_kernel_avx2_bi16n;
  }
#else
  (void)simd;
  (void)block_in;
  (void)block_out;
#endif
  return &gemm_kernel_scalar;
}

}  // namespace tandem::sim
