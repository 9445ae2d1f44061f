// tern_sram: the technology wrapper for on-chip SRAM (docs/core-rtl.md "Memories"). Words x
// (ByteBits x Bytes) bits (a "byte" of ByteBits bits: 8, or a byte's 13-bit SECDED codeword,
// docs/ecc.md) with one synchronous read port (data the cycle after rd_en_i; a read of the
// word being written returns the old word) and one write port with byte enables. `Fpga` picks
// the implementation behind the same ports:
//   0: the simulation model, a behavioural word array (what Verilator runs; the default);
//   1: the block-RAM template that Yosys and vendor tools map to BRAM (iCE40 SB_RAM40_4K,
//      Xilinx RAMB36E2): a word array, one clocked block, registered read, byte-enabled write,
//      no reset on the data (the default when TERN_FPGA is defined: scripts/fpga.sh).
// An ASIC flow puts a compiled macro behind the same ports.
module tern_sram #(
  parameter int unsigned Words = 256,
  parameter int unsigned Bytes = 4,        // bytes per word
  parameter int unsigned ByteBits = 8,     // bits per byte (one write enable each)
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
  output logic [ByteBits*Bytes-1:0] rd_data_o,
  input  logic          wr_en_i,
  input  logic [AW-1:0] wr_addr_i,
  input  logic [Bytes-1:0]   wr_be_i,
  input  logic [ByteBits*Bytes-1:0] wr_data_i
);
  localparam int unsigned B = ByteBits;

  logic [B*Bytes-1:0] rd_q;
  assign rd_data_o = rd_q;

  if (Fpga) begin : gen_bram
    (* ram_style = "block" *) logic [B*Bytes-1:0] mem_q [Words];
    always_ff @(posedge clk_i) begin
      for (int unsigned b = 0; b < Bytes; b++) begin
        if (wr_en_i && wr_be_i[b]) mem_q[wr_addr_i][B*b +: B] <= wr_data_i[B*b +: B];
      end
      if (rd_en_i) rd_q <= mem_q[rd_addr_i];
    end
  end else begin : gen_model
    // A whole-word write of the merged word: Verilator cannot delay a partial write to an
    // array word inside a loop it does not unroll. The merge is in the clocked block, so the
    // model reads the old word only on a write (a combinational merge was re-evaluated whenever
    // the write inputs moved).
    logic [B*Bytes-1:0] mem_q [Words];
    logic [B*Bytes-1:0] bits;
    always_comb begin
      for (int unsigned b = 0; b < Bytes; b++) bits[B*b +: B] = {B{wr_be_i[b]}};
    end
    always_ff @(posedge clk_i) begin
      if (wr_en_i) mem_q[wr_addr_i] <= (mem_q[wr_addr_i] & ~bits) | (wr_data_i & bits);
      if (rd_en_i) rd_q <= mem_q[rd_addr_i];
    end
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (Words > 0 && Bytes > 0 && ByteBits > 0)
      else $fatal(1, "tern_sram: Words (%0d), Bytes (%0d) and ByteBits (%0d) must be positive",
                  Words, Bytes, ByteBits);
  end
  rd_in_range: assert property (@(posedge clk_i) rd_en_i |-> 32'(rd_addr_i) < Words)
    else $error("tern_sram: read of word %0d, past its %0d words", rd_addr_i, Words);
  wr_in_range: assert property (@(posedge clk_i) wr_en_i |-> 32'(wr_addr_i) < Words)
    else $error("tern_sram: write of word %0d, past its %0d words", wr_addr_i, Words);
`endif

endmodule
