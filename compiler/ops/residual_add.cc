// Residual add: tensor expression and schedule (see residual_add.h).
#include "compiler/ops/residual_add.h"

#include <sstream>

#include "compiler/ops/epilogue.h"
#include "isa/error.h"

namespace tandem::ops {
namespace {

void check_shape(const TensorShape& s) {
  TANDEM_CHECK(s.n >= 1 && s.c >= 1 && s.h >= 1 && s.w >= 1,
               "shape " << s.to_string() << ": every size must be >= 1");
  TANDEM_CHECK(static_cast<std::uint64_t>(s.h) * s.w <= 1u << 20 && s.c <= 65536 && s.n <= 4096,
               "shape " << s.to_string() << " is too large");
}

std::uint64_t add_acc_elems(const EltwiseSchedule& t) {
  // a and b tiles; the sum and the epilogue run in place on a's tile.
  return static_cast<std::uint64_t>(t.vthreads) * 2 * t.tile_c * t.tile_h * t.tile_w;
}

}  // namespace

std::string TensorShape::to_string() const {
  std::ostringstream o;
  o << "n" << n << " c" << c << " " << h << "x" << w;
  return o.str();
}

EltwiseSchedule default_residual_add_schedule(const HwConfig& cfg, const TensorShape& s,
                                              const Epilogue& epi, int vthreads) {
  (void)epi;
  check_shape(s);
  const int cb = (s.c + cfg.block_out - 1) / cfg.block_out;
  EltwiseSchedule best;
  std::uint64_t best_elems = 0;
  for (int tc = 1; tc <= cb; ++tc) {
    if (cb % tc != 0 || (cb / tc) % vthreads != 0) continue;
    for (int th = 1; th <= s.h; ++th) {
      if (s.h % th != 0) continue;
      for (int tw = 1; tw <= s.w; ++tw) {
        if (s.w % tw != 0 || th * tw > 16383) continue;
        EltwiseSchedule t{tc, th, tw, vthreads};
        const std::uint64_t e = add_acc_elems(t);
        if (e <= cfg.acc_depth && e > best_elems) best_elems = e, best = t;
      }
    }
  }
  TANDEM_CHECK(best_elems > 0, "residual add: no tiling of " << s.to_string() << " with "
                                                             << vthreads
                                                             << " virtual threads fits");
  return best;
}

CompiledOp compile_residual_add(const HwConfig& cfg, const TensorShape& sh, const Epilogue& epi,
                                const EltwiseSchedule& sch, const CompileOptions& opts) {
  check_shape(sh);
  epi.validate();
  TANDEM_CHECK(!epi.bias, "residual add: no bias (add it to one operand)");
  const int B = cfg.batch, BO = cfg.block_out;
  const int nb = (sh.n + B - 1) / B, cb = (sh.c + BO - 1) / BO;
  check_eltwise_tiles("residual add", sch, cb, sh.h, sh.w);
  const std::uint64_t need = add_acc_elems(sch);
  TANDEM_CHECK(need <= cfg.acc_depth, "residual add schedule "
                                          << sch.to_string() << ": the acc tiles need " << need
                                          << " elements but the acc SRAM of config '" << cfg.name
                                          << "' holds " << cfg.acc_depth
                                          << "; shrink tile_c, tile_h or tile_w");
  using ir::DType;
  using te::Var;
  const std::vector<ir::Expr> shape = {nb, cb, sh.h, sh.w, B, BO};
  te::Tensor a = te::placeholder(shape, DType::kInt32, "a");
  te::Tensor b = te::placeholder(shape, DType::kInt32, "b");
  te::Tensor sum = te::compute(shape,
                               [&](Var n, Var c, Var y, Var x, Var bb, Var o) {
                                 return a(n, c, y, x, bb, o) + b(n, c, y, x, bb, o);
                               },
                               "add", {"n", "c", "y", "x", "b", "o"});
  EpilogueTensors e = make_epilogue(sum, shape, 1, epi, cb, B, BO);
  te::Schedule s = te::create_schedule({e.res});
  te::Tensor ca = s.cache_read(a, "acc", {sum});
  te::Tensor cbuf = s.cache_read(b, "acc", {sum});
  te::Stage sr = s[e.res];
  te::IterVar attach = tile_eltwise_output(sr, sch);
  for (const te::Tensor& t : {ca, cbuf}) {
    s[t].compute_at(sr, attach);
    s[t].pragma(s[t].axis(0), "dma_copy");
  }
  s[sum].set_scope("acc");
  s[sum].compute_at(sr, attach);
  s[sum].pragma(s[sum].axis(0), "alu");
  schedule_epilogue(s, e, sum, sr, attach);
  return build_op("residual_add", s, {a, b, e.res}, cfg, opts);
}

}  // namespace tandem::ops
