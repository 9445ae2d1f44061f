// tern_link_crc: one flit's step of the NeuronLink CRC-32C (docs/link.md "CRC"): the running
// value crc_i (no final inversion) advanced over the flit's bits 0 .. FlitBits-1 in order, which
// is the reflected byte-wise CRC-32C over the flit's bytes, byte 0 = bits 7:0 first.
// Combinational, and parallel: the CRC is linear over GF(2), so each output bit is the XOR of
// a fixed set of input bits ({data_i, crc_i}). The sets are worked out at elaboration by
// running the bit-serial register over sets instead of bits (crc_matrix), and each output is
// one balanced XOR tree: about log2(FlitBits) levels where the serial form chains FlitBits.
module tern_link_crc #(
  parameter int unsigned FlitBits = tern_link_pkg::FlitBits,
  localparam int unsigned InBits = 32 + FlitBits  // crc_i at 31:0, data_i above
) (
  input  logic [31:0]         crc_i,
  input  logic [FlitBits-1:0] data_i,
  output logic [31:0]         crc_o
);

  // Row j (bits InBits*j +: InBits): the inputs whose XOR is crc_o[j]. The serial step is
  // crc' = (crc >> 1) ^ (poly & {32{crc[0] ^ d}}); here each register bit holds its set.
  function automatic logic [32*InBits-1:0] crc_matrix(input logic [31:0] poly);
    logic [32*InBits-1:0] st;
    logic [InBits-1:0]    fb;
    for (int unsigned j = 0; j < 32; j++) st[InBits*j +: InBits] = InBits'(1) << j;
    for (int unsigned i = 0; i < FlitBits; i++) begin
      fb = st[0 +: InBits];
      fb[32 + i] = fb[32 + i] ^ 1'b1;
      for (int unsigned j = 0; j < 32; j++) begin
        if (j < 31) st[InBits*j +: InBits] = st[InBits*(j+1) +: InBits] ^ (poly[j] ? fb : '0);
        else        st[InBits*j +: InBits] = poly[j] ? fb : '0;
      end
    end
    crc_matrix = st;
  endfunction

  localparam logic [32*InBits-1:0] Matrix = crc_matrix(tern_link_pkg::CrcPoly);

  logic [InBits-1:0] in;
  assign in = {data_i, crc_i};
  for (genvar j = 0; j < 32; j++) begin : gen_bit
    assign crc_o[j] = ^(in & Matrix[InBits*j +: InBits]);
  end

endmodule
