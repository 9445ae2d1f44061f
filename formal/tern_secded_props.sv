// tern_secded_props: the SECDED properties of tern_secded_pkg's (13, 8) code, proven by
// `make formal` for every data byte and every choice of one or two flipped codeword bits.
//   clean   a codeword decodes to its data, neither corrected nor uncorrectable;
//   single  one flipped bit (any of the 13) decodes to the data, corrected;
//   double  two flipped bits are uncorrectable, never "corrected";
//   cover   a corrected parity bit, a corrected data bit and a double error.
// Combinational: every input is free in every cycle, so a one-cycle check covers all of them.
module tern_secded_props (
  input logic       clk_i,
  input logic [7:0] data_i,
  input logic [3:0] i_i,    // the flipped bits (positions past 12 are ignored)
  input logic [3:0] j_i
);

`ifndef SYNTHESIS
  logic [12:0] code, flip_i, flip_ij;
  logic [9:0]  clean, single, double;

  assign code    = tern_secded_pkg::encode(data_i);
  assign flip_i  = code ^ (13'd1 << i_i);
  assign flip_ij = flip_i ^ (13'd1 << j_i);
  assign clean   = tern_secded_pkg::decode(code);
  assign single  = tern_secded_pkg::decode(flip_i);
  assign double  = tern_secded_pkg::decode(flip_ij);

  always_ff @(posedge clk_i) begin
    clean_ok: assert (clean == {data_i, 2'b00});
    single_ok: assert (i_i > 4'd12 || single == {data_i, 2'b10});
    double_ok: assert (i_i > 4'd12 || j_i > 4'd12 || i_i == j_i || double[1:0] == 2'b01);
    cover_parity: cover (i_i == 4'd12 && single[1]);
    cover_data: cover (i_i == 4'd2 && single[1]);
    cover_double: cover (i_i == 4'd0 && j_i == 4'd11 && double[0]);
  end
`endif

endmodule
