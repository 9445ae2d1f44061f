// tern_fifo_props: tern_fifo (rtl/prim/tern_fifo.sv) at Width 8, Depth 4 with its properties,
// proven by `make formal` (scripts/formal.sh: bounded model check, then k-induction). Every
// input is free, reset included after the first cycle: the FIFO is checked under any traffic,
// protocol errors included, since it promises to ignore a push when full and a pop when empty.
//   flags   full_o and empty_o are count_o == Depth and count_o == 0; count_o <= Depth;
//   count   count_o is the pushes taken minus the pops taken since the last reset or flush,
//           counted without wrapping (so no overflow and no underflow; an ignored push or pop
//           changes nothing);
//   order   a push chosen by pick_i (any one: the solver picks) comes out intact after exactly
//           the pops of the elements that were ahead of it, unless a flush drops it: so
//           elements leave in order, unchanged, none lost or repeated;
//   cover   the FIFO fills, and a picked element comes out from behind three others.
// Plain synthesizable SV with immediate assertions, so a simulation can use the same wrapper
// (pick_i is an input, not an $anyconst, for that reason); the checks sit outside synthesis
// like the RTL's own assertions. The invariants that make the properties inductive read the
// FIFO's state through peek_*: a simulation takes the hierarchical `assign peek_*` lines below;
// Yosys 0.23 has no hierarchical references, so scripts/formal.sh makes the same connections
// itself after flattening.
module tern_fifo_props #(
  parameter int unsigned Width = 8
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             flush_i,
  input logic             push_i,
  input logic [Width-1:0] data_i,
  input logic             pop_i,
  input logic             pick_i   // track the element this push brings in
);

  localparam int unsigned Depth   = 4;  // the peeks below name each word
  localparam int unsigned PtrBits = 2;

  logic             full, empty;
  logic [Width-1:0] data;
  logic [PtrBits:0] count;

  tern_fifo #(
    .Width(Width),
    .Depth(Depth)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .flush_i,
    .push_i,
    .data_i,
    .full_o  (full),
    .pop_i,
    .data_o  (data),
    .empty_o (empty),
    .count_o (count)
  );

`ifndef SYNTHESIS
  // --- The FIFO's state ----------------------------------------------------------------------
  logic [PtrBits-1:0] peek_rd, peek_wr;
  logic [Width-1:0]   peek_mem0, peek_mem1, peek_mem2, peek_mem3;
`ifndef FORMAL
  assign peek_rd   = u_dut.rd_q;
  assign peek_wr   = u_dut.wr_q;
  assign peek_mem0 = u_dut.mem_q[0];
  assign peek_mem1 = u_dut.mem_q[1];
  assign peek_mem2 = u_dut.mem_q[2];
  assign peek_mem3 = u_dut.mem_q[3];
`endif

  // --- Reference: what was taken, and where the picked element is ---------------------------
  logic       took_push, took_pop;
  logic [7:0] taken_q, taken_d;    // pushes taken minus pops taken, never wrapping in range
  logic       trk_q, trk_d;        // the picked element is inside
  logic [PtrBits:0] ahead_q, ahead_d;  // elements ahead of it
  logic [Width-1:0] trk_data_q, trk_data_d;
  logic [PtrBits-1:0] trk_slot;
  logic [Width-1:0]   trk_word;

  assign took_push = push_i && !full;
  assign took_pop  = pop_i && !empty;

  always_comb begin
    taken_d    = taken_q + 8'(took_push) - 8'(took_pop);
    trk_d      = trk_q;
    ahead_d    = ahead_q;
    trk_data_d = trk_data_q;
    if (trk_q && took_pop) begin
      if (ahead_q == '0) trk_d = 1'b0;
      else               ahead_d = ahead_q - 1'b1;
    end
    if (!trk_q && pick_i && took_push) begin
      trk_d      = 1'b1;
      ahead_d    = count - (PtrBits + 1)'(took_pop);
      trk_data_d = data_i;
    end
    if (flush_i) begin
      taken_d = '0;
      trk_d   = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      taken_q    <= '0;
      trk_q      <= 1'b0;
      ahead_q    <= '0;
      trk_data_q <= '0;
    end else begin
      taken_q    <= taken_d;
      trk_q      <= trk_d;
      ahead_q    <= ahead_d;
      trk_data_q <= trk_data_d;
    end
  end

  assign trk_slot = peek_rd + ahead_q[PtrBits-1:0];
  always_comb begin
    unique case (trk_slot)
      2'd0:    trk_word = peek_mem0;
      2'd1:    trk_word = peek_mem1;
      2'd2:    trk_word = peek_mem2;
      default: trk_word = peek_mem3;
    endcase
  end

  // --- Properties ----------------------------------------------------------------------------
`ifdef FORMAL
  initial assume (!rst_ni);
`endif

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      flags_full: assert (full == (count == (PtrBits + 1)'(Depth)));
      flags_empty: assert (empty == (count == '0));
      count_bounded: assert (32'(count) <= Depth);
      count_is_taken: assert (8'(count) == taken_q);
      order_out_intact: assert (!(trk_q && took_pop && ahead_q == '0) || data == trk_data_q);
      order_inside: assert (!trk_q || ahead_q < count);
      // Invariants of the implementation: the pointers are count apart, the picked element sits
      // ahead_q words after the head.
      inv_pointers: assert (peek_wr - peek_rd == count[PtrBits-1:0]);
      inv_trk_word: assert (!trk_q || trk_word == trk_data_q);
      cover_full: cover (full);
      cover_picked_out: cover (trk_q && took_pop && ahead_q == '0 && count == 3'd3);
    end
  end
`endif

endmodule
