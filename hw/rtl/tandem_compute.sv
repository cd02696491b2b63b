// tandem_compute: the compute module (LOAD uop/acc, GEMM, ALU, FINISH;
// docs/microarch.md sections 2-3).
//
// Issue needs, besides a non-empty queue, a token in load->compute for
// pop_prev and in store->compute for pop_next. Execute:
//  - LOAD uop/acc: tandem_dma_read into the micro-op banks / acc SRAM;
//  - GEMM/ALU: a 3-stage pipeline, one micro-op entering per cycle with no
//    bubbles between loop iterations, E = n + 2 (also for n = 0):
//      stage 1: loop counters -> micro-op SRAM read address;
//      stage 2: micro-op fields + loop offsets -> acc/inp/wgt read addresses
//               (and the SRAM index range check);
//      stage 3: multiply-accumulate or ALU op; writes acc[a] and out[a].
//    A stage-2 read of the row that stage 3 writes in the same cycle gets
//    the stage-3 result forwarded (dst and ALU src), so back-to-back
//    micro-ops on one row never stall;
//  - FINISH: E = 1.
// Push: push_prev -> compute->load, push_next -> compute->store, together,
// in the last execute cycle or (when a queue is full) later.
// Micro-ops live in P/4 banks (element e in bank e % NB) so that one beat's
// P/4 micro-ops are written in one cycle. Assumes 4 <= P, and acc elements
// a whole number of beats.
module tandem_compute
  import tandem_pkg::*;
  import tandem_types_pkg::*;
