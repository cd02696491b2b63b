// tandem_cmd_queue: a command queue of DEPTH entries (docs/microarch.md 5).
//
// count and head are registered state: an entry enqueued in cycle d is
// visible (count, head) from cycle d+1; a dequeue in cycle c frees room that
// the producer sees in c+1. enq and deq may happen in the same cycle. The
// caller never enqueues when count == DEPTH nor dequeues when count == 0.
module tandem_cmd_queue #(
    parameter int DEPTH = 64,
    parameter int W = 160,
    localparam int CW = $clog2(DEPTH + 1),
    localparam int PW = DEPTH > 1 ? $clog2(DEPTH) : 1
) (
    input logic clk,
    input logic clear,
    input logic enq,
    input logic [W-1:0] enq_data,
    input logic deq,
    output logic [W-1:0] head,
    output logic [CW-1:0] count
);
  logic [W-1:0] mem[DEPTH];
  logic [PW-1:0] rd, wr;

  function automatic logic [PW-1:0] bump(logic [PW-1:0] p);
    return (32'(p) == DEPTH - 1) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk) begin
    if (clear) begin
      rd <= '0;
      wr <= '0;
      count <= '0;
    end else begin
      if (enq) begin
        mem[wr] <= enq_data;
        wr <= bump(wr);
      end
      if (deq) rd <= bump(rd);
      count <= count + CW'(enq) - CW'(deq);
    end
  end

  assign head = mem[rd];
endmodule
