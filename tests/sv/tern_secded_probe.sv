// tern_secded_probe: tern_secded_pkg's functions on ports, for test_prim's comparison with the
// golden model's code (model/core/ecc.h) on every data byte and every codeword.
module tern_secded_probe (
  input  logic [7:0]  data_i,
  output logic [12:0] code_o,   // encode(data_i)
  input  logic [12:0] code_i,
  output logic [9:0]  dec_o     // decode(code_i): {data, corrected, uncorrectable}
);
  assign code_o = tern_secded_pkg::encode(data_i);
  assign dec_o  = tern_secded_pkg::decode(code_i);
endmodule
