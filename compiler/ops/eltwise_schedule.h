// Tiling of the ALU-only operators (residual add, max pooling): output tiles
// of (channel blocks, rows, columns), optionally split over 2 virtual threads
// on the channel blocks, and the tile loop nest they share.
#pragma once

#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"
#include "compiler/te/te.h"

namespace tandem::ops {

struct EltwiseSchedule {
  int tile_c = 1;  // channel blocks per tile (per virtual thread)
  int tile_h = 1;  // output rows per tile
  int tile_w = 1;  // output columns per tile
  int vthreads = 1;
  std::string to_string() const;
};

// Splits the 6-D output stage (n, c, y, x, b, o) into tiles, binds the
// virtual thread, puts "dma_copy" on the tile's store, and returns the axis
// the producers are computed at. cblocks/oh/ow: the output's extents.
te::IterVar tile_eltwise_output(te::Stage& out, const EltwiseSchedule& sch);

// tandem::Error unless every tile factor divides its extent (and the co tiles
// split evenly over the virtual threads).
void check_eltwise_tiles(const char* op, const EltwiseSchedule& sch, int cblocks, int oh, int ow);

}  // namespace tandem::ops
