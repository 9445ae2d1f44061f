// tern_lane_gather: a row read from SBUF or PSUM (the element at one offset of every partition)
// as engine lanes: lane i is partition start + i, holding the element's bits (1, 2 or 4 bytes)
// zero-extended; lanes past the operand's partitions read zero.
module tern_lane_gather #(
  parameter int unsigned P = tern_cfg_pkg::Partitions
) (
  input  logic [P*32-1:0] row_i,
  input  logic [7:0]      start_i,
  input  logic [7:0]      count_i,
  input  logic [2:0]      elem_bytes_i,
  output logic [P*32-1:0] lanes_o
);

  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      logic [31:0] w;
      w = (i < 32'(count_i)) ? row_i[32*((i + 32'(start_i)) % P) +: 32] : 32'd0;
      unique case (elem_bytes_i)
        3'd1:    lanes_o[32*i +: 32] = {24'd0, w[7:0]};
        3'd2:    lanes_o[32*i +: 32] = {16'd0, w[15:0]};
        default: lanes_o[32*i +: 32] = w;
      endcase
    end
  end

endmodule
