// dense: tensor expression, schedule, checks and default chooser (see dense.h).
#include "compiler/ops/dense.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <vector>

#include "compiler/ops/epilogue.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/te.h"
#include "isa/error.h"
#include "tensorize/intrinsic.h"

namespace tandem::ops {
namespace {

struct DenseDims {
  int nb, cib, cob;
};

DenseDims dense_dims(const HwConfig& cfg, const DenseShape& s) {
  return {(s.n + cfg.batch - 1) / cfg.batch, (s.ci + cfg.block_in - 1) / cfg.block_in,
          (s.co + cfg.block_out - 1) / cfg.block_out};
}

struct DenseFoot {
  std::uint64_t inp, wgt, acc, uops;
};

DenseFoot dense_foot(const Epilogue& epi, const DenseSchedule& t) {
  const std::uint64_t vt = static_cast<std::uint64_t>(t.vthreads);
  DenseFoot f;
  f.inp = vt * static_cast<std::uint64_t>(t.tile_n) * t.tile_ci;
  f.wgt = vt * static_cast<std::uint64_t>(t.tile_co) * t.tile_ci;
  f.acc = vt * (static_cast<std::uint64_t>(t.tile_n) * t.tile_co + (epi.bias ? t.tile_co : 0));
  std::vector<std::uint64_t> ext = {static_cast<std::uint64_t>(t.tile_n),
                                    static_cast<std::uint64_t>(t.tile_co),
                                    static_cast<std::uint64_t>(t.tile_ci)};
  std::sort(ext.begin(), ext.end());
  f.uops = ext[0];
  return f;
}

std::vector<int> divisors_of(int n) {
  std::vector<int> d;
  for (int k = 1; k <= n; ++k)
    if (n % k == 0) d.push_back(k);
  return d;
}

}  // namespace

void DenseShape::validate() const {
  TANDEM_CHECK(n >= 1 && ci >= 1 && co >= 1,
               "dense: sizes n=" << n << " ci=" << ci << " co=" << co << " must be >= 1");
  TANDEM_CHECK(n <= 65536 && ci <= 1 << 20 && co <= 1 << 20,
               "dense: shape " << to_string() << " is too large");
  const double work = static_cast<double>(n) * ci * co;
  TANDEM_CHECK(work <= 17179869184.0, "dense: " << to_string() << " has " << work
                                                << " MACs, more than the 2^34 this flow "
                                                   "accepts in one operator");
}

std::string DenseShape::to_string() const {
  std::ostringstream s;
  s << "n" << n << " ci" << ci << " co" << co;
  return s.str();
}

std::string DenseSchedule::to_string() const {
  std::ostringstream s;
  s << "tile_n=" << tile_n << " tile_ci=" << tile_ci << " tile_co=" << tile_co
    << " vthreads=" << vthreads;
  return s.str();
}

void check_dense_schedule(const HwConfig& cfg, const DenseShape& s, const Epilogue& epi,
                          const DenseSchedule& t) {
  const DenseDims d = dense_dims(cfg, s);
  auto divides = [](int tile, int extent, const char* name, const char* what) {
    TANDEM_CHECK(tile >= 1 && extent % tile == 0, "dense schedule: " << name << " = " << tile
                                                                     << " must divide " << what
                                                                     << " = " << extent);
  };
  TANDEM_CHECK(t.vthreads == 1 || t.vthreads == 2,
               "dense schedule: vthreads = " << t.vthreads << " must be 1 or 2");
  divides(t.tile_n, d.nb, "tile_n", "the batch blocks");
  divides(t.tile_ci, d.cib, "tile_ci", "the input-channel blocks");
  divides(t.tile_co, d.cob, "tile_co", "the output-channel blocks");
  TANDEM_CHECK((d.cob / t.tile_co) % t.vthreads == 0,
               "dense schedule: " << t.vthreads << " virtual threads need an even number of co "
                                  << "tiles, got " << d.cob / t.tile_co);
  const DenseFoot f = dense_foot(epi, t);
  auto fits = [&](std::uint64_t need, std::uint32_t depth, const char* buf, const char* shrink) {
    TANDEM_CHECK(need <= depth, "dense schedule " << t.to_string() << ": the " << buf
                                                  << " tiles need " << need << " elements but the "
                                                  << buf << " SRAM of config '" << cfg.name
                                                  << "' holds " << depth << "; shrink " << shrink);
  };
  fits(f.inp, cfg.inp_depth, "inp", "tile_n or tile_ci");
  fits(f.wgt, cfg.wgt_depth, "wgt", "tile_co or tile_ci");
  fits(f.acc, cfg.acc_depth, "acc", "tile_n or tile_co");
  fits(f.uops, cfg.uop_depth, "uop", "tile_n, tile_co or tile_ci");
}

DenseSchedule default_dense_schedule(const HwConfig& cfg, const DenseShape& s, const Epilogue& epi,
                                     int vthreads) {
  s.validate();
  TANDEM_CHECK(vthreads == 1 || vthreads == 2,
               "dense: vthreads = " << vthreads << " must be 1 or 2");
  const DenseDims d = dense_dims(cfg, s);
  DenseSchedule best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int tn : divisors_of(d.nb))
    for (int tco : divisors_of(d.cob))
      for (int tci : divisors_of(d.cib)) {
        DenseSchedule t{tn, tci, tco, vthreads};
        if ((d.cob / tco) % vthreads != 0) continue;
        const DenseFoot f = dense_foot(epi, t);
        if (f.inp > cfg.inp_depth || f.wgt > cfg.wgt_depth || f.acc > cfg.acc_depth) continue;
        if (f.uops * static_cast<std::uint64_t>(vthreads) > cfg.uop_depth / 2) continue;
        if (tn > 16383 || tco > 16383 || tci > 16383) continue;
        const double tiles = static_cast<double>(d.nb / tn) * (d.cob / tco);
        const double bytes = tiles * (static_cast<double>(tn) * d.cib * cfg.inp_elem_bytes +
                                      static_cast<double>(tco) * d.cib * cfg.wgt_elem_bytes);
        const double insns = tiles * ((d.cib / tci) * 3.0 + 6);
        const double cost = bytes + 256.0 * insns;
        if (cost < best_cost) best_cost = cost, best = t;
      }
  TANDEM_CHECK(
      best_cost < std::numeric_limits<double>::infinity(),
      "dense: no tiling of " << s.to_string() << " fits the SRAMs of config '" << cfg.name << "'");
  return best;
}

