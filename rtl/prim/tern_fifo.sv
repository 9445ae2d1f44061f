// tern_fifo: a small synchronous FIFO in registers; the head is visible combinationally, and a
// flush empties it in one cycle. Depth is a power of two. A push when full or a pop when empty
// is a protocol error (asserted): the FIFO ignores it, so the caller must look at full_o and
// empty_o first.
module tern_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 4,
  localparam int unsigned PtrBits = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  output logic             full_o,
  input  logic             pop_i,
  output logic [Width-1:0] data_o,
  output logic             empty_o,
  output logic [PtrBits:0] count_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrBits-1:0] rd_q, rd_d, wr_q, wr_d;
  logic [PtrBits:0]   cnt_q, cnt_d;
  logic do_push, do_pop;

  assign full_o  = cnt_q == (PtrBits + 1)'(Depth);
  assign empty_o = cnt_q == '0;
  assign count_o = cnt_q;
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;
  assign data_o  = mem_q[rd_q];

  always_comb begin
    rd_d  = rd_q;
    wr_d  = wr_q;
    cnt_d = cnt_q + (PtrBits + 1)'(do_push) - (PtrBits + 1)'(do_pop);
    if (do_push) wr_d = (Depth > 1) ? wr_q + 1'b1 : '0;
    if (do_pop)  rd_d = (Depth > 1) ? rd_q + 1'b1 : '0;
    if (flush_i) begin
      rd_d  = '0;
      wr_d  = '0;
      cnt_d = '0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wr_q] <= data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      rd_q  <= rd_d;
      wr_q  <= wr_d;
      cnt_q <= cnt_d;
    end
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (Depth > 0 && (Depth & (Depth - 1)) == 0 && Width > 0)
      else $fatal(1, "tern_fifo: Depth (%0d) must be a power of two and Width (%0d) positive",
                  Depth, Width);
  end
  // A push when full is dropped even with a pop in the same cycle (do_push looks at full_o
  // only), so the contract is simply "no push when full" (found by make formal, formal/).
  no_overflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
      push_i && !flush_i |-> !full_o)
    else $error("tern_fifo: push into a full FIFO (Depth %0d) dropped", Depth);
  no_underflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
      pop_i && !flush_i |-> !empty_o)
    else $error("tern_fifo: pop from an empty FIFO");
  count_bounded: assert property (@(posedge clk_i) disable iff (!rst_ni)
      32'(cnt_q) <= Depth);
  // Functional coverage (make coverage's user points): the corners a test of the FIFO's
  // users should reach.
  full_seen: cover property (@(posedge clk_i) disable iff (!rst_ni) full_o);
  pop_while_full: cover property (@(posedge clk_i) disable iff (!rst_ni) full_o && pop_i);
  push_pop_same_cycle: cover property (@(posedge clk_i) disable iff (!rst_ni)
      push_i && pop_i && !flush_i);
  flush_nonempty: cover property (@(posedge clk_i) disable iff (!rst_ni) flush_i && !empty_o);
`endif

endmodule
