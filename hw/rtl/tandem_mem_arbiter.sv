// tandem_mem_arbiter: the shared memory port (docs/microarch.md section 4)
// onto one AXI4-style master.
//
// Requesters: 0 fetch, 1 load, 2 compute (reads), 3 store (writes). In each
// cycle in which the data bus is free, one waiting request is granted,
// round-robin starting after the last granted requester (fetch first after
// reset). A grant in cycle g puts the burst's address on AR (or AW) in g and
// owns the bus for beats = ceil(bytes/P) cycles, so the next grant is in
// g + beats at the earliest. Read data returns in grant order; a FIFO of
// requester tags routes each R beat to its owner. Memory timing contract
// (hw/README.md): ARREADY/AWREADY/WREADY are always 1; a read granted in g
// returns beats in g+L .. g+L+beats-1; a write's B arrives in
// g+L+beats-1 (L >= 1). A violation is flagged (axi_error).
// Beats are packed: beat i of a burst at byte address A carries bytes
// [A + i*P, A + i*P + P); m_axi_arbytes gives the exact byte count.
module tandem_mem_arbiter
  import tandem_pkg::*;
  import tandem_types_pkg::*;
#(
    parameter int TAG_DEPTH = 1024
) (
    input logic clk,
    input logic clear,
    input logic halt,
    input logic [3:0] req_valid,
    input logic [3:0][31:0] req_addr,
    input logic [3:0][BYTES_W-1:0] req_bytes,
    output logic [3:0] grant,
    output logic [3:0] rd_valid,  // R beat for requester r this cycle
    output logic rd_last,
    // AXI master (read address / data, write address / response)
    output logic m_axi_arvalid,
    input logic m_axi_arready,
    output logic [31:0] m_axi_araddr,
    output logic [7:0] m_axi_arlen,
    output logic [1:0] m_axi_arid,
    output logic [15:0] m_axi_arbytes,
    input logic m_axi_rvalid,
    input logic m_axi_rlast,
    output logic m_axi_awvalid,
    input logic m_axi_awready,
    output logic [31:0] m_axi_awaddr,
    output logic [7:0] m_axi_awlen,
    output logic [1:0] m_axi_awid,
    output logic [15:0] m_axi_awbytes,
    // status
    output logic bus_busy,  // the bus is owned this cycle (incl. a new grant)
    output logic reads_pending,
    output logic axi_error
);
  localparam int LOGP = LOG_MEM_BYTES_PER_CYCLE;
  localparam int TW = $clog2(TAG_DEPTH);

  if (MEM_BURST_BEATS > 256) begin : g_bad_burst
    $error("tandem_mem_arbiter: a burst may have at most 256 beats (AXI4 ARLEN)");
  end

  logic [1:0] last_id;
  u32_t busy_cnt;  // bus cycles still owned by earlier grants
  logic [1:0] tags[TAG_DEPTH];
  logic [TW-1:0] t_rd, t_wr;
  logic [TW:0] t_count;
  logic tag_full;
  assign tag_full = 32'(t_count) == TAG_DEPTH;

  // round-robin choice
  logic found;
  logic [1:0] pick;
  always_comb begin
    found = 1'b0;
    pick = last_id;
    for (int k = 1; k <= 4; k++) begin
      logic [1:0] c;
      c = last_id + 2'(k);
      if (!found && req_valid[c] && (c == 2'd3 || !tag_full)) begin
        found = 1'b1;
        pick = c;
      end
    end
  end

  logic go;
  u32_t beats;
  assign go = found && (busy_cnt == 0) && !halt;
  assign beats = (32'(req_bytes[pick]) + 32'(MEM_BYTES_PER_CYCLE - 1)) >> LOGP;
  always_comb begin
    grant = '0;
    grant[pick] = go;
  end

  assign m_axi_arvalid = go && (pick != 2'd3);
  assign m_axi_araddr = req_addr[pick];
  assign m_axi_arlen = 8'(beats - 1);
  assign m_axi_arid = pick;
  assign m_axi_arbytes = 16'(req_bytes[pick]);
  assign m_axi_awvalid = go && (pick == 2'd3);
  assign m_axi_awaddr = req_addr[pick];
  assign m_axi_awlen = 8'(beats - 1);
  assign m_axi_awid = pick;
  assign m_axi_awbytes = 16'(req_bytes[pick]);

  // R routing
  logic [1:0] head_tag;
  logic have_tag;
  assign head_tag = tags[t_rd];
  assign have_tag = t_count != 0;
  always_comb begin
    rd_valid = '0;
    rd_valid[head_tag] = m_axi_rvalid && have_tag;
  end
  assign rd_last = m_axi_rlast;

  logic push_tag, pop_tag;
  assign push_tag = m_axi_arvalid;
  assign pop_tag = m_axi_rvalid && m_axi_rlast && have_tag;

  always_ff @(posedge clk) begin
    if (clear) begin
      last_id <= 2'd3;
      busy_cnt <= '0;
      t_rd <= '0;
      t_wr <= '0;
      t_count <= '0;
    end else begin
      if (go) begin
        last_id <= pick;
        busy_cnt <= beats - 1;
      end else if (busy_cnt != 0) begin
        busy_cnt <= busy_cnt - 1;
      end
      if (push_tag) begin
        tags[t_wr] <= pick;
        t_wr <= t_wr + 1'b1;
      end
      if (pop_tag) t_rd <= t_rd + 1'b1;
      t_count <= t_count + (TW + 1)'(push_tag) - (TW + 1)'(pop_tag);
    end
  end

  assign bus_busy = go || (busy_cnt != 0);
  assign reads_pending = have_tag;
  assign axi_error = (m_axi_arvalid && !m_axi_arready) || (m_axi_awvalid && !m_axi_awready) ||
      (m_axi_rvalid && !have_tag);
endmodule
