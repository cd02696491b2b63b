// Blocked int8 GEMM programs for any HwConfig.
//
// Computes C[m][n] (int8) = R(sum_l A[m][l] * B[n][l]) where R is plain
// two's-complement narrowing of the int32 accumulator, or, with
// `requantize`, clamp(acc >> shift, clip_lo, clip_hi) (ALU SHR, MIN, MAX).
// A is m x k, B is n x k (B transposed, like weights), both int8.
//
// DRAM buffers (packed with the helpers below, see driver/packing.h):
//   "A": [ceil(m/B)][ceil(k/BI)] inp elements     (activations, N=m, C=k)
//   "B": [ceil(n/BO)][ceil(k/BI)] wgt elements    (weights, O=n, I=k)
//   "C": [ceil(m/B)][ceil(n/BO)] out elements     (output, N=m, C=n)
// Tiling: the output is cut into tm x tn blocks, K into tk blocks, chosen to
// fit inp/wgt/acc (divided by the number of virtual threads) and to minimise
// DRAM traffic and instruction count. With 2 virtual threads the inp/wgt
// SRAMs are used as two ping-pong halves per K step and acc/out as two
// halves per output tile; load->compute, compute->load, compute->store and
// store->compute tokens let load, compute and store of neighbouring steps
// overlap. Every token pushed is popped (the program ends with empty queues).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "driver/runtime.h"
#include "isa/device.h"
#include "isa/hw_config.h"
#include "isa/program.h"

namespace tandem::driver {

struct GemmSpec {
  int m = 0, n = 0, k = 0;
  int vthreads = 1;         // 1 or 2
  bool requantize = false;  // else C = narrow(acc)
  int shift = 0;            // SHR amount (negative = left), |shift| < 2^15
  int clip_lo = -128, clip_hi = 127;
  // Tile sizes in blocks (rows of BATCH, columns of BLOCK_OUT, K steps of
  // BLOCK_IN); 0 = choose automatically. Must fit the SRAM halves.
  int tile_m = 0, tile_n = 0, tile_k = 0;
};

struct GemmTiling {
  int mo = 0, no = 0, ko = 0;  // matrix sizes in blocks
  int tm = 0, tn = 0, tk = 0;  // tile sizes in blocks
  int tiles_m() const { return (mo + tm - 1) / tm; }
  int tiles_n() const { return (no + tn - 1) / tn; }
  int tiles_k() const { return (ko + tk - 1) / tk; }
};

struct GemmProgram {
  GemmSpec spec;
  GemmTiling tiling;
  isa::Program program;
  std::uint64_t bytes_a = 0, bytes_b = 0, bytes_c = 0;
  std::uint64_t macs = 0;         // m * n * k
  std::uint64_t padded_macs = 0;  // what the hardware executes, incl. block padding
  std::uint64_t uop_loads = 0;    // uop LOADs emitted (kernel cache misses)
};

// Checks the spec (positive sizes, vthreads 1|2, imm ranges, tiles) and
// returns the tiling (explicit tiles validated, zeros chosen).
GemmTiling choose_gemm_tiling(const HwConfig& cfg, const GemmSpec& spec);
// Builds the program (buffers "A", "B", "C").
GemmProgram build_gemm_program(const HwConfig& cfg, const GemmSpec& spec);

// Host-side layout helpers for the three buffers.
std::vector<std::int8_t> pack_gemm_a(const HwConfig& cfg, std::span<const std::int8_t> a, int m,
                                     int k);
std::vector<std::int8_t> pack_gemm_b(const HwConfig& cfg, std::span<const std::int8_t> b, int n,
                                     int k);
std::vector<std::int8_t> unpack_gemm_c(const HwConfig& cfg, std::span<const std::int8_t> c, int m,
                                       int n);
// The host_cpu result the program must reproduce bit for bit.
std::vector<std::int8_t> reference_gemm(const GemmSpec& spec, std::span<const std::int8_t> a,
                                        std::span<const std::int8_t> b);

struct GemmRun {
  std::vector<std::int8_t> c;  // m x n, unpacked
  isa::Stats stats;
  double run_seconds = 0;  // wall time of Runtime::run() only
};
// Packs A and B, (re)allocates tensors "A", "B", "C" on the runtime when
// missing or too small, runs the program and unpacks C.
GemmRun run_gemm(Runtime& rt, const GemmProgram& gp, std::span<const std::int8_t> a,
                 std::span<const std::int8_t> b);

}  // namespace tandem::driver
