// tern_dma_fifo: a small synchronous FIFO (registers; the head is visible combinationally),
// with a flush that empties it in one cycle. Depth is a power of two.
module tern_dma_fifo #(
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
  logic [PtrBits-1:0] rd_q, wr_q;
  logic [PtrBits:0]   cnt_q;
  logic do_push, do_pop;

  assign full_o  = cnt_q == (PtrBits + 1)'(Depth);
  assign empty_o = cnt_q == '0;
  assign count_o = cnt_q;
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;
  assign data_o  = mem_q[rd_q];

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wr_q] <= data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else if (flush_i) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      if (do_push) wr_q <= (Depth > 1) ? wr_q + 1'b1 : '0;
      if (do_pop)  rd_q <= (Depth > 1) ? rd_q + 1'b1 : '0;
      cnt_q <= cnt_q + (PtrBits + 1)'(do_push) - (PtrBits + 1)'(do_pop);
    end
  end

endmodule
