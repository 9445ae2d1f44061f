// tern_beat_fifo: the operand beats an engine adapter has read ahead of its engine
// (docs/core-rtl.md "Read-ahead"). A memory read granted in one cycle lands (push_i) the next,
// so with one beat held for the engine an adapter could read only every third cycle; this FIFO
// lets it read every cycle. room_o says a read may be granted this cycle: the beats held, plus
// the one landing now, minus the one leaving now, leave a place for it when it lands (whether
// the engine takes a beat then or not), so a push never finds the FIFO full.
module tern_beat_fifo #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 2,  // a power of two (tern_fifo)
  localparam int unsigned PtrBits = (Depth > 1) ? $clog2(Depth) : 1
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

  logic             empty, full;
  logic [PtrBits:0] count;
  tern_fifo #(.Width (Width), .Depth (Depth)) u_fifo (
    .clk_i, .rst_ni, .flush_i (clear_i), .push_i, .data_i (push_data_i), .full_o (full),
    .pop_i, .data_o, .empty_o (empty), .count_o (count));

  assign valid_o = !empty;
  assign room_o  = (32'(count) + 32'(push_i) - 32'(pop_i)) < Depth;

  logic unused_full;  // room_o keeps pushes off a full FIFO
  assign unused_full = full;

endmodule
