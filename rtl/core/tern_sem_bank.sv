// tern_sem_bank: the core's counting semaphores (docs/isa.md "Semaphores"), shared by every
// sequencer and DMA queue. Each port may request one update per cycle; several requests to the
// same semaphore in one cycle all take effect, in a defined order: the set with the lowest port
// number (if any) replaces the value, then every add of the cycle is added to it. Values wrap
// modulo 2^32. `clear_i` zeroes them all (a program starts with every semaphore at 0).
module tern_sem_bank #(
  parameter int unsigned NumPorts = 5,
  localparam int unsigned N = tern_isa_pkg::NumSems
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clear_i,
  input  logic [NumPorts-1:0]   upd_valid_i,
  input  logic [NumPorts*2-1:0] upd_mode_i,   // 1 add, 2 set (tern::isa::SemUpdate)
  input  logic [NumPorts*6-1:0] upd_idx_i,
  input  logic [NumPorts*8-1:0] upd_value_i,
  output logic [N*32-1:0]       values_o
);

  logic [N*32-1:0] sem_q, sem_d;  // semaphore s in bits 32s +: 32

  always_comb begin
    sem_d = sem_q;
    for (int unsigned s = 0; s < N; s++) begin
      logic        set_seen;
      logic [31:0] base, sum;
      set_seen = 1'b0;
      base     = sem_q[32*s +: 32];
      sum      = 32'd0;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (upd_valid_i[p] && upd_idx_i[6*p +: 6] == 6'(s)) begin
          if (upd_mode_i[2*p +: 2] == 2'd2 && !set_seen) begin
            set_seen = 1'b1;
            base     = {24'd0, upd_value_i[8*p +: 8]};
          end else if (upd_mode_i[2*p +: 2] == 2'd1) begin
            sum = sum + {24'd0, upd_value_i[8*p +: 8]};
          end
        end
      end
      sem_d[32*s +: 32] = clear_i ? 32'd0 : base + sum;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sem_q <= '0;
    else         sem_q <= sem_d;
  end

  assign values_o = sem_q;

endmodule
