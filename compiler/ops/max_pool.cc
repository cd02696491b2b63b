// Max pooling: tensor expression and schedule (see max_pool.h).
#include "compiler/ops/max_pool.h"

#include <sstream>

#include "compiler/ops/epilogue.h"
#include "isa/error.h"

namespace tandem::ops {
namespace {

std::uint64_t pool_acc_elems(const PoolShape& s, const EltwiseSchedule& t) {
  const std::uint64_t ih = static_cast<std::uint64_t>(t.tile_h - 1) * s.stride + s.k;
  const std::uint64_t iw = static_cast<std::uint64_t>(t.tile_w - 1) * s.stride + s.k;
  return static_cast<std::uint64_t>(t.vthreads) * t.tile_c * (ih * iw + t.tile_h * t.tile_w);
}

}  // namespace

void PoolShape::validate() const {
  TANDEM_CHECK(in.n >= 1 && in.c >= 1 && in.h >= 1 && in.w >= 1,
               "max pool: input " << in.to_string() << ": every size must be >= 1");
  TANDEM_CHECK(k >= 1 && stride >= 1 && pad >= 0, "max pool: window "
                                                      << k << ", stride " << stride << ", pad "
                                                      << pad << " must be >= 1, >= 1, >= 0");
  TANDEM_CHECK(pad <= 15, "max pool: padding " << pad << " exceeds 15, the most a LOAD can insert");
  TANDEM_CHECK(k <= in.h + 2 * pad && k <= in.w + 2 * pad,
               "max pool: window " << k << " is larger than the padded input");
  TANDEM_CHECK(static_cast<std::uint64_t>(in.h) * in.w <= 1u << 20 && in.c <= 65536,
               "max pool: input " << in.to_string() << " is too large");
}

std::string PoolShape::to_string() const {
  std::ostringstream o;
  o << in.to_string() << " k" << k << " s" << stride << " p" << pad;
  return o.str();
}

EltwiseSchedule default_max_pool_schedule(const HwConfig& cfg, const PoolShape& s, int vthreads) {
  s.validate();
  const int cb = (s.in.c + cfg.block_out - 1) / cfg.block_out;
  EltwiseSchedule best;
  std::uint64_t best_out = 0;
  for (int tc = 1; tc <= cb; ++tc) {
    if (cb % tc != 0 || (cb / tc) % vthreads != 0) continue;
    for (int th = 1; th <= s.oh(); ++th) {
      if (s.oh() % th != 0) continue;
      for (int tw = 1; tw <= s.ow(); ++tw) {
        if (s.ow() % tw != 0 || th * tw > 16383) continue;
        EltwiseSchedule t{tc, th, tw, vthreads};
        const std::uint64_t out = static_cast<std::uint64_t>(tc) * th * tw;
        if (pool_acc_elems(s, t) <= cfg.acc_depth && out > best_out) best_out = out, best = t;
      }
    }
  }
  TANDEM_CHECK(best_out > 0, "max pool: no tiling of " << s.to_string() << " fits");
  return best;
}

CompiledOp compile_max_pool(const HwConfig& cfg, const PoolShape& sh, const Epilogue& epi,
                            const EltwiseSchedule& sch, const CompileOptions& opts) {
  sh.validate();
  epi.validate();
  TANDEM_CHECK(!epi.bias, "max pool: no bias");
  const int B = cfg.batch, BO = cfg.block_out;
  const int nb = (sh.in.n + B - 1) / B, cb = (sh.in.c + BO - 1) / BO;
  const int OH = sh.oh(), OW = sh.ow(), p = sh.pad;
  check_eltwise_tiles("max pool", sch, cb, OH, OW);
  const std::uint64_t need = pool_acc_elems(sh, sch);
  TANDEM_CHECK(need <= cfg.acc_depth, "max pool schedule "
                                          << sch.to_string() << ": the acc tiles need " << need
                                          << " elements but the acc SRAM of config '" << cfg.name
                                          << "' holds " << cfg.acc_depth
                                          << "; shrink tile_c, tile_h or tile_w");
  using ir::DType;
  using te::Var;
  te::Tensor data = te::placeholder({nb, cb, sh.in.h, sh.in.w, B, BO}, DType::kInt32, "data");
  te::Tensor dpad = data;
  if (p > 0) {
    dpad = te::compute(
        {nb, cb, sh.in.h + 2 * p, sh.in.w + 2 * p, B, BO},
        [&](Var n, Var c, Var y, Var x, Var b, Var o) {
          return te::if_then_else(y >= p && y < sh.in.h + p && x >= p && x < sh.in.w + p,
                                  data(n, c, y - p, x - p, b, o), ir::make_const(DType::kInt32, 0));
        },
        "data_pad");
  }
  te::IterVar ky = te::reduce_axis(sh.k, "ky"), kx = te::reduce_axis(sh.k, "kx");
  const std::vector<ir::Expr> oshape = {nb, cb, OH, OW, B, BO};
  te::Tensor pool = te::compute(
      oshape,
      [&](Var n, Var c, Var y, Var x, Var b, Var o) {
        return te::reduce_max(dpad(n, c, y * sh.stride + ky, x * sh.stride + kx, b, o), {ky, kx});
      },
      "pool", {"n", "c", "y", "x", "b", "o"});
  EpilogueTensors e = make_epilogue(pool, oshape, 1, epi, cb, B, BO);
  te::Schedule s = te::create_schedule({e.res});
  te::Tensor cdata = s.cache_read(dpad, "acc", {pool});
  if (p > 0) s[dpad].compute_inline();
  te::Stage sr = s[e.res];
  te::IterVar attach = tile_eltwise_output(sr, sch);
  s[cdata].compute_at(sr, attach);
  s[cdata].pragma(s[cdata].axis(0), "dma_copy");
  s[pool].set_scope("acc");
  s[pool].compute_at(sr, attach);
  s[pool].pragma(s[pool].axis(0), "alu");
  schedule_epilogue(s, e, pool, sr, attach);
  return build_op("max_pool", s, {data, e.res}, cfg, opts);
}

}  // namespace tandem::ops
