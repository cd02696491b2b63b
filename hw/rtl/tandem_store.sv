// tandem_store: the store module (STORE of out; docs/microarch.md 2-4).
//
// Issue as in every module (pop_prev pops compute->store). Execute: bursts
// of the 2D transfer are requested like loads (tandem_dma_req); a write
// burst granted in cycle g sends its W beats in cycles g .. g+beats-1, read
// from the out SRAM in order (the SRAM is read one cycle ahead with the next
// beat's address, so the data of the granted beat is ready in g). The write
// response (B) of the last burst marks the last execute cycle; push_prev
// then pushes store->compute. A store with no data takes one execute cycle.
// Assumes out elements are a whole number of beats (OUT_ELEM_BYTES % P == 0).
module tandem_store
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic clear,
    input logic halt,
    input logic [CMD_COUNT_W-1:0] q_count,
    input logic [QENTRY_W-1:0] q_head,
    output logic q_deq,
    input logic c2s_has,
    output logic c2s_pop,
    input logic s2c_room,
    output logic s2c_push,
    // memory requester (writes)
    output logic req_valid,
    output logic [31:0] req_addr,
    output logic [BYTES_W-1:0] req_bytes,
    input logic grant,
    // W and B channels
    output logic wvalid,
    output logic [MEM_DATA_W-1:0] wdata,
    output logic [MEM_BYTES_PER_CYCLE-1:0] wstrb,
    output logic wlast,
    input logic bvalid,
    // out SRAM read port
    output logic [OUT_IDX_W-1:0] out_raddr,
    input logic [OUT_ELEM_BITS-1:0] out_rdata,
    // errors / status
    output logic err,
    output logic [3:0] err_code,
    output u32_t err_aux,
    output u32_t err_idx,
    output u32_t err_value,
    output logic progress,
    output logic b_pending,
    output logic [3:0] dbg_state,
    output u32_t dbg_idx
);
  localparam int P = MEM_BYTES_PER_CYCLE;
  localparam int LOGP = LOG_MEM_BYTES_PER_CYCLE;
  localparam int EB = OUT_ELEM_BYTES;
  localparam logic [1:0] S_IDLE = 2'd0, S_EXEC = 2'd1, S_PUSH = 2'd2;

  if (EB % P != 0) begin : g_bad_eb
    $error("tandem_store: OUT_ELEM_BYTES must be a multiple of MEM_BYTES_PER_CYCLE");
  end

  logic [1:0] state;
  u32_t cur_idx;
  logic cur_push, fin1;

  insn_t head_insn;
  u32_t head_idx;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_insn_t hd;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head_insn = q_head[INSN_BITS-1:0];
  assign head_idx = q_head[QENTRY_W-1:INSN_BITS];
  assign hd = decode_store(head_insn);

  logic can_issue, issue;
  assign can_issue = (state == S_IDLE) && (q_count != 0) && (!hd.dep.pop_prev || c2s_has);
  assign issue = can_issue && !halt;
  assign q_deq = issue;
  assign c2s_pop = issue && hd.dep.pop_prev;

  logic has_data;
  assign has_data = (hd.x_size != 0) && (hd.y_size != 0);

  logic dma_overflow;
  tandem_dma_req u_req (
      .clk,
      .clear,
      .start(issue),
      .dram_base(hd.dram_base),
      .y_size(hd.y_size),
      .x_size(hd.x_size),
      .x_stride(hd.x_stride),
      .log_eb(4'(OUT_LOG_ELEM_BYTES)),
      .grant,
      .req_valid,
      .req_addr,
      .req_bytes,
      .addr_overflow(dma_overflow)
  );

  // ---- W channel ----
  u32_t w_beats_left, w_bytes_left;  // of the burst being sent, after this cycle
  u32_t st_elem, st_off;
  u32_t beat_bytes, grant_beats;
  logic elem_wrap;
  assign grant_beats = (32'(req_bytes) + 32'(P - 1)) >> LOGP;
  assign wvalid = grant || (w_beats_left != 0);
  assign beat_bytes = grant ? umin32(32'(req_bytes), 32'(P)) : umin32(w_bytes_left, 32'(P));
  assign wlast = grant ? (grant_beats == 32'd1) : (w_beats_left == 32'd1);
  assign wstrb = P'((33'd1 << beat_bytes) - 33'd1);
  if (EB == P) begin : g_one_lane
    assign wdata = out_rdata;
  end else begin : g_lanes
    logic [$clog2(EB/P)-1:0] lane;
    assign lane = st_off[LOGP+:$clog2(EB/P)];
    assign wdata = out_rdata[lane*MEM_DATA_W+:MEM_DATA_W];
  end
  assign elem_wrap = (st_off + 32'(P)) == 32'(EB);
  always_comb begin
    if (issue) out_raddr = OUT_IDX_W'(hd.sram_base);
    else if (wvalid && elem_wrap) out_raddr = OUT_IDX_W'(st_elem + 1);
    else out_raddr = OUT_IDX_W'(st_elem);
  end

  // ---- B responses ----
  u32_t b_out;
  logic last, push_now;
  assign b_pending = b_out != 0;
  assign last = (state == S_EXEC) && (fin1 || (bvalid && b_out == 32'd1 && !req_valid));
  assign push_now = (last || state == S_PUSH) && (!cur_push || s2c_room);
  assign s2c_push = push_now && cur_push;

  always_ff @(posedge clk) begin
    if (clear) begin
      state <= S_IDLE;
      cur_idx <= '0;
      cur_push <= 1'b0;
      fin1 <= 1'b0;
      w_beats_left <= '0;
      w_bytes_left <= '0;
      b_out <= '0;
      st_elem <= '0;
      st_off <= '0;
    end else begin
      fin1 <= 1'b0;
      case (state)
        S_IDLE:
        if (issue) begin
          state <= S_EXEC;
          cur_idx <= head_idx;
          cur_push <= hd.dep.push_prev;
          fin1 <= !has_data;
          st_elem <= hd.sram_base;
          st_off <= '0;
        end
        S_EXEC: if (last) state <= push_now ? S_IDLE : S_PUSH;
        default: if (push_now) state <= S_IDLE;
      endcase
      if (grant) begin
        w_beats_left <= grant_beats - 1;
        w_bytes_left <= 32'(req_bytes) - beat_bytes;
      end else if (w_beats_left != 0) begin
        w_beats_left <= w_beats_left - 1;
        w_bytes_left <= w_bytes_left - beat_bytes;
      end
      if (wvalid) begin
        if (elem_wrap) begin
          st_off <= '0;
          st_elem <= st_elem + 1;
        end else begin
          st_off <= st_off + 32'(P);
        end
      end
      b_out <= b_out + 32'(grant) - 32'(bvalid && b_out != 0);
    end
  end

  // errors
  u32_t n_elems;
  logic range_bad;
  assign n_elems = hd.y_size * hd.x_size;
  assign range_bad = issue && (n_elems != 0) && (hd.sram_base + n_elems > 32'(OUT_DEPTH));
  always_comb begin
    err = 1'b0;
    err_code = ERR_NONE;
    err_aux = 32'(MEM_OUT);
    err_idx = cur_idx;
    err_value = '0;
    if (range_bad) begin
      err = 1'b1;
      err_code = ERR_SRAM;
      err_idx = head_idx;
      err_value = (hd.sram_base >= 32'(OUT_DEPTH)) ? hd.sram_base : 32'(OUT_DEPTH);
    end else if (dma_overflow) begin
      err = 1'b1;
      err_code = ERR_DRAM;
      err_value = req_addr;
    end else if (bvalid && b_out == 0) begin
      err = 1'b1;
      err_code = ERR_AXI;
      err_aux = 32'd2;
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
