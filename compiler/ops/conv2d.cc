// conv2d: tensor expression and schedule (see conv2d.h).
#include "compiler/ops/conv2d.h"

#include <sstream>

#include "compiler/ops/epilogue.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/te.h"
#include "isa/error.h"
#include "tensorize/intrinsic.h"

namespace tandem::ops {

std::uint64_t Conv2dShape::macs() const {
  return static_cast<std::uint64_t>(n) * co * oh() * ow() * ci * kh * kw;
}

void Conv2dShape::validate() const {
  auto pos = [](int v, const char* name) {
    TANDEM_CHECK(v >= 1, "conv2d: " << name << " = " << v << " must be >= 1");
  };
  pos(n, "n"), pos(ci, "ci"), pos(h, "h"), pos(w, "w"), pos(co, "co"), pos(kh, "kh");
  pos(kw, "kw"), pos(stride_h, "stride_h"), pos(stride_w, "stride_w");
  TANDEM_CHECK(pad_h >= 0 && pad_w >= 0,
               "conv2d: padding " << pad_h << "x" << pad_w << " must be >= 0");
  TANDEM_CHECK(pad_h <= 15 && pad_w <= 15, "conv2d: padding "
                                               << pad_h << "x" << pad_w
                                               << " exceeds 15, the most a LOAD can insert");
  TANDEM_CHECK(kh <= h + 2 * pad_h && kw <= w + 2 * pad_w,
               "conv2d: kernel " << kh << "x" << kw << " is larger than the padded input "
                                 << h + 2 * pad_h << "x" << w + 2 * pad_w);
  const std::uint64_t big = 1u << 20;
  TANDEM_CHECK(static_cast<std::uint64_t>(h) * w <= big &&
                   static_cast<std::uint64_t>(ci) <= 65536 &&
                   static_cast<std::uint64_t>(co) <= 65536 && n <= 4096,
               "conv2d: shape " << to_string() << " is too large");
  TANDEM_CHECK(kh <= 64 && kw <= 64, "conv2d: kernel " << kh << "x" << kw << " exceeds 64x64");
  const double work = static_cast<double>(n) * co * oh() * ow() * ci * kh * kw;
  TANDEM_CHECK(work <= 17179869184.0, "conv2d: " << to_string() << " has " << work
                                                 << " MACs, more than the 2^34 "
                                                 << "this flow accepts in one operator");
}

std::string Conv2dShape::to_string() const {
  std::ostringstream s;
  s << "n" << n << " ci" << ci << " " << h << "x" << w << " co" << co << " k" << kh << "x" << kw
    << " s" << stride_h << "x" << stride_w << " p" << pad_h << "x" << pad_w;
  return s.str();
}

std::string Conv2dSchedule::to_string() const {
  std::ostringstream s;
  s << "tile_h=" << tile_h << " tile_w=" << tile_w << " tile_ci=" << tile_ci
    << " tile_co=" << tile_co << " vthreads=" << vthreads;
  if (vthreads > 1) s << " on " << (vthread_axis == VThreadAxis::kCo ? "co" : "h");
  return s.str();
}

CompiledOp compile_conv2d(const HwConfig& cfg, const Conv2dShape& sh, const Epilogue& epi,
                          const Conv2dSchedule& sch, const CompileOptions& opts) {
  sh.validate();
  epi.validate();
  check_conv2d_schedule(cfg, sh, epi, sch);
  using ir::DType;
  using te::Var;
  const int B = cfg.batch, BI = cfg.block_in, BO = cfg.block_out;
  const int nb = (sh.n + B - 1) / B, cib = (sh.ci + BI - 1) / BI, cob = (sh.co + BO - 1) / BO;
  const int OH = sh.oh(), OW = sh.ow();
  const int ph = sh.pad_h, pw = sh.pad_w;

  te::Tensor data = te::placeholder({nb, cib, sh.h, sh.w, B, BI}, DType::kInt8, "data");
  te::Tensor kernel = te::placeholder({cob, cib, sh.kh, sh.kw, BO, BI}, DType::kInt8, "kernel");
  te::Tensor dpad = data;
  const bool padded = ph > 0 || pw > 0;
  if (padded) {
    dpad = te::compute(
        {nb, cib, sh.h + 2 * ph, sh.w + 2 * pw, B, BI},
        [&](Var n, Var c, Var y, Var x, Var b, Var i) {
          ir::Expr cond;
          auto all = [&](ir::Expr e) { cond = cond.defined() ? (cond && e) : e; };
          if (ph > 0) all(y >= ph), all(y < sh.h + ph);
          if (pw > 0) all(x >= pw), all(x < sh.w + pw);
          return te::if_then_else(cond, data(n, c, y - ph, x - pw, b, i),
                                  ir::make_const(DType::kInt8, 0));
        },
        "data_pad");
  }
  te::IterVar ric = te::reduce_axis(cib, "ric"), rkh = te::reduce_axis(sh.kh, "rkh"),
              rkw = te::reduce_axis(sh.kw, "rkw"), rbi = te::reduce_axis(BI, "rbi");
  const std::vector<ir::Expr> oshape = {nb, cob, OH, OW, B, BO};
  te::Tensor conv =
      te::compute(oshape,
                  [&](Var n, Var co, Var y, Var x, Var b, Var o) {
                    return te::sum(te::cast(DType::kInt32, dpad(n, ric, y * sh.stride_h + rkh,
                                                                x * sh.stride_w + rkw, b, rbi)) *
                                       te::cast(DType::kInt32, kernel(co, ric, rkh, rkw, o, rbi)),
                                   {ric, rkh, rkw, rbi});
                  },
                  "conv", {"n", "co", "y", "x", "b", "o"});
  EpilogueTensors e = make_epilogue(conv, oshape, 1, epi, cob, B, BO);

  te::Schedule s = te::create_schedule({e.res});
  te::Tensor cdata = s.cache_read(dpad, "inp", {conv});
  if (padded) s[dpad].compute_inline();
  te::Tensor ckern = s.cache_read(kernel, "wgt", {conv});
  s[conv].set_scope("acc");

  // Output tiles: (n, co_o, y_o, x_o, [vthread], co_i, y_i, x_i, b, o).
  te::Stage sr = s[e.res];
  auto [co_o, co_i] = sr.split(sr.axis(1), sch.tile_co);
  auto [y_o, y_i] = sr.split(sr.axis(2), sch.tile_h);
  auto [x_o, x_i] = sr.split(sr.axis(3), sch.tile_w);
  te::IterVar attach = x_o;
  if (sch.vthreads > 1) {
    if (sch.vthread_axis == VThreadAxis::kCo) {
      auto [co_oo, co_vt] = sr.split(co_o, sch.vthreads);
      sr.reorder({sr.axis(0), co_oo, y_o, x_o, co_vt, co_i, y_i, x_i});
      attach = co_vt;
    } else {
      auto [y_oo, y_vt] = sr.split(y_o, sch.vthreads);
      sr.reorder({sr.axis(0), co_o, y_oo, x_o, y_vt, co_i, y_i, x_i});
      attach = y_vt;
    }
    sr.bind_vthread(attach);
  } else {
    sr.reorder({sr.axis(0), co_o, y_o, x_o, co_i, y_i, x_i});
  }
  sr.pragma(co_i, "dma_copy");
  s[conv].compute_at(sr, attach);
  schedule_epilogue(s, e, conv, sr, attach);

  // The reduction: (ric_o, n, co, y, x, ric_i, rkh, rkw, [b, o, rbi] -> GEMM).
  te::Stage sc = s[conv];
  auto [ric_o, ric_i] = sc.split(sc.reduce_axis(0), sch.tile_ci);
  sc.reorder({ric_o, sc.axis(0), sc.axis(1), sc.axis(2), sc.axis(3), ric_i, sc.reduce_axis(1),
              sc.reduce_axis(2), sc.axis(4), sc.axis(5), sc.reduce_axis(3)});
  sc.tensorize(sc.axis(4), tensorize::make_gemm(cfg));
  s[cdata].compute_at(sc, ric_o);
  s[ckern].compute_at(sc, ric_o);
  s[cdata].pragma(s[cdata].axis(0), "dma_copy");
  s[ckern].pragma(s[ckern].axis(0), "dma_copy");

  std::vector<te::Tensor> args = {data, kernel};
  if (epi.bias) args.push_back(e.bias);
  args.push_back(e.res);
  return build_op("conv2d", s, args, cfg, opts);
}

}  // namespace tandem::ops
