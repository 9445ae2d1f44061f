// tern_sram: the technology wrapper for on-chip SRAM (docs/core-rtl.md "Memories"). Words x 32
// bits with one synchronous read port (data the cycle after rd_en_i; a read of the word being
// written returns the old word) and one write port with byte enables. `Fpga` picks the
// implementation behind the same ports:
//   0: the simulation model, a behavioural byte array (what Verilator runs; the default);
//   1: the block-RAM template that Yosys and vendor tools map to BRAM (iCE40 SB_RAM40_4K,
//      Xilinx RAMB36E2): a word array, one clocked block, registered read, byte-enabled write,
//      no reset on the data (the default when TERN_FPGA is defined: scripts/fpga.sh).
// An ASIC flow puts a compiled macro behind the same ports.
module tern_sram #(
  parameter int unsigned Words = 256,
  parameter bit Fpga =
`ifdef TERN_FPGA
    1'b1,
`else
    1'b0,
`endif
  localparam int unsigned AW = (Words > 1) ? $clog2(Words) : 1
) (
  input  logic          clk_i,
  input  logic          rd_en_i,
  input  logic [AW-1:0] rd_addr_i,
  output logic [31:0]   rd_data_o,
  input  logic          wr_en_i,
  input  logic [AW-1:0] wr_addr_i,
  input  logic [3:0]    wr_be_i,
  input  logic [31:0]   wr_data_i
);

  logic [31:0] rd_q;
  assign rd_data_o = rd_q;

  if (Fpga) begin : gen_bram
    (* ram_style = "block" *) logic [31:0] mem_q [Words];
    always_ff @(posedge clk_i) begin
      for (int unsigned b = 0; b < 4; b++) begin
        if (wr_en_i && wr_be_i[b]) mem_q[wr_addr_i][8*b +: 8] <= wr_data_i[8*b +: 8];
      end
      if (rd_en_i) rd_q <= mem_q[rd_addr_i];
    end
  end else begin : gen_model
    logic [7:0] mem_q [Words * 4];
    always_ff @(posedge clk_i) begin
      for (int unsigned b = 0; b < 4; b++) begin
        if (wr_en_i && wr_be_i[b]) mem_q[{wr_addr_i, 2'(b)}] <= wr_data_i[8*b +: 8];
        if (rd_en_i) rd_q[8*b +: 8] <= mem_q[{rd_addr_i, 2'(b)}];
      end
    end
  end

endmodule