(
    input logic clk,
    input logic clear,
    input logic halt,
    input logic [CMD_COUNT_W-1:0] q_count,
    input logic [QENTRY_W-1:0] q_head,
    output logic q_deq,
    input logic l2c_has,
    output logic l2c_pop,
    input logic s2c_has,
    output logic s2c_pop,
    input logic c2l_room,
    output logic c2l_push,
    input logic c2s_room,
    output logic c2s_push,
    // memory requester (reads)
    output logic req_valid,
    output logic [31:0] req_addr,
    output logic [BYTES_W-1:0] req_bytes,
    input logic grant,
    input logic rd_valid,
    input logic [MEM_DATA_W-1:0] rd_data,
    // inp / wgt read ports (SRAMs shared with the load module)
    output logic [INP_IDX_W-1:0] inp_raddr,
    input logic [INP_ELEM_BITS-1:0] inp_rdata,
    output logic [WGT_IDX_W-1:0] wgt_raddr,
    input logic [WGT_ELEM_BITS-1:0] wgt_rdata,
    // out write port (SRAM shared with the store module)
    output logic out_we,
    output logic [OUT_IDX_W-1:0] out_waddr,
    output logic [OUT_ELEM_BITS-1:0] out_wdata,
    // errors / status
    output logic err,
    output logic [3:0] err_code,
    output u32_t err_aux,
    output u32_t err_idx,
    output u32_t err_value,
    output logic finish_exec,
    output logic progress,
    output logic [3:0] dbg_state,
    output u32_t dbg_idx
);
  localparam int P = MEM_BYTES_PER_CYCLE;
  localparam int LANES = BATCH * BLOCK_OUT;  // int32 lanes of an acc row
  localparam int UOP_NB = P / UOP_ELEM_BYTES;
  localparam int LOG_NB = $clog2(UOP_NB);
  localparam int BANK_DEPTH = UOP_DEPTH / UOP_NB;
  localparam logic [1:0] S_IDLE = 2'd0, S_EXEC = 2'd1, S_PUSH = 2'd2;
  localparam logic [1:0] K_DMA = 2'd0, K_CORE = 2'd1, K_FINISH = 2'd2;

  if (P < UOP_ELEM_BYTES || ACC_ELEM_BYTES % P != 0) begin : g_bad_port
    $error("tandem_compute: needs 4 <= MEM_BYTES_PER_CYCLE and ACC_ELEM_BYTES a multiple of it");
  end
  if (ACC_WIDTH != 32 || OUT_WIDTH != 8 || INP_WIDTH != 8 || WGT_WIDTH != 8) begin : g_bad_width
    $error("tandem_compute: supports int8 inputs/weights/outputs and int32 accumulators");
  end

  // ---------------- issue ----------------
  logic [1:0] state, kind;
  u32_t cur_idx;
  logic cur_pp, cur_pn;  // push_prev, push_next
  logic [LOAD_MEM_TYPE_W-1:0] cur_mt;
  /* verilator lint_off UNUSEDSIGNAL */
  cmp_insn_t ci;  // latched GEMM/ALU
  /* verilator lint_on UNUSEDSIGNAL */
  logic ci_alu;

  insn_t head_insn;
  u32_t head_idx;
  dep_t hdep;
  logic [OPCODE_W-1:0] hop;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_insn_t hm;
  cmp_insn_t hc;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head_insn = q_head[INSN_BITS-1:0];
  assign head_idx = q_head[QENTRY_W-1:INSN_BITS];
  assign hdep = insn_dep(head_insn);
  assign hop = insn_opcode(head_insn);
  assign hm = decode_load(head_insn);
  assign hc = (hop == OP_ALU) ? decode_alu(head_insn) : decode_gemm(head_insn);

  logic can_issue, issue, issue_dma, issue_core;
  assign can_issue = (state == S_IDLE) && (q_count != 0) && (!hdep.pop_prev || l2c_has) &&
      (!hdep.pop_next || s2c_has);
  assign issue = can_issue && !halt;
  assign issue_dma = issue && (hop == OP_LOAD);
  assign issue_core = issue && (hop == OP_GEMM || hop == OP_ALU);
  assign q_deq = issue;
  assign l2c_pop = issue && hdep.pop_prev;
  assign s2c_pop = issue && hdep.pop_next;

  // ---------------- DMA (uop / acc loads) ----------------
  u32_t total_elems;
  logic dma_last, dma_busy, dma_overflow, dma_stray;
  logic wr_valid, wr_pad;
  u32_t wr_elem, wr_lane, wr_nelem;
  logic [MEM_DATA_W-1:0] wr_data;
  tandem_dma_read u_dma (
      .clk,
      .clear,
      .start(issue_dma),
      .d(hm),
      .log_eb(log_elem_bytes(hm.mem_type)),
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
      .wr_data,
      .last(dma_last),
      .busy(dma_busy),
      .stray_beat(dma_stray)
  );
  logic unused_dma;
  assign unused_dma = dma_busy;

  // ---------------- GEMM/ALU pipeline: stage 1 ----------------
  logic g_on, nul1, nul2;
  u32_t g_u, g_i0, g_i1;
  u32_t g_do, g_di, g_so, g_si, g_wo, g_wi;  // outer / inner offsets
  logic g_final;
  assign g_final = (g_u + 1 == ci.uop_end) && (g_i1 + 1 == ci.iter_in) &&
      (g_i0 + 1 == ci.iter_out);

  logic s2_v, s2_last;
  u32_t s2_doff, s2_soff, s2_woff;
  logic [LOG_NB > 0 ? LOG_NB-1 : 0:0] s2_bank;

  // ---------------- stage 2 ----------------
  logic [UOP_NB-1:0][UOP_BITS-1:0] bank_rdata;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [UOP_BITS-1:0] uop_word;  // bits above UOP_BITS_USED are unused
  /* verilator lint_on UNUSEDSIGNAL */
  u32_t a2, s2, w2;
  logic s3_v, s3_last, s3_fwd_a, s3_fwd_s;
  u32_t s3_a;
  logic range_a, range_s, range_w;
  assign uop_word = bank_rdata[s2_bank];
  assign a2 = 32'(uop_word[UOP_DST_LSB+:UOP_DST_W]) + s2_doff;
  assign s2 = 32'(uop_word[UOP_SRC_LSB+:UOP_SRC_W]) + s2_soff;
  assign w2 = 32'(uop_word[UOP_WGT_LSB+:UOP_WGT_W]) + s2_woff;
  assign range_a = s2_v && (a2 >= 32'(ACC_DEPTH));
  assign range_s = s2_v && !ci.reset &&
      (ci_alu ? (!ci.use_imm && s2 >= 32'(ACC_DEPTH)) : (s2 >= 32'(INP_DEPTH)));
  assign range_w = s2_v && !ci.reset && !ci_alu && (w2 >= 32'(WGT_DEPTH));
  assign inp_raddr = INP_IDX_W'(s2);
  assign wgt_raddr = WGT_IDX_W'(w2);

  // ---------------- stage 3 ----------------
  logic [1:0][ACC_IDX_W-1:0] acc_raddr;
  logic [1:0][ACC_ELEM_BITS-1:0] acc_rdata;
  logic [ACC_ELEM_BITS-1:0] res, res_prev, xrow, yrow;
  assign acc_raddr[0] = ACC_IDX_W'(a2);
  assign acc_raddr[1] = ACC_IDX_W'(s2);

  function automatic logic signed [15:0] mul8(logic [7:0] a, logic [7:0] b);
    return $signed(a) * $signed(b);
  endfunction

  always_comb begin
    logic [31:0] sum;
    sum = '0;
    res = '0;
    xrow = s3_fwd_a ? res_prev : acc_rdata[0];
    yrow = s3_fwd_s ? res_prev : acc_rdata[1];
    if (s3_v && !ci.reset) begin
      if (ci_alu) begin
        for (int l = 0; l < LANES; l++) begin
          res[l*32+:32] = alu_lane(ci.alu_op, xrow[l*32+:32], ci.use_imm ? ci.imm : yrow[l*32+:32]);
        end
      end else begin
        for (int b = 0; b < BATCH; b++) begin
          for (int o = 0; o < BLOCK_OUT; o++) begin
            sum = xrow[(b*BLOCK_OUT+o)*32+:32];
            for (int i = 0; i < BLOCK_IN; i++) begin
              sum = sum + 32'(mul8(inp_rdata[(b*BLOCK_IN+i)*8+:8], wgt_rdata[(o*BLOCK_IN+i)*8+:8]));
            end
            res[(b*BLOCK_OUT+o)*32+:32] = sum;
          end
        end
      end
    end
  end

  always_comb begin
    for (int l = 0; l < LANES; l++) out_wdata[l*8+:8] = res[l*32+:8];
  end
  assign out_we = s3_v;
  assign out_waddr = OUT_IDX_W'(s3_a);

  // ---------------- SRAMs: acc and micro-op banks ----------------
  logic acc_we, acc_wfull;
  logic [ACC_IDX_W-1:0] acc_waddr;
  assign acc_we = s3_v || (wr_valid && cur_mt == MEM_ACC);
  assign acc_wfull = s3_v || wr_pad;
  assign acc_waddr = s3_v ? ACC_IDX_W'(s3_a) : ACC_IDX_W'(wr_elem);
  tandem_sram #(
      .DEPTH(ACC_DEPTH),
      .ROW_W(ACC_ELEM_BITS),
      .LANE_W(MEM_DATA_W),
      .NREAD(2)
  ) u_acc (
      .clk,
      .we(acc_we),
      .wfull(acc_wfull),
      .waddr(acc_waddr),
      .wlane(wr_lane),
      .wrow(res),
      .wlane_data(wr_data),
      .raddr(acc_raddr),
      .rdata(acc_rdata)
  );

  for (genvar bk = 0; bk < UOP_NB; bk++) begin : g_uop_bank
    u32_t j, el;
    logic we;
    assign j = (32'(bk) - wr_elem) & 32'(UOP_NB - 1);
    assign el = wr_elem + j;
    assign we = wr_valid && !wr_pad && (cur_mt == MEM_UOP) && (j < wr_nelem);
    logic [0:0][$clog2(BANK_DEPTH)-1:0] raddr;
    logic [0:0][UOP_BITS-1:0] rdata;
    assign raddr[0] = $clog2(BANK_DEPTH)'(g_u >> LOG_NB);
    assign bank_rdata[bk] = rdata[0];
    tandem_sram #(
        .DEPTH(BANK_DEPTH),
        .ROW_W(UOP_BITS),
        .LANE_W(UOP_BITS),
        .NREAD(1)
    ) u_bank (
        .clk,
        .we(we),
        .wfull(1'b0),
        .waddr($clog2(BANK_DEPTH)'(el >> LOG_NB)),
        .wlane(32'd0),
        .wrow('0),
        .wlane_data(wr_data[j[LOG_NB > 0 ? LOG_NB-1 : 0:0]*UOP_BITS+:UOP_BITS]),
        .raddr(raddr),
        .rdata(rdata)
    );
  end

  // ---------------- control ----------------
  logic last, push_now;
  always_comb begin
    case (kind)
      K_DMA: last = dma_last;
      K_CORE: last = (s3_v && s3_last) || nul2;
      default: last = 1'b1;  // FINISH: E = 1
    endcase
    last = last && (state == S_EXEC);
  end
  assign push_now = (last || state == S_PUSH) && (!cur_pp || c2l_room) && (!cur_pn || c2s_room);
  assign c2l_push = push_now && cur_pp;
  assign c2s_push = push_now && cur_pn;
  assign finish_exec = (state == S_EXEC) && (kind == K_FINISH);

  always_ff @(posedge clk) begin
    if (clear) begin
      state <= S_IDLE;
      kind <= K_FINISH;
      cur_idx <= '0;
      cur_pp <= 1'b0;
      cur_pn <= 1'b0;
      cur_mt <= MEM_ACC;
      g_on <= 1'b0;
      nul1 <= 1'b0;
      nul2 <= 1'b0;
      s2_v <= 1'b0;
      s3_v <= 1'b0;
      ci_alu <= 1'b0;
    end else begin
      case (state)
        S_IDLE:
        if (issue) begin
          state <= S_EXEC;
          cur_idx <= head_idx;
          cur_pp <= hdep.push_prev;
          cur_pn <= hdep.push_next;
          cur_mt <= hm.mem_type;
          kind <= issue_dma ? K_DMA : (issue_core ? K_CORE : K_FINISH);
        end
        S_EXEC: if (last) state <= push_now ? S_IDLE : S_PUSH;
        default: if (push_now) state <= S_IDLE;
      endcase

      // stage 1: loop counters
      nul2 <= nul1;
      nul1 <= 1'b0;
      if (issue_core) begin
        ci <= hc;
        ci_alu <= hop == OP_ALU;
        g_on <= (hc.iter_out != 0) && (hc.iter_in != 0) && (hc.uop_end > hc.uop_bgn);
        nul1 <= !((hc.iter_out != 0) && (hc.iter_in != 0) && (hc.uop_end > hc.uop_bgn));
        g_u <= hc.uop_bgn;
        g_i0 <= '0;
        g_i1 <= '0;
        g_do <= '0;
        g_di <= '0;
        g_so <= '0;
        g_si <= '0;
        g_wo <= '0;
        g_wi <= '0;
      end else if (g_on) begin
        if (g_u + 1 != ci.uop_end) begin
          g_u <= g_u + 1;
        end else begin
          g_u <= ci.uop_bgn;
          if (g_i1 + 1 != ci.iter_in) begin
            g_i1 <= g_i1 + 1;
            g_di <= g_di + ci.dst_fi;
            g_si <= g_si + ci.src_fi;
            g_wi <= g_wi + ci.wgt_fi;
          end else begin
            g_i1 <= '0;
            g_di <= '0;
            g_si <= '0;
            g_wi <= '0;
            if (g_i0 + 1 != ci.iter_out) begin
              g_i0 <= g_i0 + 1;
              g_do <= g_do + ci.dst_fo;
              g_so <= g_so + ci.src_fo;
              g_wo <= g_wo + ci.wgt_fo;
            end else begin
              g_on <= 1'b0;
            end
          end
        end
      end
      // stage 1 -> 2
      s2_v <= g_on;
      s2_last <= g_final;
      s2_doff <= g_do + g_di;
      s2_soff <= g_so + g_si;
      s2_woff <= g_wo + g_wi;
      s2_bank <= $bits(s2_bank)'(g_u & 32'(UOP_NB - 1));
      // stage 2 -> 3
      s3_v <= s2_v;
      s3_last <= s2_last;
      s3_a <= a2;
      s3_fwd_a <= s3_v && (s3_a == a2);
      s3_fwd_s <= s3_v && (s3_a == s2);
      // stage 3 result, forwarded to the next micro-op's stage 3
      res_prev <= res;
    end
  end

  // ---------------- errors ----------------
  logic range_bad;
  assign range_bad = issue_dma && (total_elems != 0) &&
      (hm.sram_base + total_elems > depth_of(hm.mem_type));
  always_comb begin
    err = 1'b0;
    err_code = ERR_NONE;
    err_aux = '0;
    err_idx = cur_idx;
    err_value = '0;
    if (range_bad) begin
      err = 1'b1;
      err_code = ERR_SRAM;
      err_aux = 32'(hm.mem_type);
      err_idx = head_idx;
      err_value = (hm.sram_base >= depth_of(hm.mem_type)) ? hm.sram_base : depth_of(hm.mem_type);
    end else if (range_a) begin
      err = 1'b1;
      err_code = ERR_SRAM;
      err_aux = 32'(MEM_ACC);
      err_value = a2;
    end else if (range_s) begin
      err = 1'b1;
      err_code = ERR_SRAM;
      err_aux = ci_alu ? 32'(MEM_ACC) : 32'(MEM_INP);
      err_value = s2;
    end else if (range_w) begin
      err = 1'b1;
      err_code = ERR_SRAM;
      err_aux = 32'(MEM_WGT);
      err_value = w2;
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
