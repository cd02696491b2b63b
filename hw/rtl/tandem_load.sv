// tandem_load: the load module (LOAD of inp and wgt; docs/microarch.md 2-3).
//
// Issue (1 cycle): idle, command queue non-empty, and for pop_next a token in
// compute->load; dequeues and pops. Execute: tandem_dma_read (padding, then
// bursts). Push: push_next pushes load->compute in the last execute cycle if
// that queue has room, else the module waits in PUSH state. The next issue
// can be in the cycle after the push. Writes land in the inp/wgt SRAMs
// (lane writes for data beats, whole zero rows for padding).
module tandem_load
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic clear,
    input logic halt,
    // command queue
    input logic [CMD_COUNT_W-1:0] q_count,
    input logic [QENTRY_W-1:0] q_head,
    output logic q_deq,
    // tokens
    input logic c2l_has,
    output logic c2l_pop,
    input logic l2c_room,
    output logic l2c_push,
    // memory requester
    output logic req_valid,
    output logic [31:0] req_addr,
    output logic [BYTES_W-1:0] req_bytes,
    input logic grant,
    input logic rd_valid,
    input logic [MEM_DATA_W-1:0] rd_data,
    // SRAM write ports
    output logic inp_we,
    output logic inp_wfull,
    output logic [INP_IDX_W-1:0] inp_waddr,
    output u32_t inp_wlane,
    output logic wgt_we,
    output logic wgt_wfull,
    output logic [WGT_IDX_W-1:0] wgt_waddr,
    output u32_t wgt_wlane,
    output logic [MEM_DATA_W-1:0] wdata,
    // errors
    output logic err,
    output logic [3:0] err_code,
    output u32_t err_aux,
    output u32_t err_idx,
    output u32_t err_value,
    // status
    output logic progress,
    output logic [3:0] dbg_state,
    output u32_t dbg_idx
);
  localparam logic [1:0] S_IDLE = 2'd0, S_EXEC = 2'd1, S_PUSH = 2'd2;
  logic [1:0] state;
  u32_t cur_idx;
  logic cur_push;
  logic [LOAD_MEM_TYPE_W-1:0] cur_mt;

  insn_t head_insn;
  u32_t head_idx;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_insn_t hd;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head_insn = q_head[INSN_BITS-1:0];
  assign head_idx = q_head[QENTRY_W-1:INSN_BITS];
  assign hd = decode_load(head_insn);

  logic can_issue, issue, tokens_ok;
  assign tokens_ok = !hd.dep.pop_next || c2l_has;
  assign can_issue = (state == S_IDLE) && (q_count != 0) && tokens_ok;
  assign issue = can_issue && !halt;
  assign q_deq = issue;
  assign c2l_pop = issue && hd.dep.pop_next;

  // DMA engine
  u32_t total_elems;
  logic dma_last, dma_busy, dma_overflow, dma_stray;
  logic wr_valid, wr_pad;
  u32_t wr_elem, wr_lane, wr_nelem;
  tandem_dma_read u_dma (
      .clk,
      .clear,
      .start(issue),
      .d(hd),
      .log_eb(log_elem_bytes(hd.mem_type)),
      .total_elems,
      .req_valid,
      .req_addr,
      .req_bytes,
      .addr_overflow(dma_overflow),
      .grant,
      .rd_valid,
      .rd_data,
      .wr_valid,
      .wr_pad,
      .wr_elem,
      .wr_lane,
      .wr_nelem,
      .wr_data(wdata),
      .last(dma_last),
      .busy(dma_busy),
      .stray_beat(dma_stray)
  );
  logic unused_dma;
  assign unused_dma = dma_busy ^ (^wr_nelem) ^ (^wr_elem[31:INP_IDX_W < WGT_IDX_W ? WGT_IDX_W : INP_IDX_W]);

  // SRAM writes (lane writes; padding writes a whole zero row)
  assign inp_we = wr_valid && (cur_mt == MEM_INP);
  assign wgt_we = wr_valid && (cur_mt == MEM_WGT);
  assign inp_wfull = wr_pad;
  assign wgt_wfull = wr_pad;
  assign inp_waddr = INP_IDX_W'(wr_elem);
  assign wgt_waddr = WGT_IDX_W'(wr_elem);
  assign inp_wlane = wr_lane;
  assign wgt_wlane = wr_lane;

  // push
  logic push_now;
  assign push_now = ((state == S_EXEC && dma_last) || state == S_PUSH) && (!cur_push || l2c_room);
  assign l2c_push = push_now && cur_push;

  // issue-time SRAM range check
  u32_t range_end;
  logic range_bad;
  assign range_end = hd.sram_base + total_elems;
  assign range_bad = issue && (total_elems != 0) && (range_end > depth_of(hd.mem_type));

  always_ff @(posedge clk) begin
    if (clear) begin
      state <= S_IDLE;
      cur_idx <= '0;
      cur_push <= 1'b0;
      cur_mt <= MEM_INP;
    end else begin
      case (state)
        S_IDLE:
        if (issue) begin
          state <= S_EXEC;
          cur_idx <= head_idx;
          cur_push <= hd.dep.push_next;
          cur_mt <= hd.mem_type;
        end
        S_EXEC: if (dma_last) state <= push_now ? S_IDLE : S_PUSH;
        default: if (push_now) state <= S_IDLE;
      endcase
    end
  end

  // errors (combinational; the top latches the first one)
  always_comb begin
    err = 1'b0;
    err_code = ERR_NONE;
    err_aux = '0;
    err_idx = cur_idx;
    err_value = '0;
    if (range_bad) begin
      err = 1'b1;
      err_code = ERR_SRAM;
      err_aux = 32'(hd.mem_type);
      err_idx = head_idx;
      err_value = (hd.sram_base >= depth_of(hd.mem_type)) ? hd.sram_base : depth_of(hd.mem_type);
    end else if (dma_overflow) begin
      err = 1'b1;
      err_code = ERR_DRAM;
      err_aux = 32'(cur_mt);
      err_value = req_addr;
    end else if (dma_stray) begin
      err = 1'b1;
      err_code = ERR_AXI;
      err_aux = 32'd1;
    end
  end

  assign progress = (state == S_EXEC) || can_issue || (state == S_PUSH && push_now);
  always_comb begin
    case (state)
      S_EXEC: dbg_state = DBG_BUSY;
      S_PUSH: dbg_state = DBG_PUSH_WAIT;
      default:
      dbg_state = (q_count == 0) ? DBG_IDLE : (can_issue ? DBG_ISSUE : DBG_STALL_TOKEN);
    endcase
  end
  assign dbg_idx = (state == S_IDLE) ? head_idx : cur_idx;
endmodule
