// tern_secded_pkg: the single-error-correcting, double-error-detecting code of the on-chip
// memories (docs/ecc.md), an extended Hamming (13, 8) code over each byte. Codeword bit k - 1
// is Hamming position k (k = 1 .. 12): the check bits at the powers of two (1, 2, 4, 8), the
// data bits d0 .. d7 at 3, 5, 6, 7, 9, 10, 11, 12 in order; bit 12 is the overall parity, which
// makes the XOR of all 13 bits 0. Decoding: the syndrome is the XOR of the positions of the
// set bits (0 for a codeword) and the parity the XOR of all 13.
//   syndrome 0, parity 0: no error;
//   parity 1, syndrome 0 .. 12: one flipped bit (the parity bit itself for 0), corrected;
//   otherwise (parity 0 with a syndrome, or a syndrome past 12): uncorrectable, the data bits
//   are returned as stored.
// The golden model writes the same code from the same text (model/core/ecc.h); tests compare
// the two on every codeword, and make formal proves the SECDED properties of these functions.
package tern_secded_pkg;

  localparam int unsigned DataBits = 8;
  localparam int unsigned CodeBits = 13;

  // Hamming position (1 .. 12) of data bit i.
  function automatic logic [3:0] data_pos(int unsigned i);
    unique case (i)
      0:       data_pos = 4'd3;
      1:       data_pos = 4'd5;
      2:       data_pos = 4'd6;
      3:       data_pos = 4'd7;
      4:       data_pos = 4'd9;
      5:       data_pos = 4'd10;
      6:       data_pos = 4'd11;
      default: data_pos = 4'd12;
    endcase
  endfunction

  // The XOR of the positions of the set bits among codeword bits 0 .. 11.
  function automatic logic [3:0] syndrome(logic [11:0] c);
    logic [3:0] s;
    s = 4'd0;
    for (int unsigned k = 1; k <= 12; k++) begin
      if (c[k-1]) s = s ^ 4'(k);
    end
    syndrome = s;
  endfunction

  function automatic logic [CodeBits-1:0] encode(logic [DataBits-1:0] d);
    logic [11:0] c;
    logic [3:0]  s;
    c = 12'd0;
    for (int unsigned i = 0; i < DataBits; i++) c[data_pos(i) - 4'd1] = d[i];
    s = syndrome(c);  // the check bits make the syndrome 0
    c[0] = s[0];
    c[1] = s[1];
    c[3] = s[2];
    c[7] = s[3];
    encode = {^c, c};
  endfunction

  // {data, corrected, uncorrectable}
  function automatic logic [DataBits+1:0] decode(logic [CodeBits-1:0] c);
    logic [3:0]  s;
    logic        parity, single, bad;
    logic [11:0] fixed;
    logic [DataBits-1:0] d;
    s      = syndrome(c[11:0]);
    parity = ^c;
    single = parity && (s <= 4'd12);
    bad    = (!parity && s != 4'd0) || (parity && s > 4'd12);
    fixed  = c[11:0];
    if (single && s != 4'd0) fixed[s - 4'd1] = !fixed[s - 4'd1];
    for (int unsigned i = 0; i < DataBits; i++) d[i] = fixed[data_pos(i) - 4'd1];
    decode = {d, parity && !bad, bad};
  endfunction

endpackage
