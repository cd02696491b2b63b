// tandem_types_pkg: decoded instruction types, decode functions and the
// small arithmetic helpers shared by the Tandem RTL modules.
//
// Every field position comes from the generated tandem_pkg (LSB/_W per
// opcode); nothing here hard-codes a bit offset. Decoded numeric fields are
// zero-extended to 32 bits (the ALU immediate is sign-extended), so module
// arithmetic has one width and no silent truncation.
package tandem_types_pkg;
  import tandem_pkg::*;

  typedef logic [INSN_BITS-1:0] insn_t;
  typedef logic [31:0] u32_t;

  // Width of a burst length in bytes (0..MEM_BURST_BYTES).
  localparam int BYTES_W = LOG_MEM_BURST_BYTES + 1;
  // A queued instruction: its program index and its word.
  localparam int QENTRY_W = 32 + INSN_BITS;

  // Module states exported on dbg_state (docs/microarch.md section 2).
  localparam logic [3:0] DBG_IDLE = 4'd0;         // queue empty
  localparam logic [3:0] DBG_STALL_TOKEN = 4'd1;  // head waits for a token
  localparam logic [3:0] DBG_ISSUE = 4'd2;        // issuing this cycle
  localparam logic [3:0] DBG_BUSY = 4'd3;         // execute cycle
  localparam logic [3:0] DBG_PUSH_WAIT = 4'd4;    // waiting for token-queue room

  // Error codes on ctrl_err_code.
  localparam logic [3:0] ERR_NONE = 4'd0;
  localparam logic [3:0] ERR_LEFTOVER = 4'd1;  // tokens left at FINISH
  localparam logic [3:0] ERR_DEADLOCK = 4'd2;  // nothing can ever change again
  localparam logic [3:0] ERR_ILLEGAL = 4'd3;   // malformed instruction / launch
  localparam logic [3:0] ERR_SRAM = 4'd4;      // SRAM index out of range
  localparam logic [3:0] ERR_DRAM = 4'd5;      // DRAM byte address beyond 32 bits
  localparam logic [3:0] ERR_AXI = 4'd6;       // memory broke the timing contract

  // Error detail codes (ctrl_err_aux[7:0]) for ERR_ILLEGAL.
  localparam logic [7:0] ILL_OPCODE = 8'd1;
  localparam logic [7:0] ILL_MEM_TYPE = 8'd2;
  localparam logic [7:0] ILL_FINISH_NOT_LAST = 8'd3;
  localparam logic [7:0] ILL_LAST_NOT_FINISH = 8'd4;
  localparam logic [7:0] ILL_UOP_RANGE = 8'd5;
  localparam logic [7:0] ILL_ALU_OP = 8'd6;
  localparam logic [7:0] ILL_INSN_ADDR = 8'd7;
  localparam logic [7:0] ILL_EMPTY = 8'd8;

  typedef struct packed {
    logic pop_prev;
    logic pop_next;
    logic push_prev;
    logic push_next;
  } dep_t;

  // LOAD / STORE.
  typedef struct packed {
    logic [OPCODE_W-1:0] opcode;
    dep_t dep;
    logic [LOAD_MEM_TYPE_W-1:0] mem_type;
    u32_t sram_base;
    u32_t dram_base;
    u32_t y_size;
    u32_t x_size;
    u32_t x_stride;
    u32_t y_pad_0;
    u32_t y_pad_1;
    u32_t x_pad_0;
    u32_t x_pad_1;
  } mem_insn_t;

  // GEMM / ALU.
  typedef struct packed {
    logic [OPCODE_W-1:0] opcode;
    dep_t dep;
    logic reset;
    u32_t uop_bgn;
    u32_t uop_end;
    u32_t iter_out;
    u32_t iter_in;
    u32_t dst_fo;
    u32_t dst_fi;
    u32_t src_fo;
    u32_t src_fi;
    u32_t wgt_fo;
    u32_t wgt_fi;
    logic [ALU_ALU_OP_W-1:0] alu_op;
    logic use_imm;
    u32_t imm;  // sign-extended
  } cmp_insn_t;

