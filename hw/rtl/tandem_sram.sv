// tandem_sram: inferred single-clock SRAM, one write port, NREAD read ports.
//
// Reads are synchronous: rdata[r] holds mem[raddr[r]] as sampled at the
// previous rising edge (read-before-write when the same row is written at
// that edge; the compute pipeline forwards around this, see
// docs/microarch.md section 3). A write either replaces a whole row (wfull)
// or one LANE_W-bit lane of it (DMA beats). No reset: contents persist.
module tandem_sram #(
    parameter int DEPTH = 1024,
    parameter int ROW_W = 64,
    parameter int LANE_W = 64,
    parameter int NREAD = 1,
    localparam int AW = DEPTH > 1 ? $clog2(DEPTH) : 1,
    localparam int LANES = ROW_W / LANE_W,
    localparam int LW = LANES > 1 ? $clog2(LANES) : 1
) (
    input logic clk,
    input logic we,
    input logic wfull,
    input logic [AW-1:0] waddr,
    input logic [31:0] wlane,  // lane index (low LW bits used)
    input logic [ROW_W-1:0] wrow,
    input logic [LANE_W-1:0] wlane_data,
    input logic [NREAD-1:0][AW-1:0] raddr,
    output logic [NREAD-1:0][ROW_W-1:0] rdata
);
  logic [ROW_W-1:0] mem[DEPTH];

  generate
    if (LANES > 1) begin : g_lanes
      always_ff @(posedge clk) begin
        if (we) begin
          if (wfull) mem[waddr] <= wrow;
          else mem[waddr][wlane[LW-1:0]*LANE_W+:LANE_W] <= wlane_data;
        end
      end
    end else begin : g_row
      always_ff @(posedge clk) begin
        if (we) mem[waddr] <= wfull ? wrow : wlane_data;
      end
      logic unused_lane;
      assign unused_lane = ^wlane;
    end
  endgenerate

  if (LANES > 1) begin : g_lane_hi
    logic unused_lane_hi;
    assign unused_lane_hi = ^wlane[31:LW];
  end

  always_ff @(posedge clk) begin
    for (int r = 0; r < NREAD; r++) rdata[r] <= mem[raddr[r]];
  end

  if (ROW_W % LANE_W != 0) begin : g_bad_lane
    $error("tandem_sram: ROW_W is not a multiple of LANE_W");
  end
endmodule
