// tern_gpsimd_tb: one GPSIMD core with its local memory (a tern_sram) and a host port that
// writes the memory while the core is stopped: the lock-step tests' top (tests/test_gpsimd_rtl.cc,
// tb/gpsimd_rtl.h). The engine's own top (eight cores, their SBUF ports) is to come.
module tern_gpsimd_tb #(
  parameter logic [31:0] MemBase  = 32'h8000_0000,
  parameter int unsigned MemBytes = 64 * 1024,
  localparam int unsigned AW = $clog2(MemBytes / 4)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          load_en_i,
  input  logic [AW-1:0] load_addr_i,
  input  logic [31:0]   load_data_i,
  input  logic          start_i,
  input  logic [31:0]   start_pc_i,
  input  logic [31:0]   hart_id_i,
  output logic          running_o,
  output logic          fault_o,
  output logic [3:0]    fault_cause_o,
  output logic [31:0]   fault_pc_o,
  output logic [31:0]   fault_tval_o,
  output logic          retire_valid_o,
  output logic [31:0]   retire_pc_o,
  output logic [31:0]   retire_insn_o,
  output logic          retire_rd_we_o,
  output logic [4:0]    retire_rd_o,
  output logic [31:0]   retire_rd_value_o,
  output logic          retire_mem_we_o,
  output logic [31:0]   retire_mem_addr_o,
  output logic [31:0]   retire_mem_data_o,
  output logic [2:0]    retire_mem_bytes_o,
  output logic [5:0]    retire_ex_stall_o
);
  logic          rd_en, core_wr_en;
  logic [AW-1:0] rd_addr, core_wr_addr;
  logic [31:0]   rd_data, core_wr_data;
  logic [3:0]    core_wr_be;

  tern_gpsimd_core #(
    .MemBase (MemBase),
    .MemBytes(MemBytes)
  ) u_core (
    .clk_i,
    .rst_ni,
    .start_i,
    .start_pc_i,
    .hart_id_i,
    .mem_rd_en_o       (rd_en),
    .mem_rd_addr_o     (rd_addr),
    .mem_rd_data_i     (rd_data),
    .mem_wr_en_o       (core_wr_en),
    .mem_wr_addr_o     (core_wr_addr),
    .mem_wr_be_o       (core_wr_be),
    .mem_wr_data_o     (core_wr_data),
    .running_o,
    .fault_o,
    .fault_cause_o,
    .fault_pc_o,
    .fault_tval_o,
    .retire_valid_o,
    .retire_pc_o,
    .retire_insn_o,
    .retire_rd_we_o,
    .retire_rd_o,
    .retire_rd_value_o,
    .retire_mem_we_o,
    .retire_mem_addr_o,
    .retire_mem_data_o,
    .retire_mem_bytes_o,
    .retire_ex_stall_o
  );

  tern_sram #(
    .Words(MemBytes / 4),
    .Bytes(4)
  ) u_mem (
    .clk_i,
    .rd_en_i  (rd_en),
    .rd_addr_i(rd_addr),
    .rd_data_o(rd_data),
    .wr_en_i  (load_en_i || core_wr_en),
    .wr_addr_i(load_en_i ? load_addr_i : core_wr_addr),
    .wr_be_i  (load_en_i ? 4'hF : core_wr_be),
    .wr_data_i(load_en_i ? load_data_i : core_wr_data)
  );

`ifndef SYNTHESIS
  load_while_stopped: assert property (@(posedge clk_i) disable iff (!rst_ni) load_en_i |-> !running_o)
    else $error("tern_gpsimd_tb: a host write to local memory while the core runs");
`endif

endmodule
