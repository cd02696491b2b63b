// tandem_dma_req: the burst request side of a 2D DMA (docs/microarch.md 3-4).
//
// Row y covers DRAM bytes [A_y, A_y + x_size*eb), A_y = (dram_base +
// y*x_stride)*eb. Each row is cut at every MEM_BURST_BYTES-aligned address;
// bursts are requested row by row in increasing address order. `start`
// latches the transfer; the first request is raised in the next cycle, and
// after each grant the next burst's request is raised in the following cycle
// (the request register is updated at the grant's clock edge). `active`
// drops at the edge of the last grant. Requires y_size, x_size > 0 at start
// (the caller skips empty transfers).
module tandem_dma_req
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic clear,
    input logic start,
    input u32_t dram_base,
    input u32_t y_size,
    input u32_t x_size,
    input u32_t x_stride,
    input logic [3:0] log_eb,
    input logic grant,
    output logic req_valid,
    output logic [31:0] req_addr,
    output logic [BYTES_W-1:0] req_bytes,
    output logic addr_overflow
);
  localparam int LOGB = LOG_MEM_BURST_BYTES;

  logic active;
  logic [47:0] row_elem;  // DRAM element address of the current row
  logic [47:0] addr;      // byte address of the next burst
  u32_t rem;              // bytes left in the current row
  u32_t rows_left;
  u32_t xsize, xstride;
  logic [3:0] leb;

  logic [LOGB:0] to_bnd;
  u32_t bytes;
  logic [47:0] next_row_elem;

  assign to_bnd = (LOGB + 1)'(MEM_BURST_BYTES) - {1'b0, addr[LOGB-1:0]};
  assign bytes = umin32(rem, 32'(to_bnd));
  assign next_row_elem = row_elem + 48'(xstride);

  assign req_valid = active && !addr_overflow;  // an overflowing burst is never requested
  assign req_addr = addr[31:0];
  assign req_bytes = BYTES_W'(bytes);
  assign addr_overflow = active && ((addr + 48'(bytes)) > 48'h1_0000_0000);

  always_ff @(posedge clk) begin
    if (clear) begin
      active <= 1'b0;
    end else if (start) begin
      active <= (y_size != 0) && (x_size != 0);
      row_elem <= 48'(dram_base);
      addr <= 48'(dram_base) << log_eb;
      rem <= x_size << log_eb;
      rows_left <= y_size;
      xsize <= x_size;
      xstride <= x_stride;
      leb <= log_eb;
    end else if (active && grant) begin
      if (bytes == rem) begin
        if (rows_left == 32'd1) begin
          active <= 1'b0;
        end else begin
          rows_left <= rows_left - 1;
          row_elem <= next_row_elem;
          addr <= next_row_elem << leb;
          rem <= xsize << leb;
        end
      end else begin
        addr <= addr + 48'(bytes);
        rem <= rem - bytes;
      end
    end
  end
endmodule
