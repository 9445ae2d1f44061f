// tern_sem_cell_props: tern_sem_cell (rtl/core/tern_sem_cell.sv) with the update rules of
// docs/isa.md "Semaphores" and tern_sem_bank's header, proven by `make formal`
// (scripts/formal.sh: bounded model check, then k-induction) at NumPorts 5, the default. Every
// input is free, the cell's own index and reset (after the first cycle) included. Induction
// starts from any value, so the wrap at 2^32 is covered too. Per cycle, over the updates that
// name this semaphore (mode 1 add, 2 set; 0 and 3 are no update):
//   clear      clear_i makes the value 0, whatever the updates;
//   hold       with no add or set, the value stays;
//   add        with adds only, the value grows by their sum, modulo 2^32;
//   set        with sets, the set of the lowest port replaces the value and every add of the
//              cycle is added to it (the other sets are lost);
//   reset      the value is 0 in reset;
//   cover      two sets and an add in one cycle; a value past one byte.
// Plain synthesizable SV with immediate assertions, so a simulation can use the same wrapper.
// The checks sit outside synthesis like the RTL's own assertions. The value is the cell's only
// state, so the properties are inductive as stated.
module tern_sem_cell_props #(
  parameter int unsigned NumPorts = 5
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  clear_i,
  input logic [5:0]            index_i,
  input logic [NumPorts-1:0]   upd_valid_i,
  input logic [NumPorts*2-1:0] upd_mode_i,
  input logic [NumPorts*6-1:0] upd_idx_i,
  input logic [NumPorts*8-1:0] upd_value_i
);

  logic [31:0] value;

  tern_sem_cell #(
    .NumPorts(NumPorts)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .clear_i,
    .index_i,
    .upd_valid_i,
    .upd_mode_i,
    .upd_idx_i,
    .upd_value_i,
    .value_o (value)
  );

`ifndef SYNTHESIS
  // --- The updates of this cycle, sorted ------------------------------------------------------
  logic [NumPorts-1:0] is_set, is_add, first_set;
  logic [31:0]         adds, set_value;

  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      is_set[p] = upd_valid_i[p] && upd_idx_i[6*p +: 6] == index_i && upd_mode_i[2*p +: 2] == 2'd2;
      is_add[p] = upd_valid_i[p] && upd_idx_i[6*p +: 6] == index_i && upd_mode_i[2*p +: 2] == 2'd1;
    end
    first_set = is_set & (~is_set + 1'b1);  // the lowest set bit
    adds      = '0;
    set_value = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (is_add[p])    adds      = adds + 32'(upd_value_i[8*p +: 8]);
      if (first_set[p]) set_value = 32'(upd_value_i[8*p +: 8]);
    end
  end

  // The cell was out of reset in the cycle before, so $past describes a cycle it updated in.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

`ifdef FORMAL
  initial assume (!rst_ni);
`endif

  // --- Properties ----------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      reset_zero: assert (value == '0);
    end else if (live_q) begin
      clear_zeroes: assert (!$past(clear_i) || value == '0);
      hold: assert ($past(clear_i || is_set != '0 || is_add != '0) || value == $past(value));
      add_sum: assert ($past(clear_i || is_set != '0) || value == $past(value + adds));
      set_lowest_then_adds: assert ($past(clear_i || is_set == '0)
                                    || value == $past(set_value + adds));
      cover_sets_and_adds: cover (!$past(clear_i) && $past(first_set != is_set && is_add != '0));
      cover_past_a_byte: cover (value > 32'd255);
    end
  end
`endif

endmodule
