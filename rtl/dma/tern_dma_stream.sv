// tern_dma_stream: the byte FIFO between the two sides of a row-mode transfer (docs/dma.md
// "Row mode"). It holds Rows x Width bytes in order; each cycle up to Width bytes leave from the
// front (pop_n) and up to Width bytes join at the back (push_n), the pop taking effect first.
// Both sides move whole runs of bytes, so neither waits for the other to line up: the source
// pushes what its beat or row read gave, the destination pops what fits its beat or row.
// The caller keeps pop_n <= count_o and count_o - pop_n + push_n <= Rows x Width.
module tern_dma_stream #(
  parameter int unsigned Width = 64,                    // bytes
  parameter int unsigned Rows = 4,                      // capacity in Widths, a power of two
  localparam int unsigned NB = $clog2(Width) + 1,       // 0 .. Width
  localparam int unsigned CB = $clog2(Rows * Width) + 1 // 0 .. Rows x Width
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               clear_i,       // empty it (a new transfer)
  input  logic [NB-1:0]      push_n_i,
  input  logic [8*Width-1:0] push_data_i,   // byte 0 joins first
  input  logic [NB-1:0]      pop_n_i,
  output logic [8*Width-1:0] head_o,        // the first Width bytes, byte 0 oldest
  output logic [CB-1:0]      count_o
);

  logic [8*Rows*Width-1:0] buf_q, buf_d;
  logic [CB-1:0]       cnt_q, cnt_d;

  always_comb begin
    logic [8*Rows*Width-1:0] kept, pushed;
    logic [CB-1:0]       left;
    left = cnt_q - CB'(pop_n_i);
    kept = buf_q >> {pop_n_i, 3'b000};
    pushed = '0;
    for (int unsigned i = 0; i < Width; i++) begin
      if (NB'(i) < push_n_i) pushed[8*i +: 8] = push_data_i[8*i +: 8];
    end
    buf_d = kept | (pushed << {left, 3'b000});
    cnt_d = left + CB'(push_n_i);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_q <= '0;
      cnt_q <= '0;
    end else if (clear_i) begin
      buf_q <= '0;
      cnt_q <= '0;
    end else begin
      buf_q <= buf_d;
      cnt_q <= cnt_d;
    end
  end

  assign head_o  = buf_q[0 +: 8*Width];
  assign count_o = cnt_q;

`ifndef SYNTHESIS
  no_underflow: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(pop_n_i) <= 32'(cnt_q));
  no_overflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
    32'(cnt_q) - 32'(pop_n_i) + 32'(push_n_i) <= Rows * Width);
`endif

endmodule
