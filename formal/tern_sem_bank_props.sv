// tern_sem_bank_props: tern_sem_bank (rtl/core/tern_sem_bank.sv) against the proven cell, by
// `make formal` (scripts/formal.sh: bounded model check, then k-induction) at NumPorts 5 and
// the ISA's 64 semaphores, for semaphore Sel (scripts/formal.sh checks 0, 37 and 63: the two
// ends of the bank and one between). Every input is free, reset included after the first cycle.
//   as_lone_cell  semaphore Sel of the bank holds what a lone tern_sem_cell with index Sel holds
//                 under the same updates and clears: so it follows the rules
//                 tern_sem_cell_props proves, and only the updates that name it change it;
//   cover         it is not 0 after a cycle that added to other semaphores but not to it.
// All 64 at once was too slow for z3: with one semaphore the solver picks, the bounded check
// ran over 10 minutes; against 64 reference cells, it took 22 s and the induction over 10
// minutes. One semaphore takes a second or two.
// Plain synthesizable SV with immediate assertions, so a simulation can use the same wrapper.
// The checks sit outside synthesis like the RTL's own assertions.
module tern_sem_bank_props #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned Sel      = 0,  // the semaphore checked
  localparam int unsigned N = tern_isa_pkg::NumSems
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  clear_i,
  input logic [NumPorts-1:0]   upd_valid_i,
  input logic [NumPorts*2-1:0] upd_mode_i,
  input logic [NumPorts*6-1:0] upd_idx_i,
  input logic [NumPorts*8-1:0] upd_value_i
);

  logic [N*32-1:0] values;

  tern_sem_bank #(
    .NumPorts(NumPorts)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .clear_i,
    .upd_valid_i,
    .upd_mode_i,
    .upd_idx_i,
    .upd_value_i,
    .values_o (values)
  );

`ifndef SYNTHESIS
  logic [31:0] ref_value;
  logic        unused_values;
  assign unused_values = ^values;  // only semaphore Sel is checked

  tern_sem_cell #(
    .NumPorts(NumPorts)
  ) u_ref (
    .clk_i,
    .rst_ni,
    .clear_i,
    .index_i     (6'(Sel)),
    .upd_valid_i,
    .upd_mode_i,
    .upd_idx_i,
    .upd_value_i,
    .value_o     (ref_value)
  );

  // The semaphores an add named in the cycle before (for the cover).
  logic [N-1:0] added_q, added_d;
  always_comb begin
    added_d = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (upd_valid_i[p] && upd_mode_i[2*p +: 2] == 2'd1) added_d[upd_idx_i[6*p +: 6]] = 1'b1;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) added_q <= '0;
    else         added_q <= added_d;
  end

`ifdef FORMAL
  initial assume (!rst_ni);
`endif

  // --- Properties ----------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      as_lone_cell: assert (values[32*Sel +: 32] == ref_value);
      cover_beside_other: cover (values[32*Sel +: 32] != '0 && added_q != '0 && !added_q[Sel]);
    end
  end
`endif

endmodule
