// Blocked int8 GEMM program builder and host helpers (see gemm_program.h).
#include "driver/gemm_program.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <set>

#include "driver/packing.h"
#include "host_cpu/reference.h"
#include "isa/error.h"
#include "isa/layout.h"
#include "isa/program_builder.h"

namespace tandem::driver {
namespace {

using isa::AluOp;
using isa::KernelLoop;
using isa::KernelOp;
using isa::MemType;
using isa::Module;

constexpr int kMaxDma = 65535;                       // x_size / y_size / x_stride field limit
constexpr int kMaxIter = (1 << isa::kIterBits) - 1;  // iter_out / iter_in limit

long long mul(int a, int b) {
  return static_cast<long long>(a) * b;
}

struct Caps {
  int inp, wgt, acc, tk_uop;
};

Caps caps_of(const HwConfig& cfg, int v) {
  Caps c;
  c.inp = static_cast<int>(cfg.inp_depth) / v;
  c.wgt = static_cast<int>(cfg.wgt_depth) / v;
  c.acc = static_cast<int>(cfg.acc_depth) / v;
  // Up to 2 K-tile sizes x V inp halves x V acc halves GEMM kernels of tk
  // micro-ops, plus 2V one-micro-op reset/ALU kernels, stay resident.
  c.tk_uop = std::max(1, (static_cast<int>(cfg.uop_depth) - 2 * v) / (2 * v * v));
  return c;
}

// Distinct values of ceil(total / d) for d = 1..total, descending.
std::vector<int> split_sizes(int total) {
  std::set<int> s;
  for (int d = 1; d <= total; ++d) {
    const int v = (total + d - 1) / d;
    s.insert(v);
    if (v == 1) break;
  }
  return {s.rbegin(), s.rend()};
}

void check_spec(const GemmSpec& s) {
  TANDEM_CHECK(s.m > 0 && s.n > 0 && s.k > 0,
               "GEMM shape m=" << s.m << " n=" << s.n << " k=" << s.k << " must be positive");
  TANDEM_CHECK(s.vthreads == 1 || s.vthreads == 2,
               "GEMM vthreads " << s.vthreads << " must be 1 or 2");
  if (s.requantize) {
    TANDEM_CHECK(s.shift >= -32768 && s.shift <= 32767,
                 "GEMM requantize shift " << s.shift << " does not fit the 16-bit immediate");
    TANDEM_CHECK(s.clip_lo >= -32768 && s.clip_hi <= 32767 && s.clip_lo <= s.clip_hi,
                 "GEMM clip range [" << s.clip_lo << ", " << s.clip_hi
                                     << "] must be non-empty and within the 16-bit immediate");
  }
  TANDEM_CHECK(s.tile_m >= 0 && s.tile_n >= 0 && s.tile_k >= 0,
               "GEMM tile sizes must be >= 0 (0 = automatic)");
}

}  // namespace

GemmTiling choose_gemm_tiling(const HwConfig& cfg, const GemmSpec& s) {
  check_spec(s);
  GemmTiling t;
  t.mo = ceil_div(s.m, cfg.batch);
  t.no = ceil_div(s.n, cfg.block_out);
  t.ko = ceil_div(s.k, cfg.block_in);
  TANDEM_CHECK(t.ko <= kMaxDma && t.no <= kMaxDma,
               "GEMM k=" << s.k << " / n=" << s.n << " give " << t.ko << " / " << t.no
                         << " blocks per row, over the DMA stride limit " << kMaxDma);
  const Caps c = caps_of(cfg, s.vthreads);
  if (s.tile_m || s.tile_n || s.tile_k) {
    t.tm = s.tile_m ? std::min(s.tile_m, t.mo) : 0;
    t.tn = s.tile_n ? std::min(s.tile_n, t.no) : 0;
    t.tk = s.tile_k ? std::min(s.tile_k, t.ko) : 0;
    if (!t.tk)
      t.tk = std::max(
          1, std::min({t.ko, c.tk_uop, c.wgt / std::max(1, t.tn), c.inp / std::max(1, t.tm)}));
    if (!t.tn) t.tn = std::max(1, std::min({t.no, c.wgt / t.tk, kMaxIter}));
    if (!t.tm) t.tm = std::max(1, std::min({t.mo, c.inp / t.tk, c.acc / t.tn, kMaxIter}));
  } else {
    const double eb_inp = cfg.inp_elem_bytes, eb_wgt = cfg.wgt_elem_bytes;
    double best = std::numeric_limits<double>::max();
    for (int tk : split_sizes(t.ko)) {
      if (tk > c.inp || tk > c.wgt || tk > c.tk_uop || tk > kMaxDma) continue;
      for (int tn : split_sizes(t.no)) {
        if (mul(tn, tk) > c.wgt || tn > c.acc || tn > kMaxIter) continue;
        const int tm_max = std::min({t.mo, c.inp / tk, c.acc / tn, kMaxIter});
        if (tm_max < 1) continue;
        const int tm = ceil_div(t.mo, ceil_div(t.mo, tm_max));
        const double tiles_m = ceil_div(t.mo, tm), tiles_n = ceil_div(t.no, tn),
                     tiles_k = ceil_div(t.ko, tk);
        const double bytes =
            double(t.mo) * t.ko * eb_inp * tiles_n + double(t.no) * t.ko * eb_wgt * tiles_m;
        const double insns = tiles_m * tiles_n * (tiles_k * 3 + 4);
        const double cost = bytes + insns * 64;
        if (cost < best) {
          best = cost;
          t.tm = tm;
          t.tn = tn;
          t.tk = tk;
        }
      }
    }
  }
  TANDEM_CHECK(t.tm >= 1 && t.tn >= 1 && t.tk >= 1, "GEMM: no tiling fits config '"
                                                        << cfg.name << "' with " << s.vthreads
                                                        << " virtual threads");
  TANDEM_CHECK(t.tm <= kMaxIter && t.tn <= kMaxIter,
               "GEMM tile " << t.tm << "x" << t.tn << " exceeds the loop limit " << kMaxIter);
  TANDEM_CHECK(mul(t.tm, t.tk) <= c.inp, "GEMM tile " << t.tm << "x" << t.tk << " of A needs "
                                                      << mul(t.tm, t.tk) << " inp elements, the "
                                                      << s.vthreads << "-thread half holds "
                                                      << c.inp);
  TANDEM_CHECK(mul(t.tn, t.tk) <= c.wgt, "GEMM tile " << t.tn << "x" << t.tk << " of B needs "
                                                      << mul(t.tn, t.tk) << " wgt elements, the "
                                                      << s.vthreads << "-thread half holds "
                                                      << c.wgt);
  TANDEM_CHECK(mul(t.tm, t.tn) <= c.acc, "GEMM tile " << t.tm << "x" << t.tn << " of C needs "
                                                      << mul(t.tm, t.tn) << " acc elements, the "
                                                      << s.vthreads << "-thread half holds "
                                                      << c.acc);
  TANDEM_CHECK(t.tk <= static_cast<int>(cfg.uop_depth),
               "GEMM tile_k " << t.tk << " exceeds the uop buffer depth " << cfg.uop_depth);
  return t;
}

GemmProgram build_gemm_program(const HwConfig& cfg, const GemmSpec& spec) {
  GemmProgram gp;
  gp.spec = spec;
  gp.tiling = choose_gemm_tiling(cfg, spec);
  const GemmTiling& t = gp.tiling;
  const int v = spec.vthreads;
  const Caps c = caps_of(cfg, v);
  gp.bytes_a = std::uint64_t(t.mo) * t.ko * cfg.inp_elem_bytes;
  gp.bytes_b = std::uint64_t(t.no) * t.ko * cfg.wgt_elem_bytes;
  gp.bytes_c = std::uint64_t(t.mo) * t.no * cfg.out_elem_bytes;
  gp.macs = std::uint64_t(spec.m) * spec.n * spec.k;
  gp.padded_macs = std::uint64_t(t.mo) * t.no * t.ko * cfg.macs_per_gemm_uop();

  isa::ProgramBuilder b(cfg);
  b.declare_buffer("A", gp.bytes_a);
  b.declare_buffer("B", gp.bytes_b);
  b.declare_buffer("C", gp.bytes_c);

  const int tiles_m = t.tiles_m(), tiles_n = t.tiles_n(), tiles_k = t.tiles_k();
  const long total_tiles = long(tiles_m) * tiles_n;
  const long total_steps = total_tiles * tiles_k;
  long step = 0, tile = 0;
  for (int mt = 0; mt < tiles_m; ++mt) {
    const int m0 = mt * t.tm, tm = std::min(t.tm, t.mo - m0);
    for (int nt = 0; nt < tiles_n; ++nt, ++tile) {
      const int n0 = nt * t.tn, tn = std::min(t.tn, t.no - n0);
      const auto acc_base = static_cast<std::uint32_t>((tile % v) * c.acc);
      const auto utm = static_cast<std::uint32_t>(tm), utn = static_cast<std::uint32_t>(tn);
      // Row-by-row loops over the acc tile acc[i*tn + j] (dst, and src for ALU).
      const KernelLoop rows_out{utm, tm > 1 ? utn : 0, tm > 1 ? utn : 0, 0};
      const KernelLoop rows_in{utn, tn > 1 ? 1u : 0u, tn > 1 ? 1u : 0u, 0};
      const KernelLoop reset_out{utm, rows_out.dst_factor, 0, 0};
      const KernelLoop reset_in{utn, rows_in.dst_factor, 0, 0};
      // The acc/out half is free once the store of tile - v is done.
      if (tile >= v) b.pop_dep(Module::kStore, Module::kCompute);
      b.kernel(KernelOp::gemm_reset(), {reset_out, reset_in}, {{acc_base, 0, 0}});
      for (int kt = 0; kt < tiles_k; ++kt, ++step) {
        const int k0 = kt * t.tk, tk = std::min(t.tk, t.ko - k0);
        const auto inp_base = static_cast<std::uint32_t>((step % v) * c.inp);
        const auto wgt_base = static_cast<std::uint32_t>((step % v) * c.wgt);
        // The inp/wgt half is free once the GEMM of step - v is done.
        if (step >= v) b.pop_dep(Module::kCompute, Module::kLoad);
        b.load(MemType::kInp, inp_base, {"A", std::uint64_t(m0) * t.ko + k0},
               static_cast<std::uint32_t>(tm), static_cast<std::uint32_t>(tk),
               static_cast<std::uint32_t>(t.ko));
        b.load(MemType::kWgt, wgt_base, {"B", std::uint64_t(n0) * t.ko + k0},
               static_cast<std::uint32_t>(tn), static_cast<std::uint32_t>(tk),
               static_cast<std::uint32_t>(t.ko));
        b.push_dep(Module::kLoad, Module::kCompute);
        b.pop_dep(Module::kLoad, Module::kCompute);
        // acc[i*tn + j] += inp[i*tk + kk] . wgt[j*tk + kk]
        const auto utk = static_cast<std::uint32_t>(tk), utn = static_cast<std::uint32_t>(tn);
        const KernelLoop outer{static_cast<std::uint32_t>(tm), tm > 1 ? utn : 0, tm > 1 ? utk : 0,
                               0};
        const KernelLoop inner{utn, tn > 1 ? 1u : 0u, 0, tn > 1 ? utk : 0};
        b.begin_kernel(KernelOp::gemm(), {outer, inner});
        for (std::uint32_t kk = 0; kk < utk; ++kk)
          b.push_uop(acc_base, inp_base + kk, wgt_base + kk);
        b.end_kernel();
        if (step + v < total_steps) b.push_dep(Module::kCompute, Module::kLoad);
      }
      if (spec.requantize) {
        const std::vector<isa::Uop> u = {{acc_base, acc_base, 0}};
        b.kernel(KernelOp::alu_imm(AluOp::kShr, spec.shift), {rows_out, rows_in}, u);
        b.kernel(KernelOp::alu_imm(AluOp::kMin, spec.clip_hi), {rows_out, rows_in}, u);
        b.kernel(KernelOp::alu_imm(AluOp::kMax, spec.clip_lo), {rows_out, rows_in}, u);
      }
      b.push_dep(Module::kCompute, Module::kStore);
      b.pop_dep(Module::kCompute, Module::kStore);
      b.store(acc_base, {"C", std::uint64_t(m0) * t.no + n0}, static_cast<std::uint32_t>(tm),
              static_cast<std::uint32_t>(tn), static_cast<std::uint32_t>(t.no));
      if (tile + v < total_tiles) b.push_dep(Module::kStore, Module::kCompute);
    }
  }
  gp.uop_loads = b.uop_loads();
  gp.program = b.finish();
  return gp;
}

std::vector<std::int8_t> pack_gemm_a(const HwConfig& cfg, std::span<const std::int8_t> a, int m,
                                     int k) {
  return pack_activation(cfg, a, Shape4{m, k, 1, 1});
}

std::vector<std::int8_t> pack_gemm_b(const HwConfig& cfg, std::span<const std::int8_t> b, int n,
                                     int k) {
  return pack_weight(cfg, b, Shape4{n, k, 1, 1});
}

std::vector<std::int8_t> unpack_gemm_c(const HwConfig& cfg, std::span<const std::int8_t> c, int m,
                                       int n) {
  return unpack_output(cfg, c, Shape4{m, n, 1, 1});
}

std::vector<std::int8_t> reference_gemm(const GemmSpec& spec, std::span<const std::int8_t> a,
                                        std::span<const std::int8_t> b) {
  const auto acc = host_cpu::gemm_s8(a, b, spec.m, spec.n, spec.k);
  if (!spec.requantize) return host_cpu::narrow(acc);
  return host_cpu::narrow(host_cpu::shift_requantize(acc, spec.shift, spec.clip_lo, spec.clip_hi));
}

GemmRun run_gemm(Runtime& rt, const GemmProgram& gp, std::span<const std::int8_t> a,
                 std::span<const std::int8_t> b) {
  const GemmSpec& s = gp.spec;
  const HwConfig& cfg = rt.config();
  const auto pa = pack_gemm_a(cfg, a, s.m, s.k);
  const auto pb = pack_gemm_b(cfg, b, s.n, s.k);
  const std::pair<const char*, std::uint64_t> want[] = {
      {"A", gp.bytes_a}, {"B", gp.bytes_b}, {"C", gp.bytes_c}};
  for (const auto& [name, bytes] : want) {
    if (rt.has(name) && rt.tensor(name).bytes >= bytes) continue;
    if (rt.has(name)) rt.free(name);
    rt.allocate(name, bytes);
  }
  rt.write("A", pa.data(), pa.size());
  rt.write("B", pb.data(), pb.size());
  GemmRun r;
  const auto t0 = std::chrono::steady_clock::now();
  r.stats = rt.run(gp.program);
  r.run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<std::int8_t> pc(gp.bytes_c);
  rt.read("C", pc.data(), pc.size());
  r.c = unpack_gemm_c(cfg, pc, s.m, s.n);
  return r;
}

}  // namespace tandem::driver