CompiledOp compile_dense(const HwConfig& cfg, const DenseShape& sh, const Epilogue& epi,
                         const DenseSchedule& sch, const CompileOptions& opts) {
  sh.validate();
  epi.validate();
  check_dense_schedule(cfg, sh, epi, sch);
  using ir::DType;
  using te::Var;
  const int B = cfg.batch, BI = cfg.block_in, BO = cfg.block_out;
  const DenseDims d = dense_dims(cfg, sh);
  te::Tensor data = te::placeholder({d.nb, d.cib, B, BI}, DType::kInt8, "data");
  te::Tensor weight = te::placeholder({d.cob, d.cib, BO, BI}, DType::kInt8, "weight");
  te::IterVar ric = te::reduce_axis(d.cib, "ric"), rbi = te::reduce_axis(BI, "rbi");
  const std::vector<ir::Expr> oshape = {d.nb, d.cob, B, BO};
  te::Tensor mm = te::compute(oshape,
                              [&](Var n, Var co, Var b, Var o) {
                                return te::sum(te::cast(DType::kInt32, data(n, ric, b, rbi)) *
                                                   te::cast(DType::kInt32, weight(co, ric, o, rbi)),
                                               {ric, rbi});
                              },
                              "dense", {"n", "co", "b", "o"});
  EpilogueTensors e = make_epilogue(mm, oshape, 1, epi, d.cob, B, BO);

  te::Schedule s = te::create_schedule({e.res});
  te::Tensor cdata = s.cache_read(data, "inp", {mm});
  te::Tensor cw = s.cache_read(weight, "wgt", {mm});
  s[mm].set_scope("acc");
  te::Stage sr = s[e.res];
  auto [n_o, n_i] = sr.split(sr.axis(0), sch.tile_n);
  auto [co_o, co_i] = sr.split(sr.axis(1), sch.tile_co);
  te::IterVar attach = co_o;
  if (sch.vthreads > 1) {
    auto [co_oo, co_vt] = sr.split(co_o, sch.vthreads);
    sr.reorder({n_o, co_oo, co_vt, n_i, co_i});
    sr.bind_vthread(co_vt);
    attach = co_vt;
  } else {
    sr.reorder({n_o, co_o, n_i, co_i});
  }
  sr.pragma(n_i, "dma_copy");
  s[mm].compute_at(sr, attach);
  schedule_epilogue(s, e, mm, sr, attach);
  te::Stage sm = s[mm];
  auto [ric_o, ric_i] = sm.split(sm.reduce_axis(0), sch.tile_ci);
  sm.reorder({ric_o, sm.axis(0), sm.axis(1), ric_i, sm.axis(2), sm.axis(3), sm.reduce_axis(1)});
  sm.tensorize(sm.axis(2), tensorize::make_gemm(cfg));
  s[cdata].compute_at(sm, ric_o);
  s[cw].compute_at(sm, ric_o);
  s[cdata].pragma(s[cdata].axis(0), "dma_copy");
  s[cw].pragma(s[cw].axis(0), "dma_copy");
  std::vector<te::Tensor> args = {data, weight};
  if (epi.bias) args.push_back(e.bias);
  args.push_back(e.res);
  return build_op("dense", s, args, cfg, opts);
}

}  // namespace tandem::ops
