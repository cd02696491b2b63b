// Tiling of the ALU-only operators (see eltwise_schedule.h).
#include "compiler/ops/eltwise_schedule.h"

#include <sstream>

#include "isa/error.h"

namespace tandem::ops {

std::string EltwiseSchedule::to_string() const {
  std::ostringstream s;
  s << "tile_c=" << tile_c << " tile_h=" << tile_h << " tile_w=" << tile_w
    << " vthreads=" << vthreads;
  return s.str();
}

void check_eltwise_tiles(const char* op, const EltwiseSchedule& t, int cblocks, int oh, int ow) {
  auto divides = [&](int tile, int extent, const char* name, const char* what) {
    TANDEM_CHECK(tile >= 1 && extent % tile == 0, op << " schedule: " << name << " = " << tile
                                                     << " must divide " << what << " = " << extent);
  };
  TANDEM_CHECK(t.vthreads == 1 || t.vthreads == 2,
               op << " schedule: vthreads = " << t.vthreads << " must be 1 or 2");
  divides(t.tile_c, cblocks, "tile_c", "the channel blocks");
  divides(t.tile_h, oh, "tile_h", "the output height");
  divides(t.tile_w, ow, "tile_w", "the output width");
  TANDEM_CHECK((cblocks / t.tile_c) % t.vthreads == 0,
               op << " schedule: " << t.vthreads << " virtual threads need an even number of "
                  << "channel tiles, got " << cblocks / t.tile_c);
}

te::IterVar tile_eltwise_output(te::Stage& sr, const EltwiseSchedule& t) {
  auto [c_o, c_i] = sr.split(sr.axis(1), t.tile_c);
  auto [y_o, y_i] = sr.split(sr.axis(2), t.tile_h);
  auto [x_o, x_i] = sr.split(sr.axis(3), t.tile_w);
  te::IterVar attach = x_o;
  if (t.vthreads > 1) {
    auto [c_oo, c_vt] = sr.split(c_o, t.vthreads);
    sr.reorder({sr.axis(0), c_oo, y_o, x_o, c_vt, c_i, y_i, x_i});
    sr.bind_vthread(c_vt);
    attach = c_vt;
  } else {
    sr.reorder({sr.axis(0), c_o, y_o, x_o, c_i, y_i, x_i});
  }
  sr.pragma(c_i, "dma_copy");
  return attach;
}

}  // namespace tandem::ops
