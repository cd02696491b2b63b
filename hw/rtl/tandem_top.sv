// tandem_top: the Tandem accelerator (fetch, load, compute, store, command
// queues, token queues, SRAMs, memory arbiter) behind control registers and
// one AXI4-style master port. Timing follows docs/microarch.md; the port
// contract and the memory timing contract are in hw/README.md.
//
// Control: a one-cycle ctrl_start pulse (sampled at a rising edge) latches
// ctrl_insn_addr/ctrl_insn_count and clears all state; the next cycle is
// cycle 0. The run is done in the first cycle t in which FINISH has executed
// and load and store are idle with empty queues; then ctrl_done rises (and
// stays high until the next start) and ctrl_cycles = t + 1. Errors end the
// run the same way with ctrl_error = 1 and ctrl_err_* describing the first
// error: leftover tokens at the end, a deadlock (no module can issue,
// execute or push, fetch cannot dispatch and no memory transfer is in
// flight), a malformed instruction, an SRAM index out of range, a DRAM byte
// address beyond 32 bits, or a memory that broke the timing contract.
// After an error nothing new is issued, dispatched or granted.
module tandem_top
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic rst_n,
    // control
    input logic ctrl_start,
    input logic [31:0] ctrl_insn_addr,
    input logic [31:0] ctrl_insn_count,
    output logic ctrl_done,
    output logic [63:0] ctrl_cycles,
    output logic ctrl_error,
    output logic [3:0] ctrl_err_code,
    output logic [31:0] ctrl_err_aux,
    output logic [31:0] ctrl_err_insn,
    output logic [31:0] ctrl_err_value,
    // debug / status
    output logic [63:0] dbg_tokens,  // 4 x 16: l2c, c2l, c2s, s2c (LSB first)
    output logic [15:0] dbg_state,  // 4 x 4: fetch, load, compute, store (LSB first)
    output logic [47:0] dbg_qcounts,  // 3 x 16: load, compute, store queue counts
    output logic [31:0] dbg_fetch_idx,
    output logic [31:0] dbg_load_idx,
    output logic [31:0] dbg_compute_idx,
    output logic [31:0] dbg_store_idx,
    output logic dbg_running,
    output logic dbg_bus_busy,
    output logic dbg_fetch_stall,
    // AXI4-style master
    output logic m_axi_arvalid,
    input logic m_axi_arready,
    output logic [31:0] m_axi_araddr,
    output logic [7:0] m_axi_arlen,
    output logic [1:0] m_axi_arid,
    output logic [15:0] m_axi_arbytes,
    input logic m_axi_rvalid,
    output logic m_axi_rready,
    input logic [MEM_DATA_W-1:0] m_axi_rdata,
    input logic m_axi_rlast,
    output logic m_axi_awvalid,
    input logic m_axi_awready,
    output logic [31:0] m_axi_awaddr,
    output logic [7:0] m_axi_awlen,
    output logic [1:0] m_axi_awid,
    output logic [15:0] m_axi_awbytes,
    output logic m_axi_wvalid,
    input logic m_axi_wready,
    output logic [MEM_DATA_W-1:0] m_axi_wdata,
    output logic [MEM_BYTES_PER_CYCLE-1:0] m_axi_wstrb,
    output logic m_axi_wlast,
    input logic m_axi_bvalid,
    output logic m_axi_bready
);
  localparam int TCW = TOKEN_COUNT_W;

  if (INP_ELEM_BITS % MEM_DATA_W != 0 || WGT_ELEM_BITS % MEM_DATA_W != 0) begin : g_bad_port
    $error("tandem_top: inp and wgt elements must be a whole number of memory beats");
  end

  // ---------------- control ----------------
  logic clear, running, halt, done_r, err_r;
  logic [63:0] cyc;
  assign clear = !rst_n || ctrl_start;
  assign halt = !running;

  // ---------------- command queues ----------------
  logic enq_l, enq_c, enq_s, deq_l, deq_c, deq_s;
  logic [QENTRY_W-1:0] enq_entry, head_l, head_c, head_s;
  logic [CMD_COUNT_W-1:0] cnt_l, cnt_c, cnt_s;
  tandem_cmd_queue #(
      .DEPTH(CMD_QUEUE_DEPTH),
      .W(QENTRY_W)
  ) u_q_load (
      .clk,
      .clear,
      .enq(enq_l),
      .enq_data(enq_entry),
      .deq(deq_l),
      .head(head_l),
      .count(cnt_l)
  );
  tandem_cmd_queue #(
      .DEPTH(CMD_QUEUE_DEPTH),
      .W(QENTRY_W)
  ) u_q_compute (
      .clk,
      .clear,
      .enq(enq_c),
      .enq_data(enq_entry),
      .deq(deq_c),
      .head(head_c),
      .count(cnt_c)
  );
  tandem_cmd_queue #(
      .DEPTH(CMD_QUEUE_DEPTH),
      .W(QENTRY_W)
  ) u_q_store (
      .clk,
      .clear,
      .enq(enq_s),
      .enq_data(enq_entry),
      .deq(deq_s),
      .head(head_s),
      .count(cnt_s)
  );

  // ---------------- token queues ----------------
  logic push_l2c, pop_l2c, push_c2l, pop_c2l, push_c2s, pop_c2s, push_s2c, pop_s2c;
  logic has_l2c, has_c2l, has_c2s, has_s2c, room_l2c, room_c2l, room_c2s, room_s2c;
  logic [TCW-1:0] n_l2c, n_c2l, n_c2s, n_s2c, nn_l2c, nn_c2l, nn_c2s, nn_s2c;
  tandem_token_counter #(
      .DEPTH(TOKEN_QUEUE_DEPTH)
  ) u_t_l2c (
      .clk,
      .clear,
      .push(push_l2c),
      .pop(pop_l2c),
      .count(n_l2c),
      .count_next(nn_l2c),
      .has_token(has_l2c),
      .has_room(room_l2c)
  );
  tandem_token_counter #(
      .DEPTH(TOKEN_QUEUE_DEPTH)
  ) u_t_c2l (
      .clk,
      .clear,
      .push(push_c2l),
      .pop(pop_c2l),
      .count(n_c2l),
      .count_next(nn_c2l),
      .has_token(has_c2l),
      .has_room(room_c2l)
  );
  tandem_token_counter #(
      .DEPTH(TOKEN_QUEUE_DEPTH)
  ) u_t_c2s (
      .clk,
      .clear,
      .push(push_c2s),
      .pop(pop_c2s),
      .count(n_c2s),
      .count_next(nn_c2s),
      .has_token(has_c2s),
      .has_room(room_c2s)
  );
  tandem_token_counter #(
      .DEPTH(TOKEN_QUEUE_DEPTH)
  ) u_t_s2c (
      .clk,
      .clear,
      .push(push_s2c),
      .pop(pop_s2c),
      .count(n_s2c),
      .count_next(nn_s2c),
      .has_token(has_s2c),
      .has_room(room_s2c)
  );

  // ---------------- memory arbiter ----------------
  logic [3:0] req_valid, grant, rd_valid;
  logic [3:0][31:0] req_addr;
  logic [3:0][BYTES_W-1:0] req_bytes;
  logic rd_last, bus_busy, reads_pending, arb_axi_error;
  tandem_mem_arbiter u_arb (
      .clk,
      .clear,
      .halt,
      .req_valid,
      .req_addr,
      .req_bytes,
      .grant,
      .rd_valid,
      .rd_last,
      .m_axi_arvalid,
      .m_axi_arready,
      .m_axi_araddr,
      .m_axi_arlen,
      .m_axi_arid,
      .m_axi_arbytes,
      .m_axi_rvalid,
      .m_axi_rlast,
      .m_axi_awvalid,
      .m_axi_awready,
      .m_axi_awaddr,
      .m_axi_awlen,
      .m_axi_awid,
      .m_axi_awbytes,
      .bus_busy,
      .reads_pending,
      .axi_error(arb_axi_error)
  );
  assign m_axi_rready = 1'b1;
  logic unused_rd3;
  assign unused_rd3 = rd_valid[3];  // the store never reads
  assign m_axi_bready = 1'b1;

  // ---------------- fetch ----------------
  logic f_err, f_progress, f_stall;
  u32_t f_err_aux, f_err_idx, f_idx;
  logic [3:0] f_state;
  tandem_fetch u_fetch (
      .clk,
      .clear,
      .halt,
      .insn_addr(ctrl_insn_addr),
      .insn_count(ctrl_insn_count),
      .req_valid(req_valid[0]),
      .req_addr(req_addr[0]),
      .req_bytes(req_bytes[0]),
      .grant(grant[0]),
      .rd_valid(rd_valid[0]),
      .rd_data(m_axi_rdata),
      .rd_last,
      .enq_load(enq_l),
      .enq_compute(enq_c),
      .enq_store(enq_s),
      .enq_entry,
      .count_load(cnt_l),
      .count_compute(cnt_c),
      .count_store(cnt_s),
      .err(f_err),
      .err_aux(f_err_aux),
      .err_idx(f_err_idx),
      .progress(f_progress),
      .stall_queue(f_stall),
      .dbg_state(f_state),
      .dbg_idx(f_idx)
  );

  // ---------------- SRAMs shared between modules ----------------
  logic inp_we, inp_wfull, wgt_we, wgt_wfull;
  logic [INP_IDX_W-1:0] inp_waddr, inp_raddr;
  logic [WGT_IDX_W-1:0] wgt_waddr, wgt_raddr;
  u32_t inp_wlane, wgt_wlane;
  logic [MEM_DATA_W-1:0] ld_wdata;
  logic [0:0][INP_ELEM_BITS-1:0] inp_rdata;
  logic [0:0][WGT_ELEM_BITS-1:0] wgt_rdata;
  logic [0:0][INP_IDX_W-1:0] inp_raddr_v;
  logic [0:0][WGT_IDX_W-1:0] wgt_raddr_v;
  assign inp_raddr_v[0] = inp_raddr;
  assign wgt_raddr_v[0] = wgt_raddr;
  tandem_sram #(
      .DEPTH(INP_DEPTH),
      .ROW_W(INP_ELEM_BITS),
      .LANE_W(MEM_DATA_W),
      .NREAD(1)
  ) u_inp (
      .clk,
      .we(inp_we),
      .wfull(inp_wfull),
      .waddr(inp_waddr),
      .wlane(inp_wlane),
      .wrow('0),
      .wlane_data(ld_wdata),
      .raddr(inp_raddr_v),
      .rdata(inp_rdata)
  );
  tandem_sram #(
      .DEPTH(WGT_DEPTH),
      .ROW_W(WGT_ELEM_BITS),
      .LANE_W(MEM_DATA_W),
      .NREAD(1)
  ) u_wgt (
      .clk,
      .we(wgt_we),
      .wfull(wgt_wfull),
      .waddr(wgt_waddr),
      .wlane(wgt_wlane),
      .wrow('0),
      .wlane_data(ld_wdata),
      .raddr(wgt_raddr_v),
      .rdata(wgt_rdata)
  );

  logic out_we;
  logic [OUT_IDX_W-1:0] out_waddr, out_raddr;
  logic [OUT_ELEM_BITS-1:0] out_wdata;
  logic [0:0][OUT_ELEM_BITS-1:0] out_rdata;
  logic [0:0][OUT_IDX_W-1:0] out_raddr_v;
  assign out_raddr_v[0] = out_raddr;
  tandem_sram #(
      .DEPTH(OUT_DEPTH),
      .ROW_W(OUT_ELEM_BITS),
      .LANE_W(OUT_ELEM_BITS),
      .NREAD(1)
  ) u_out (
      .clk,
      .we(out_we),
      .wfull(1'b1),
      .waddr(out_waddr),
      .wlane(32'd0),
      .wrow(out_wdata),
      .wlane_data(out_wdata),
      .raddr(out_raddr_v),
      .rdata(out_rdata)
  );

  // ---------------- modules ----------------
  logic l_err, c_err, s_err, l_progress, c_progress, s_progress, s_b_pending, finish_exec;
  logic [3:0] l_err_code, c_err_code, s_err_code, l_state, c_state, s_state;
  u32_t l_err_aux, c_err_aux, s_err_aux, l_err_idx, c_err_idx, s_err_idx;
  u32_t l_err_value, c_err_value, s_err_value, l_idx, c_idx, s_idx;

  tandem_load u_load (
      .clk,
      .clear,
      .halt,
      .q_count(cnt_l),
      .q_head(head_l),
      .q_deq(deq_l),
      .c2l_has(has_c2l),
      .c2l_pop(pop_c2l),
      .l2c_room(room_l2c),
      .l2c_push(push_l2c),
      .req_valid(req_valid[1]),
      .req_addr(req_addr[1]),
      .req_bytes(req_bytes[1]),
      .grant(grant[1]),
      .rd_valid(rd_valid[1]),
      .rd_data(m_axi_rdata),
      .inp_we,
      .inp_wfull,
      .inp_waddr,
      .inp_wlane,
      .wgt_we,
      .wgt_wfull,
      .wgt_waddr,
      .wgt_wlane,
      .wdata(ld_wdata),
      .err(l_err),
      .err_code(l_err_code),
      .err_aux(l_err_aux),
      .err_idx(l_err_idx),
      .err_value(l_err_value),
      .progress(l_progress),
      .dbg_state(l_state),
      .dbg_idx(l_idx)
  );

  tandem_compute u_compute (
      .clk,
      .clear,
      .halt,
      .q_count(cnt_c),
      .q_head(head_c),
      .q_deq(deq_c),
      .l2c_has(has_l2c),
      .l2c_pop(pop_l2c),
      .s2c_has(has_s2c),
      .s2c_pop(pop_s2c),
      .c2l_room(room_c2l),
      .c2l_push(push_c2l),
      .c2s_room(room_c2s),
      .c2s_push(push_c2s),
      .req_valid(req_valid[2]),
      .req_addr(req_addr[2]),
      .req_bytes(req_bytes[2]),
      .grant(grant[2]),
      .rd_valid(rd_valid[2]),
      .rd_data(m_axi_rdata),
      .inp_raddr,
      .inp_rdata(inp_rdata[0]),
      .wgt_raddr,
      .wgt_rdata(wgt_rdata[0]),
      .out_we,
      .out_waddr,
      .out_wdata,
      .err(c_err),
      .err_code(c_err_code),
      .err_aux(c_err_aux),
      .err_idx(c_err_idx),
      .err_value(c_err_value),
      .finish_exec,
      .progress(c_progress),
      .dbg_state(c_state),
      .dbg_idx(c_idx)
  );

  tandem_store u_store (
      .clk,
      .clear,
      .halt,
      .q_count(cnt_s),
      .q_head(head_s),
      .q_deq(deq_s),
      .c2s_has(has_c2s),
      .c2s_pop(pop_c2s),
      .s2c_room(room_s2c),
      .s2c_push(push_s2c),
      .req_valid(req_valid[3]),
      .req_addr(req_addr[3]),
      .req_bytes(req_bytes[3]),
      .grant(grant[3]),
      .wvalid(m_axi_wvalid),
      .wdata(m_axi_wdata),
      .wstrb(m_axi_wstrb),
      .wlast(m_axi_wlast),
      .bvalid(m_axi_bvalid),
      .out_raddr,
      .out_rdata(out_rdata[0]),
      .err(s_err),
      .err_code(s_err_code),
      .err_aux(s_err_aux),
      .err_idx(s_err_idx),
      .err_value(s_err_value),
      .progress(s_progress),
      .b_pending(s_b_pending),
      .dbg_state(s_state),
      .dbg_idx(s_idx)
  );

  // ---------------- done, errors, deadlock ----------------
  logic finish_seen, done_now, progress_any, dead_now, leftover;
  logic [3:0] leftover_mask;
  assign done_now = running && (finish_seen || finish_exec) && (l_state == DBG_IDLE) &&
      (s_state == DBG_IDLE);
  assign progress_any = f_progress || l_progress || c_progress || s_progress || reads_pending ||
      s_b_pending || bus_busy;
  assign dead_now = running && !done_now && !progress_any;
  assign leftover_mask = {nn_s2c != 0, nn_c2s != 0, nn_c2l != 0, nn_l2c != 0};
  assign leftover = leftover_mask != 0;

  logic any_err;
  logic [3:0] e_code;
  u32_t e_aux, e_idx, e_value;
  always_comb begin
    any_err = 1'b1;
    e_code = ERR_NONE;
    e_aux = '0;
    e_idx = '0;
    e_value = '0;
    if (f_err) begin
      e_code = ERR_ILLEGAL;
      e_aux = f_err_aux;
      e_idx = f_err_idx;
    end else if (c_err) begin
      e_code = c_err_code;
      e_aux = c_err_aux;
      e_idx = c_err_idx;
      e_value = c_err_value;
    end else if (l_err) begin
      e_code = l_err_code;
      e_aux = l_err_aux;
      e_idx = l_err_idx;
      e_value = l_err_value;
    end else if (s_err) begin
      e_code = s_err_code;
      e_aux = s_err_aux;
      e_idx = s_err_idx;
      e_value = s_err_value;
    end else if (arb_axi_error || (m_axi_wvalid && !m_axi_wready)) begin
      e_code = ERR_AXI;
      e_aux = 32'd3;
    end else if (dead_now) begin
      e_code = ERR_DEADLOCK;
    end else if (done_now && leftover) begin
      e_code = ERR_LEFTOVER;
      e_aux = 32'(leftover_mask);
    end else begin
      any_err = 1'b0;
    end
  end

  always_ff @(posedge clk) begin
    if (clear) begin
      running <= rst_n;
      done_r <= 1'b0;
      err_r <= 1'b0;
      finish_seen <= 1'b0;
      cyc <= '0;
      ctrl_cycles <= '0;
      ctrl_err_code <= ERR_NONE;
      ctrl_err_aux <= '0;
      ctrl_err_insn <= '0;
      ctrl_err_value <= '0;
    end else if (running) begin
      cyc <= cyc + 1;
      if (finish_exec) finish_seen <= 1'b1;
      if ((running && any_err) || done_now) begin
        running <= 1'b0;
        done_r <= 1'b1;
        ctrl_cycles <= cyc + 1;
      end
      if (running && any_err) begin
        err_r <= 1'b1;
        ctrl_err_code <= e_code;
        ctrl_err_aux <= e_aux;
        ctrl_err_insn <= e_idx;
        ctrl_err_value <= e_value;
      end
    end
  end

  assign ctrl_done = done_r;
  assign ctrl_error = err_r;

  // ---------------- debug ----------------
  assign dbg_tokens = {16'(n_s2c), 16'(n_c2s), 16'(n_c2l), 16'(n_l2c)};
  assign dbg_state = {s_state, c_state, l_state, f_state};
  assign dbg_qcounts = {16'(cnt_s), 16'(cnt_c), 16'(cnt_l)};
  assign dbg_fetch_idx = f_idx;
  assign dbg_load_idx = l_idx;
  assign dbg_compute_idx = c_idx;
  assign dbg_store_idx = s_idx;
  assign dbg_running = running;
  assign dbg_bus_busy = bus_busy;
  assign dbg_fetch_stall = f_stall;
endmodule
