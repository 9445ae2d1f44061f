// tern_sem_bank: the core's counting semaphores (docs/isa.md "Semaphores"), shared by every
// sequencer and DMA queue. Each port may request one update per cycle; several requests to the
// same semaphore in one cycle all take effect, in a defined order: the set with the lowest port
// number (if any) replaces the value, then every add of the cycle is added to it. Values wrap
// modulo 2^32 (tern_sem_cell). `clear_i` zeroes them all (a program starts with every semaphore
// at 0).
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

  for (genvar s = 0; s < N; s++) begin : gen_sem
    tern_sem_cell #(
      .NumPorts(NumPorts)
    ) u_sem (
      .clk_i,
      .rst_ni,
      .clear_i,
      .index_i     (6'(s)),
      .upd_valid_i,
      .upd_mode_i,
      .upd_idx_i,
      .upd_value_i,
      .value_o     (values_o[32*s +: 32])
    );
  end

endmodule
