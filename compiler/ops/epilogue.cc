// Fused epilogue stages (see epilogue.h).
#include "compiler/ops/epilogue.h"

#include "isa/error.h"

namespace tandem::ops {

void Epilogue::validate() const {
  TANDEM_CHECK(shift >= 0 && shift <= 31, "epilogue: shift " << shift << " is outside [0, 31]");
}

EpilogueTensors make_epilogue(const te::Tensor& acc, const std::vector<ir::Expr>& shape,
                              int co_axis, const Epilogue& epi, int cob, int batch, int block_out) {
  EpilogueTensors e;
  const std::size_t nd = shape.size();
  auto ew = [&](const te::Tensor& in, const std::string& name, auto f) {
    std::vector<std::string> names;
    for (std::size_t k = 0; k < nd; ++k) names.push_back(name + ".i" + std::to_string(k));
    return te::compute(
        shape,
        [&](const std::vector<te::Var>& v) {
          return f(v, in(std::vector<ir::Expr>(v.begin(), v.end())));
        },
        name, names);
  };
  te::Tensor t = acc;
  if (epi.bias) {
    e.bias = te::placeholder({cob, batch, block_out}, ir::DType::kInt32, "bias");
    t = ew(t, "bias_add", [&](const std::vector<te::Var>& v, ir::Expr x) {
      return x + e.bias(v[static_cast<std::size_t>(co_axis)], v[nd - 2], v[nd - 1]);
    });
    e.stages.push_back(t);
  }
  if (epi.shift > 0) {
    t = ew(t, "shr", [&](const std::vector<te::Var>&, ir::Expr x) { return x >> epi.shift; });
    e.stages.push_back(t);
  }
  t = ew(t, "clip_hi", [](const std::vector<te::Var>&, ir::Expr x) { return te::min(x, 127); });
  e.stages.push_back(t);
  const int lo = epi.relu ? 0 : -128;
  t = ew(t, "clip_lo", [&](const std::vector<te::Var>&, ir::Expr x) { return te::max(x, lo); });
  e.stages.push_back(t);
  e.res = ew(t, "res",
             [](const std::vector<te::Var>&, ir::Expr x) { return te::cast(ir::DType::kInt8, x); });
  return e;
}

te::Tensor schedule_epilogue(te::Schedule& s, const EpilogueTensors& e, const te::Tensor& reader,
                             const te::Stage& at, const te::IterVar& axis) {
  (void)reader;
  te::Tensor cbias;
  if (e.bias.defined()) {
    cbias = s.cache_read(e.bias, "acc", {e.stages.front()});
    s[cbias].compute_at(at, axis);
    s[cbias].pragma(s[cbias].axis(0), "dma_copy");
  }
  for (const te::Tensor& t : e.stages) {
    te::Stage st = s[t];
    st.set_scope("acc");
    st.compute_at(at, axis);
    st.pragma(st.axis(0), "alu");
  }
  return cbias;
}

}  // namespace tandem::ops
