// Uses the generated tern_isa_pkg the way a decoder will (field selects, op_seq_mask), so that
// lint and Yosys prove the package elaborates and Yosys can evaluate op_seq_mask
// (tests/isa_sv_test.sh). Yosys elaborates a package function only where a module calls it.
module tern_isa_probe (
  input  logic [1023:0] instr_i,
  output logic [7:0]    opcode_o,
  output logic [4:0]    seq_mask_o,
  output logic [15:0]   ap1_d3_num_o
);
  logic unused_instr;
  assign unused_instr = ^instr_i;

  assign opcode_o     = instr_i[tern_isa_pkg::HdrOpcodeLsb +: tern_isa_pkg::HdrOpcodeWidth];
  assign seq_mask_o   = tern_isa_pkg::op_seq_mask(opcode_o);
  assign ap1_d3_num_o = instr_i[tern_isa_pkg::ApSlot1Lsb + tern_isa_pkg::ApD3NumLsb +:
                                tern_isa_pkg::ApD3NumWidth];
endmodule
