// GEMM micro-op kernels of the functional core (internal to sim/).
//
// A kernel runs a whole non-reset GEMM instruction: the iter_out x iter_in
// loops over the micro-ops [uop_bgn, uop_end), accumulating into acc (int32,
// wrapping) and writing the truncated int8 result of every touched row to out.
// Callers have already checked every index the loops form against the SRAM
// depths, so kernels do no bounds checks. Layouts: inp[s][b][i], wgt[w][o][i],
// acc[a][b][o], out[a][b][o], row-major.
#pragma once

#include <cstdint>

#include "isa/insn.h"

namespace tandem::sim {

struct GemmKernelArgs {
  const isa::Uop* uops = nullptr;  // the whole uop SRAM
  std::uint32_t uop_bgn = 0, uop_end = 0, iter_out = 0, iter_in = 0;
  std::uint32_t dst_out = 0, dst_in = 0, src_out = 0, src_in = 0, wgt_out = 0, wgt_in = 0;
  std::int32_t* acc = nullptr;
  std::int8_t* out = nullptr;
  const std::int8_t* inp = nullptr;
  const std::int8_t* wgt = nullptr;
  int batch = 1, block_in = 1, block_out = 1;
};

using GemmKernel = void (*)(const GemmKernelArgs&);

// Portable kernel for any block shape.
void gemm_kernel_scalar(const GemmKernelArgs& a);

#if defined(__x86_64__) || defined(__i386__)
// AVX2 kernels; only call when host_has_avx2(). block_out must be a multiple
// of 8; gemm_kernel_avx2_bi8 needs block_in == 8, gemm_kernel_avx2_bi16n a
// multiple of 16.
void gemm_kernel_avx2_bi8(const GemmKernelArgs& a);
void gemm_kernel_avx2_bi16n(const GemmKernelArgs& a);
#endif

bool host_has_avx2();

// The fastest kernel for this block shape (scalar when simd is false or the
// host lacks AVX2).
GemmKernel select_gemm_kernel(int batch, int block_in, int block_out, bool simd);

}  // namespace tandem::sim