`define TANDEM_FLD(word, NAME) 32'(word[NAME``_LSB +: NAME``_W])

  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [OPCODE_W-1:0] insn_opcode(insn_t i);
    return i[OPCODE_LSB+:OPCODE_W];
  endfunction

  function automatic dep_t insn_dep(insn_t i);
    dep_t d;
    d.pop_prev = i[POP_PREV_LSB];
    d.pop_next = i[POP_NEXT_LSB];
    d.push_prev = i[PUSH_PREV_LSB];
    d.push_next = i[PUSH_NEXT_LSB];
    return d;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  function automatic mem_insn_t decode_load(insn_t i);
    mem_insn_t d;
    d.opcode = insn_opcode(i);
    d.dep = insn_dep(i);
    d.mem_type = i[LOAD_MEM_TYPE_LSB+:LOAD_MEM_TYPE_W];
    d.sram_base = `TANDEM_FLD(i, LOAD_SRAM_BASE);
    d.dram_base = `TANDEM_FLD(i, LOAD_DRAM_BASE);
    d.y_size = `TANDEM_FLD(i, LOAD_Y_SIZE);
    d.x_size = `TANDEM_FLD(i, LOAD_X_SIZE);
    d.x_stride = `TANDEM_FLD(i, LOAD_X_STRIDE);
    d.y_pad_0 = `TANDEM_FLD(i, LOAD_Y_PAD_0);
    d.y_pad_1 = `TANDEM_FLD(i, LOAD_Y_PAD_1);
    d.x_pad_0 = `TANDEM_FLD(i, LOAD_X_PAD_0);
    d.x_pad_1 = `TANDEM_FLD(i, LOAD_X_PAD_1);
    return d;
  endfunction

  // Stores carry no padding (the ISA forbids it); pads decode as zero.
  function automatic mem_insn_t decode_store(insn_t i);
    mem_insn_t d;
    d.opcode = insn_opcode(i);
    d.dep = insn_dep(i);
    d.mem_type = i[STORE_MEM_TYPE_LSB+:STORE_MEM_TYPE_W];
    d.sram_base = `TANDEM_FLD(i, STORE_SRAM_BASE);
    d.dram_base = `TANDEM_FLD(i, STORE_DRAM_BASE);
    d.y_size = `TANDEM_FLD(i, STORE_Y_SIZE);
    d.x_size = `TANDEM_FLD(i, STORE_X_SIZE);
    d.x_stride = `TANDEM_FLD(i, STORE_X_STRIDE);
    d.y_pad_0 = '0;
    d.y_pad_1 = '0;
    d.x_pad_0 = '0;
    d.x_pad_1 = '0;
    return d;
  endfunction

  function automatic cmp_insn_t decode_gemm(insn_t i);
    cmp_insn_t d;
    d.opcode = insn_opcode(i);
    d.dep = insn_dep(i);
    d.reset = i[GEMM_RESET_LSB];
    d.uop_bgn = `TANDEM_FLD(i, GEMM_UOP_BGN);
    d.uop_end = `TANDEM_FLD(i, GEMM_UOP_END);
    d.iter_out = `TANDEM_FLD(i, GEMM_ITER_OUT);
    d.iter_in = `TANDEM_FLD(i, GEMM_ITER_IN);
    d.dst_fo = `TANDEM_FLD(i, GEMM_DST_FACTOR_OUT);
    d.dst_fi = `TANDEM_FLD(i, GEMM_DST_FACTOR_IN);
    d.src_fo = `TANDEM_FLD(i, GEMM_SRC_FACTOR_OUT);
    d.src_fi = `TANDEM_FLD(i, GEMM_SRC_FACTOR_IN);
    d.wgt_fo = `TANDEM_FLD(i, GEMM_WGT_FACTOR_OUT);
    d.wgt_fi = `TANDEM_FLD(i, GEMM_WGT_FACTOR_IN);
    d.alu_op = '0;
    d.use_imm = 1'b0;
    d.imm = '0;
    return d;
  endfunction

  function automatic cmp_insn_t decode_alu(insn_t i);
    cmp_insn_t d;
    d.opcode = insn_opcode(i);
    d.dep = insn_dep(i);
    d.reset = i[ALU_RESET_LSB];
    d.uop_bgn = `TANDEM_FLD(i, ALU_UOP_BGN);
    d.uop_end = `TANDEM_FLD(i, ALU_UOP_END);
    d.iter_out = `TANDEM_FLD(i, ALU_ITER_OUT);
    d.iter_in = `TANDEM_FLD(i, ALU_ITER_IN);
    d.dst_fo = `TANDEM_FLD(i, ALU_DST_FACTOR_OUT);
    d.dst_fi = `TANDEM_FLD(i, ALU_DST_FACTOR_IN);
    d.src_fo = `TANDEM_FLD(i, ALU_SRC_FACTOR_OUT);
    d.src_fi = `TANDEM_FLD(i, ALU_SRC_FACTOR_IN);
    d.wgt_fo = '0;
    d.wgt_fi = '0;
    d.alu_op = i[ALU_ALU_OP_LSB+:ALU_ALU_OP_W];
    d.use_imm = i[ALU_USE_IMM_LSB];
    d.imm = 32'(signed'(i[ALU_IMM_LSB+:ALU_IMM_W]));
    return d;
  endfunction

`undef TANDEM_FLD

  // log2 of the element size of a memory type (bytes).
  function automatic logic [3:0] log_elem_bytes(logic [LOAD_MEM_TYPE_W-1:0] mt);
    case (mt)
      MEM_UOP: return 4'(UOP_LOG_ELEM_BYTES);
      MEM_WGT: return 4'(WGT_LOG_ELEM_BYTES);
      MEM_INP: return 4'(INP_LOG_ELEM_BYTES);
      MEM_ACC: return 4'(ACC_LOG_ELEM_BYTES);
      default: return 4'(OUT_LOG_ELEM_BYTES);
    endcase
  endfunction

  function automatic u32_t depth_of(logic [LOAD_MEM_TYPE_W-1:0] mt);
    case (mt)
      MEM_UOP: return 32'(UOP_DEPTH);
      MEM_WGT: return 32'(WGT_DEPTH);
      MEM_INP: return 32'(INP_DEPTH);
      MEM_ACC: return 32'(ACC_DEPTH);
      default: return 32'(OUT_DEPTH);
    endcase
  endfunction

  function automatic u32_t umin32(u32_t a, u32_t b);
    return a < b ? a : b;
  endfunction

  // One ALU lane (isa/insn.h semantics).
  function automatic logic [31:0] alu_lane(logic [ALU_ALU_OP_W-1:0] op, logic [31:0] x,
                                           logic [31:0] y);
    logic [32:0] neg;
    logic [4:0] sh;
    case (op)
      ALU_MIN: return ($signed(x) < $signed(y)) ? x : y;
      ALU_MAX: return ($signed(x) > $signed(y)) ? x : y;
      ALU_ADD: return x + y;
      ALU_MUL: return x * y;
      default: begin  // ALU_SHR
        if (!y[31]) begin
          sh = (y > 32'd31) ? 5'd31 : y[4:0];
          return 32'($signed(x) >>> sh);
        end
        neg = 33'd0 - {1'b1, y};
        sh = (neg > 33'd31) ? 5'd31 : neg[4:0];
        return x << sh;
      end
    endcase
  endfunction
endpackage
