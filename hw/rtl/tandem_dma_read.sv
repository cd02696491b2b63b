// tandem_dma_read: a 2D DMA into an SRAM, with zero padding
// (docs/microarch.md section 3; semantics in isa/insn.h).
//
// Timeline of an instruction issued in cycle c (start = 1 in cycle c):
//   - cycles c+1 .. c+Z: one zero padding element written per cycle
//     (Z = H*W - y_size*x_size), walking the padding as contiguous SRAM
//     segments: top rows + first left pad, then (right pad + next left pad)
//     between data rows, then last right pad + bottom rows;
//   - cycle c+Z+1: the first burst request (tandem_dma_req), later bursts
//     one cycle after the previous grant;
//   - each returning beat is written in its arrival cycle; the arrival
//     cycle of the last beat of the last burst is the last execute cycle.
//   A transfer without data ends after its padding, or after one cycle.
// Beats are packed: beat i of a burst carries the burst's bytes
// [i*P, i*P+P). With eb >= P a beat is one lane of one element; with eb < P
// (micro-ops) a beat carries up to P/eb whole elements (wr_nelem).
// The caller checks the SRAM range (sram_base + total_elems <= depth).
module tandem_dma_read
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic clear,
    input logic start,
    input mem_insn_t d,  // valid in the start cycle
    input logic [3:0] log_eb,
    output u32_t total_elems,  // H*W of `d` (combinational)
    // memory requester port
    output logic req_valid,
    output logic [31:0] req_addr,
    output logic [BYTES_W-1:0] req_bytes,
    output logic addr_overflow,
    input logic grant,
    input logic rd_valid,
    input logic [MEM_DATA_W-1:0] rd_data,
    // SRAM writes
    output logic wr_valid,
    output logic wr_pad,  // write a whole zero element
    output u32_t wr_elem,
    output u32_t wr_lane,   // lane (P-byte chunk) of wr_elem (eb >= P)
    output u32_t wr_nelem,  // elements in this beat (eb < P)
    output logic [MEM_DATA_W-1:0] wr_data,
    // status
    output logic last,  // this cycle is the last execute cycle
    output logic busy,
    output logic stray_beat  // a beat arrived while no transfer expected it
);
  localparam int LOGB = LOG_MEM_BURST_BYTES;
  localparam int LOGP = LOG_MEM_BYTES_PER_CYCLE;
  localparam logic [1:0] ST_S0 = 2'd0, ST_MID = 2'd1, ST_SL = 2'd2;

  // ---- issue-time geometry of `d` ----
  u32_t W, H, HW, n_data, len0, lenL, xp, mid_n, sl_start, Z;
  logic all_pad;
  always_comb begin
    W = d.x_pad_0 + d.x_size + d.x_pad_1;
    H = d.y_pad_0 + d.y_size + d.y_pad_1;
    HW = H * W;
    n_data = d.y_size * d.x_size;
    Z = HW - n_data;
    all_pad = (d.x_size == 0) || (d.y_size == 0);
    xp = d.x_pad_0 + d.x_pad_1;
    len0 = all_pad ? HW : d.y_pad_0 * W + d.x_pad_0;
    lenL = all_pad ? 32'd0 : d.x_pad_1 + d.y_pad_1 * W;
    mid_n = (!all_pad && xp != 0) ? d.y_size - 1 : 32'd0;
    sl_start = d.sram_base + HW - lenL;
  end
  assign total_elems = HW;

  // ---- padding walker ----
  logic pd_on, pd_data;
  logic [1:0] pd_stage;
  u32_t pd_p, pd_rem, pd_mids, pd_xs, pd_xp, pd_lenL, pd_sl;
  logic pd_more_seg, pad_last;
  assign pd_more_seg = (pd_stage != ST_SL) && (pd_mids != 0 || pd_lenL != 0);
  assign pad_last = pd_on && (pd_rem == 32'd1) && !pd_more_seg;

  // ---- request side ----
  mem_insn_t q;  // latched instruction
  logic [3:0] leb;
  logic req_start;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_insn_t req_d;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3:0] req_leb;
  assign req_start = (start && Z == 0 && !all_pad) || (pad_last && pd_data);
  assign req_d = start ? d : q;
  assign req_leb = start ? log_eb : leb;

  tandem_dma_req u_req (
      .clk,
      .clear,
      .start(req_start),
      .dram_base(req_d.dram_base),
      .y_size(req_d.y_size),
      .x_size(req_d.x_size),
      .x_stride(req_d.x_stride),
      .log_eb(req_leb),
      .grant,
      .req_valid,
      .req_addr,
      .req_bytes,
      .addr_overflow
  );

  // ---- receive side ----
  logic rx_on, fin1;
  u32_t r_rows_left, r_rem, r_elem, r_off, r_rowstart, r_W, r_xs;
  logic [LOGB-1:0] r_xstride;  // only the row address modulo the burst size matters
  logic [LOGB-1:0] r_blo, r_row_lo;
  u32_t to_bnd, nb, eb;
  logic row_end, final_beat, wide;
  logic [LOGB-1:0] next_row_lo;
  always_comb begin
    to_bnd = 32'(MEM_BURST_BYTES) - 32'(r_blo);
    nb = umin32(umin32(32'(MEM_BYTES_PER_CYCLE), r_rem), to_bnd);
    eb = 32'd1 << leb;
    wide = 32'(leb) >= LOGP;
    row_end = nb == r_rem;
    final_beat = rx_on && rd_valid && row_end && (r_rows_left == 32'd1);
    next_row_lo = r_row_lo + r_xstride;
  end

  assign wr_valid = pd_on || (rx_on && rd_valid);
  assign wr_pad = pd_on;
  assign wr_elem = pd_on ? pd_p : r_elem;
  assign wr_lane = r_off >> LOGP;
  assign wr_nelem = nb >> leb;
  assign wr_data = rd_data;
  assign last = fin1 || (pad_last && !pd_data) || final_beat;
  assign busy = pd_on || req_valid || rx_on || fin1;
  assign stray_beat = rd_valid && !rx_on;

  always_ff @(posedge clk) begin
    if (clear) begin
      pd_on <= 1'b0;
      rx_on <= 1'b0;
      fin1 <= 1'b0;
    end else if (start) begin
      q <= d;
      leb <= log_eb;
      fin1 <= (Z == 0) && all_pad;
      // padding: first non-empty segment
      pd_data <= !all_pad;
      pd_xs <= d.x_size;
      pd_xp <= xp;
      pd_lenL <= lenL;
      pd_sl <= sl_start;
      pd_on <= Z != 0;
      if (len0 != 0) begin
        pd_stage <= ST_S0;
        pd_p <= d.sram_base;
        pd_rem <= len0;
        pd_mids <= mid_n;
      end else if (mid_n != 0) begin
        pd_stage <= ST_MID;
        pd_p <= d.sram_base + d.x_size;
        pd_rem <= xp;
        pd_mids <= mid_n - 1;
      end else begin
        pd_stage <= ST_SL;
        pd_p <= sl_start;
        pd_rem <= lenL;
        pd_mids <= '0;
      end
      // receive walker
      rx_on <= !all_pad;
      r_rows_left <= d.y_size;
      r_rem <= d.x_size << log_eb;
      r_row_lo <= d.dram_base[LOGB-1:0];
      r_blo <= LOGB'(d.dram_base << log_eb);
      r_elem <= d.sram_base + len0;
      r_rowstart <= d.sram_base + len0;
      r_off <= '0;
      r_W <= W;
      r_xs <= d.x_size;
      r_xstride <= d.x_stride[LOGB-1:0];
    end else begin
      fin1 <= 1'b0;
      if (pd_on) begin
        if (pd_rem != 32'd1) begin
          pd_p <= pd_p + 1;
          pd_rem <= pd_rem - 1;
        end else if (pd_stage != ST_SL && pd_mids != 0) begin
          pd_stage <= ST_MID;
          pd_p <= pd_p + 1 + pd_xs;
          pd_rem <= pd_xp;
          pd_mids <= pd_mids - 1;
        end else if (pd_stage != ST_SL && pd_lenL != 0) begin
          pd_stage <= ST_SL;
          pd_p <= pd_sl;
          pd_rem <= pd_lenL;
        end else begin
          pd_on <= 1'b0;
        end
      end
      if (rx_on && rd_valid) begin
        if (wide) begin
          if (r_off + 32'(MEM_BYTES_PER_CYCLE) == eb) begin
            r_off <= '0;
            r_elem <= r_elem + 1;
          end else begin
            r_off <= r_off + 32'(MEM_BYTES_PER_CYCLE);
          end
        end else begin
          r_elem <= r_elem + wr_nelem;
        end
        r_rem <= r_rem - nb;
        r_blo <= r_blo + LOGB'(nb);
        if (row_end) begin
          if (r_rows_left == 32'd1) begin
            rx_on <= 1'b0;
          end else begin
            r_rows_left <= r_rows_left - 1;
            r_rowstart <= r_rowstart + r_W;
            r_elem <= r_rowstart + r_W;
            r_off <= '0;
            r_rem <= r_xs << leb;
            r_row_lo <= next_row_lo;
            r_blo <= next_row_lo << leb;
          end
        end
      end
    end
  end
endmodule
