// tandem_fetch: instruction fetch and dispatch (docs/microarch.md section 1).
//
// Owns a buffer of FETCH_BUF_INSNS instructions. When it is empty and
// instructions remain, one read burst is requested for the next k
// instructions (k = remaining, capped at the next MEM_BURST_BYTES-aligned
// boundary). The first request is raised in cycle 0 (set at the start edge).
// After the burst's last beat (cycle t) the buffer holds k instructions and
// from t+1 one instruction per cycle is dispatched in order to its module's
// command queue (LOAD inp/wgt -> load, STORE -> store, the rest -> compute),
// if that queue holds fewer than CMD_QUEUE_DEPTH entries at the start of the
// cycle; otherwise fetch stalls. After the last buffered instruction is
// dispatched in d, the next request is raised in d+1. Each queued entry
// carries the instruction's program index (for status and errors).
// Malformed words (opcode, memory type, ALU op, micro-op range, FINISH not
// last / last not FINISH) and a misaligned instruction address are
// reported as ERR_ILLEGAL instead of being dispatched.
// Assumes MEM_BYTES_PER_CYCLE <= 16 and a 16-byte aligned instruction address.
module tandem_fetch
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic clear,  // start of a run: latch insn_addr / insn_count
    input logic halt,
    input logic [31:0] insn_addr,
    input logic [31:0] insn_count,
    // memory requester
    output logic req_valid,
    output logic [31:0] req_addr,
    output logic [BYTES_W-1:0] req_bytes,
    input logic grant,
    input logic rd_valid,
    input logic [MEM_DATA_W-1:0] rd_data,
    input logic rd_last,
    // dispatch
    output logic enq_load,
    output logic enq_compute,
    output logic enq_store,
    output logic [QENTRY_W-1:0] enq_entry,
    input logic [CMD_COUNT_W-1:0] count_load,
    input logic [CMD_COUNT_W-1:0] count_compute,
    input logic [CMD_COUNT_W-1:0] count_store,
    // status
    output logic err,
    output u32_t err_aux,
    output u32_t err_idx,
    output logic progress,
    output logic stall_queue,
    output logic [3:0] dbg_state,
    output u32_t dbg_idx
);
  localparam int P = MEM_BYTES_PER_CYCLE;
  localparam int IB = INSN_BYTES / P;  // beats per instruction
  localparam int NBEATS = FETCH_BUF_INSNS * IB;
  localparam int LOGB = LOG_MEM_BURST_BYTES;

  if (P > INSN_BYTES) begin : g_bad_port
    $error("tandem_fetch: MEM_BYTES_PER_CYCLE must be at most 16");
  end

  logic [MEM_DATA_W-1:0] fbuf[NBEATS];
  u32_t f_rem;   // instructions not yet dispatched
  u32_t f_idx;   // index of the next instruction to dispatch
  logic [31:0] f_addr;  // byte address of the next instruction to fetch
  logic f_req, f_wait;
  u32_t f_k, f_cnt, f_head, f_beat;

  // request: k instructions up to the next burst boundary
  u32_t to_bnd, k;
  assign to_bnd = (32'(MEM_BURST_BYTES) - 32'(f_addr[LOGB-1:0])) >> 4;
  assign k = umin32(f_rem, to_bnd);
  assign req_valid = f_req && !halt;
  assign req_addr = f_addr;
  assign req_bytes = BYTES_W'(k << 4);

  // head instruction
  insn_t head;
  always_comb begin
    for (int b = 0; b < IB; b++) head[b*MEM_DATA_W+:MEM_DATA_W] = fbuf[f_head*IB+b];
  end
  logic [OPCODE_W-1:0] op;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_insn_t hm;
  cmp_insn_t hc;
  /* verilator lint_on UNUSEDSIGNAL */
  logic to_load, to_store, to_compute, room, have;
  assign op = insn_opcode(head);
  assign hm = decode_load(head);
  assign hc = (op == OP_ALU) ? decode_alu(head) : decode_gemm(head);
  assign to_load = (op == OP_LOAD) && (hm.mem_type == MEM_INP || hm.mem_type == MEM_WGT);
  assign to_store = op == OP_STORE;
  assign to_compute = !to_load && !to_store;
  assign have = f_cnt != 0;
  always_comb begin
    if (to_load) room = 32'(count_load) < CMD_QUEUE_DEPTH;
    else if (to_store) room = 32'(count_store) < CMD_QUEUE_DEPTH;
    else room = 32'(count_compute) < CMD_QUEUE_DEPTH;
  end

  // legality of the head word
  logic ill;
  u32_t ill_aux;
  always_comb begin
    ill = 1'b0;
    ill_aux = '0;
    if (op > OP_ALU) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_OPCODE);
    end else if (op == OP_LOAD && hm.mem_type > MEM_ACC) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_MEM_TYPE);
    end else if (op == OP_STORE && hm.mem_type != MEM_OUT) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_MEM_TYPE);
    end else if ((op == OP_GEMM || op == OP_ALU) &&
                 (hc.uop_bgn > hc.uop_end || hc.uop_end > 32'(UOP_DEPTH))) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_UOP_RANGE);
    end else if (op == OP_ALU && hc.alu_op > ALU_MUL) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_ALU_OP);
    end else if (op == OP_FINISH && f_rem != 32'd1) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_FINISH_NOT_LAST);
    end else if (op != OP_FINISH && f_rem == 32'd1) begin
      ill = 1'b1;
      ill_aux = 32'(ILL_LAST_NOT_FINISH);
    end
  end

  logic dispatch;
  assign dispatch = have && room && !ill && !halt;
  assign enq_load = dispatch && to_load;
  assign enq_store = dispatch && to_store;
  assign enq_compute = dispatch && to_compute;
  assign enq_entry = {f_idx, head};

  always_ff @(posedge clk) begin
    if (clear) begin
      f_rem <= insn_count;
      f_idx <= '0;
      f_addr <= insn_addr;
      f_req <= insn_count != 0;
      f_wait <= 1'b0;
      f_k <= '0;
      f_cnt <= '0;
      f_head <= '0;
      f_beat <= '0;
    end else begin
      if (req_valid && grant) begin
        f_req <= 1'b0;
        f_wait <= 1'b1;
        f_k <= k;
        f_beat <= '0;
        f_addr <= f_addr + (k << 4);
      end
      if (f_wait && rd_valid) begin
        fbuf[f_beat] <= rd_data;
        f_beat <= f_beat + 1;
        if (rd_last) begin
          f_wait <= 1'b0;
          f_cnt <= f_k;
          f_head <= '0;
        end
      end
      if (dispatch) begin
        f_rem <= f_rem - 1;
        f_idx <= f_idx + 1;
        if (f_head + 1 == f_cnt) begin
          f_cnt <= '0;
          f_head <= '0;
          f_req <= f_rem != 32'd1;
        end else begin
          f_head <= f_head + 1;
        end
      end
    end
  end

  // errors: malformed head word, empty or misaligned launch, stray beat
  always_comb begin
    err = 1'b0;
    err_aux = '0;
    err_idx = f_idx;
    if (have && ill) begin
      err = 1'b1;
      err_aux = ill_aux;
    end else if (f_rem == 0 && f_idx == 0) begin
      err = 1'b1;
      err_aux = 32'(ILL_EMPTY);
    end else if (f_req && f_addr[3:0] != 4'd0) begin
      err = 1'b1;
      err_aux = 32'(ILL_INSN_ADDR);
    end
  end

  assign stall_queue = have && !room && !ill;
  assign progress = f_req || f_wait || (have && room && !ill);
  always_comb begin
    if (f_req) dbg_state = 4'd1;  // request raised
    else if (f_wait) dbg_state = 4'd2;  // waiting for the burst
    else if (have) dbg_state = room ? 4'd3 : 4'd4;  // dispatching / queue full
    else dbg_state = 4'd0;  // nothing left
  end
  assign dbg_idx = f_idx;
endmodule
