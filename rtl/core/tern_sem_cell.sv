// tern_sem_cell: one semaphore of tern_sem_bank. The same-cycle rule lives here: the set with
// the lowest port number replaces the value, then every add of the cycle is added to it.
// Its index is a port (tied to a constant) so that synthesis elaborates the cell once.
module tern_sem_cell #(
  parameter int unsigned NumPorts = 5
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clear_i,
  input  logic [5:0]            index_i,
  input  logic [NumPorts-1:0]   upd_valid_i,
  input  logic [NumPorts*2-1:0] upd_mode_i,
  input  logic [NumPorts*6-1:0] upd_idx_i,
  input  logic [NumPorts*8-1:0] upd_value_i,
  output logic [31:0]           value_o
);

  logic [31:0] value_q, value_d;

  always_comb begin
    logic        set_seen;
    logic [31:0] base, sum;
    set_seen = 1'b0;
    base     = value_q;
    sum      = 32'd0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (upd_valid_i[p] && upd_idx_i[6*p +: 6] == index_i) begin
        if (upd_mode_i[2*p +: 2] == 2'd2 && !set_seen) begin
          set_seen = 1'b1;
          base     = {24'd0, upd_value_i[8*p +: 8]};
        end else if (upd_mode_i[2*p +: 2] == 2'd1) begin
          sum = sum + {24'd0, upd_value_i[8*p +: 8]};
        end
      end
    end
    value_d = clear_i ? 32'd0 : base + sum;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) value_q <= '0;
    else         value_q <= value_d;
  end

  assign value_o = value_q;

endmodule
