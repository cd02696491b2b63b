// conv2d schedules: feasibility check and the default tile chooser
// (see conv2d.h). The SRAM footprints mirror what bound inference derives for
// the schedule built in conv2d.cc, so a schedule accepted here also passes
// the accelerator's own capacity check (compiler/accel/sram_alloc.h).
#include <algorithm>
#include <limits>
#include <vector>

#include "compiler/ops/conv2d.h"
#include "isa/error.h"

namespace tandem::ops {
namespace {

struct Footprint {
  std::uint64_t inp = 0, wgt = 0, acc = 0;  // SRAM elements, all virtual threads
  std::uint64_t gemm_uops = 0;              // micro-ops of one GEMM kernel
};

struct Dims {
  int nb, cib, cob, oh, ow;
};

Dims dims(const HwConfig& cfg, const Conv2dShape& s) {
  return Dims{(s.n + cfg.batch - 1) / cfg.batch, (s.ci + cfg.block_in - 1) / cfg.block_in,
              (s.co + cfg.block_out - 1) / cfg.block_out, s.oh(), s.ow()};
}

Footprint footprint(const Conv2dShape& s, const Epilogue& epi, const Conv2dSchedule& t) {
  Footprint f;
  const std::uint64_t vt = static_cast<std::uint64_t>(t.vthreads);
  const std::uint64_t ih = static_cast<std::uint64_t>(t.tile_h - 1) * s.stride_h + s.kh;
  const std::uint64_t iw = static_cast<std::uint64_t>(t.tile_w - 1) * s.stride_w + s.kw;
  f.inp = vt * t.tile_ci * ih * iw;
  f.wgt = vt * static_cast<std::uint64_t>(t.tile_co) * t.tile_ci * s.kh * s.kw;
  f.acc = vt * (static_cast<std::uint64_t>(t.tile_co) * t.tile_h * t.tile_w +
                (epi.bias ? static_cast<std::uint64_t>(t.tile_co) : 0));
  // GEMM kernel loops (co, y, x, ci, kh, kw): the two largest are folded.
  std::vector<std::uint64_t> ext = {
      static_cast<std::uint64_t>(t.tile_co), static_cast<std::uint64_t>(t.tile_h),
      static_cast<std::uint64_t>(t.tile_w),  static_cast<std::uint64_t>(t.tile_ci),
      static_cast<std::uint64_t>(s.kh),      static_cast<std::uint64_t>(s.kw)};
  std::sort(ext.begin(), ext.end());
  f.gemm_uops = 1;
  for (std::size_t k = 0; k + 2 < ext.size(); ++k) f.gemm_uops *= ext[k];
  return f;
}

std::vector<int> divisors(int n) {
  std::vector<int> d;
  for (int k = 1; k <= n; ++k)
    if (n % k == 0) d.push_back(k);
  return d;
}

}  // namespace

void check_conv2d_schedule(const HwConfig& cfg, const Conv2dShape& s, const Epilogue& epi,
                           const Conv2dSchedule& t) {
  const Dims d = dims(cfg, s);
  auto divides = [](int tile, int extent, const char* name, const char* what) {
    TANDEM_CHECK(tile >= 1 && extent % tile == 0, "conv2d schedule: " << name << " = " << tile
                                                                      << " must divide " << what
                                                                      << " = " << extent);
  };
  TANDEM_CHECK(t.vthreads == 1 || t.vthreads == 2,
               "conv2d schedule: vthreads = " << t.vthreads << " must be 1 or 2");
  divides(t.tile_h, d.oh, "tile_h", "the output height");
  divides(t.tile_w, d.ow, "tile_w", "the output width");
  divides(t.tile_ci, d.cib, "tile_ci", "the input-channel blocks");
  divides(t.tile_co, d.cob, "tile_co", "the output-channel blocks");
  if (t.vthreads > 1) {
    if (t.vthread_axis == VThreadAxis::kCo)
      TANDEM_CHECK((d.cob / t.tile_co) % t.vthreads == 0,
                   "conv2d schedule: " << t.vthreads << " virtual threads on co need an even "
                                       << "number of co tiles, got " << d.cob / t.tile_co
                                       << " (tile_co = " << t.tile_co << ")");
    else
      TANDEM_CHECK((d.oh / t.tile_h) % t.vthreads == 0,
                   "conv2d schedule: " << t.vthreads << " virtual threads on h need an even "
                                       << "number of row tiles, got " << d.oh / t.tile_h
                                       << " (tile_h = " << t.tile_h << ")");
  }
  const Footprint f = footprint(s, epi, t);
  auto fits = [&](std::uint64_t need, std::uint32_t depth, std::uint32_t eb, const char* buf,
                  const char* shrink) {
    TANDEM_CHECK(need <= depth, "conv2d schedule "
                                    << t.to_string() << ": the " << buf << " tiles need " << need
                                    << " elements (" << need * eb << " bytes) but the " << buf
                                    << " SRAM of config '" << cfg.name << "' holds " << depth
                                    << " (" << static_cast<std::uint64_t>(depth) * eb
                                    << " bytes); shrink " << shrink);
  };
  fits(f.inp, cfg.inp_depth, cfg.inp_elem_bytes, "inp", "tile_h, tile_w or tile_ci");
  fits(f.wgt, cfg.wgt_depth, cfg.wgt_elem_bytes, "wgt", "tile_co or tile_ci");
  fits(f.acc, cfg.acc_depth, cfg.acc_elem_bytes, "acc", "tile_co, tile_h or tile_w");
  TANDEM_CHECK(f.gemm_uops <= cfg.uop_depth,
               "conv2d schedule " << t.to_string() << ": the GEMM kernel needs " << f.gemm_uops
                                  << " micro-ops but the uop SRAM of config '" << cfg.name
                                  << "' holds " << cfg.uop_depth
                                  << "; shrink tile_co, tile_ci, tile_h or tile_w");
}

Conv2dSchedule default_conv2d_schedule(const HwConfig& cfg, const Conv2dShape& s,
                                       const Epilogue& epi, int vthreads) {
  s.validate();
  TANDEM_CHECK(vthreads == 1 || vthreads == 2,
               "conv2d: vthreads = " << vthreads << " must be 1 or 2");
  const Dims d = dims(cfg, s);
  Conv2dSchedule best;
  double best_cost = std::numeric_limits<double>::infinity();
  std::uint64_t best_acc = 0;
  std::vector<VThreadAxis> axes = {VThreadAxis::kCo};
  if (vthreads > 1) axes.push_back(VThreadAxis::kH);
  for (VThreadAxis ax : axes)
    for (int tco : divisors(d.cob))
      for (int th : divisors(d.oh))
        for (int tw : divisors(d.ow))
          for (int tci : divisors(d.cib)) {
            Conv2dSchedule t{th, tw, tci, tco, vthreads, ax};
            if (vthreads > 1) {
              if (ax == VThreadAxis::kCo && (d.cob / tco) % vthreads != 0) continue;
              if (ax == VThreadAxis::kH && (d.oh / th) % vthreads != 0) continue;
            }
            const Footprint f = footprint(s, epi, t);
            if (f.inp > cfg.inp_depth || f.wgt > cfg.wgt_depth || f.acc > cfg.acc_depth) continue;
            // Leave room in the uop cache for every thread's kernels.
            if (f.gemm_uops * static_cast<std::uint64_t>(vthreads) > cfg.uop_depth / 2) continue;
            if (tw > 16383 || th * tw > 16383) continue;
            // Cost: DRAM bytes moved plus a fixed overhead per instruction.
            const double tiles =
                static_cast<double>(d.nb) * (d.cob / tco) * (d.oh / th) * (d.ow / tw);
            const double ih = (th - 1.0) * s.stride_h + s.kh, iw = (tw - 1.0) * s.stride_w + s.kw;
            const double steps = static_cast<double>(d.cib) / tci;
            const double inp_bytes = tiles * d.cib * ih * iw * cfg.inp_elem_bytes;
            const double wgt_bytes =
                tiles * tco * static_cast<double>(d.cib) * s.kh * s.kw * cfg.wgt_elem_bytes;
            const double insns = tiles * (steps * (tci + 2) + 6);
            const double cost = inp_bytes + wgt_bytes + 256.0 * insns;
            const std::uint64_t acc = f.acc;
            if (cost < best_cost || (cost == best_cost && acc > best_acc)) {
              best_cost = cost;
              best_acc = acc;
              best = t;
            }
          }
  TANDEM_CHECK(best_cost < std::numeric_limits<double>::infinity(),
               "conv2d: no tiling of " << s.to_string() << " with " << vthreads
                                       << " virtual thread(s) fits the SRAMs of config '"
                                       << cfg.name << "'");
  return best;
}

}  // namespace tandem::ops
