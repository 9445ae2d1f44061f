// tern_link_crc: one flit's step of the NeuronLink CRC-32C (docs/link.md "CRC"): the running
// value crc_i (no final inversion) advanced over the flit's bits 0 .. FlitBits-1 in order, which
// is the reflected byte-wise CRC-32C over the flit's bytes, byte 0 = bits 7:0 first.
// Combinational.
module tern_link_crc #(
  parameter int unsigned FlitBits = tern_link_pkg::FlitBits
) (
  input  logic [31:0]         crc_i,
  input  logic [FlitBits-1:0] data_i,
  output logic [31:0]         crc_o
);

  always_comb begin
    crc_o = crc_i;
    for (int unsigned i = 0; i < FlitBits; i++) begin
      crc_o = (crc_o >> 1) ^ (tern_link_pkg::CrcPoly & {32{crc_o[0] ^ data_i[i]}});
    end
  end

endmodule
