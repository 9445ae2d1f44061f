// tern_delay_line: data_o is data_i of Delay cycles ago, every cycle (no enable, no handshake).
// Delay 0 is a wire and 1 a register; a longer delay is a ring of Delay - 1 words in tern_sram
// (written and read at the same address each cycle: the read returns the word written Delay - 1
// cycles before, and the SRAM's read register adds the last cycle), so a long line costs one
// memory, not Delay x Width flops, and one write and one read a cycle whatever its length.
// The data has no reset: primed_o rises once Delay cycles have passed since reset, and until
// then data_o is what the memory held before (a user masks its valid bits with primed_o).
module tern_delay_line #(
  parameter int unsigned Width = 8,   // a multiple of 8 when Delay >= 2 (tern_sram's bytes)
  parameter int unsigned Delay = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] data_i,
  output logic [Width-1:0] data_o,
  output logic             primed_o
);

  if (Delay == 0) begin : gen_wire
    assign data_o   = data_i;
    assign primed_o = 1'b1;
    logic unused;
    assign unused = clk_i ^ rst_ni;
  end else if (Delay == 1) begin : gen_reg
    logic [Width-1:0] data_q;
    logic             primed_q;
    always_ff @(posedge clk_i) begin
      data_q <= data_i;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) primed_q <= 1'b0;
      else         primed_q <= 1'b1;
    end
    assign data_o   = data_q;
    assign primed_o = primed_q;
  end else begin : gen_ring
    localparam int unsigned Words = Delay - 1;
    localparam int unsigned AW    = (Words > 1) ? $clog2(Words) : 1;
    logic [AW-1:0] ptr_q, ptr_d;
    logic          wrapped_q, wrapped_d, primed_q, primed_d;  // the ring written once; + the read
    assign ptr_d     = (32'(ptr_q) == Words - 1) ? '0 : ptr_q + AW'(1);
    assign wrapped_d = wrapped_q || (32'(ptr_q) == Words - 1);
    assign primed_d  = wrapped_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ptr_q     <= '0;
        wrapped_q <= 1'b0;
        primed_q  <= 1'b0;
      end else begin
        ptr_q     <= ptr_d;
        wrapped_q <= wrapped_d;
        primed_q  <= primed_d;
      end
    end
    assign primed_o = primed_q;
    tern_sram #(
      .Words(Words),
      .Bytes(Width / 8)
    ) u_ring (
      .clk_i,
      .rd_en_i  (1'b1),
      .rd_addr_i(ptr_q),
      .rd_data_o(data_o),
      .wr_en_i  (1'b1),
      .wr_addr_i(ptr_q),
      .wr_be_i  ({(Width / 8){1'b1}}),
      .wr_data_i(data_i)
    );
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (Width > 0 && (Delay < 2 || Width % 8 == 0))
      else $fatal(1, "tern_delay_line: Width (%0d) must be positive and, with Delay %0d >= 2, a multiple of 8",
                  Width, Delay);
  end
`endif

endmodule
