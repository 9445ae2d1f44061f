// tern_lane_scatter: engine lanes as a row to write to SBUF or PSUM: partition p receives lane
// p - start, and the mask selects the operand's partitions start .. start + count - 1.
module tern_lane_scatter #(
  parameter int unsigned P = tern_cfg_pkg::Partitions
) (
  input  logic [P*32-1:0] lanes_i,
  input  logic [7:0]      start_i,
  input  logic [7:0]      count_i,
  output logic [P*32-1:0] row_o,
  output logic [P-1:0]    mask_o
);

  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      row_o[32*p +: 32] = lanes_i[32*((p + P - 32'(start_i)) % P) +: 32];
      mask_o[p] = (p >= 32'(start_i)) && (p < 32'(start_i) + 32'(count_i));
    end
  end

endmodule
