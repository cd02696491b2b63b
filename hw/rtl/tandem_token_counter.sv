// tandem_token_counter: one dependency-token queue (docs/microarch.md 5).
//
// Tokens carry no data, so the queue is a counter of 0..DEPTH. The count is
// registered: a push in cycle c is poppable from c+1, a pop in c frees room
// the pusher sees in c+1. The producer pushes only when count < DEPTH and
// the consumer pops only when count > 0 (both at the start of the cycle).
module tandem_token_counter #(
    parameter int DEPTH = 128,
    localparam int CW = $clog2(DEPTH + 1)
) (
    input logic clk,
    input logic clear,
    input logic push,
    input logic pop,
    output logic [CW-1:0] count,
    output logic [CW-1:0] count_next,
    output logic has_token,
    output logic has_room
);
  assign count_next = count + CW'(push) - CW'(pop);
  assign has_token = count != '0;
  assign has_room = 32'(count) < DEPTH;

  always_ff @(posedge clk) begin
    if (clear) count <= '0;
    else count <= count_next;
  end
endmodule
