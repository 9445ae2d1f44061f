// tern_beat_fifo: the operand beats an engine adapter has read ahead of its engine
// (docs/core-rtl.md "Adapters"). A memory read granted in one cycle lands (push_i) the next, so
// with one beat held for the engine an adapter could read only every other or third cycle;
// this FIFO lets it read every cycle. room_o says a read may be granted this cycle: the beats
// held, plus the one landing now, minus the one leaving now, leave a place for it when it lands
// (whether the engine takes a beat then or not).
module tern_beat_fifo #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 2,
  localparam int unsigned CW = $clog2(Depth + 1),
  localparam int unsigned PW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,  // an instruction starts: drop what the last one left
  input  logic             push_i,   // a read granted last cycle lands
  input  logic [Width-1:0] push_data_i,
  output logic             valid_o,  // a beat for the engine
  output logic [Width-1:0] data_o,
  input  logic             pop_i,    // the engine takes it (only with valid_o)
  output logic             room_o
);

  logic [Width-1:0] beat_q [Depth];
  logic [CW-1:0]    count_q;
  logic [PW-1:0]    rd_q, wr_q;

  function automatic logic [PW-1:0] next(input logic [PW-1:0] i);
    next = (32'(i) == Depth - 1) ? '0 : i + PW'(1);
  endfunction

  assign valid_o = (count_q != '0);
  assign data_o  = beat_q[rd_q];
  assign room_o  = (32'(count_q) + 32'(push_i) - 32'(pop_i)) < Depth;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      rd_q    <= '0;
      wr_q    <= '0;
    end else if (clear_i) begin
      count_q <= '0;
      rd_q    <= '0;
      wr_q    <= '0;
    end else begin
      if (push_i) wr_q <= next(wr_q);
      if (pop_i)  rd_q <= next(rd_q);
      count_q <= count_q + CW'(push_i) - CW'(pop_i);
    end
  end

  // The beats: no reset (count_q says which are held).
  always_ff @(posedge clk_i) begin
    if (push_i) beat_q[wr_q] <= push_data_i;
  end

endmodule
