// tern_spill: a spill (skid) register on a valid/ready stream. Both directions are registered:
// valid_o and data_o come from a flop, and ready_o from a flop, so no combinational path
// crosses it in either direction. Two entries keep a full rate: with ready_i high it passes one
// item a cycle, one cycle late; when the output stalls, the item already accepted waits in the
// second entry. Items leave in order, none is lost or repeated. Protocol (asserted on both
// sides): an offered item holds, valid and data unchanged, until it is taken.
module tern_spill #(
  parameter int unsigned Width = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [Width-1:0] data_i,
  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o
);

  // a: the output register; b: the skid entry, full only while a is full and stalled.
  logic             a_full_q, a_full_d, b_full_q, b_full_d;
  logic [Width-1:0] a_data_q, a_data_d, b_data_q, b_data_d;
  logic             take_in, take_out;

  assign ready_o  = !b_full_q;
  assign valid_o  = a_full_q;
  assign data_o   = a_data_q;
  assign take_in  = valid_i && ready_o;
  assign take_out = valid_o && ready_i;

  always_comb begin
    a_full_d = a_full_q;
    a_data_d = a_data_q;
    b_full_d = b_full_q;
    b_data_d = b_data_q;
    if (take_out) begin
      a_full_d = b_full_q;
      a_data_d = b_data_q;
      b_full_d = 1'b0;
    end
    if (take_in) begin
      if (!a_full_d) begin
        a_full_d = 1'b1;
        a_data_d = data_i;
      end else begin
        b_full_d = 1'b1;
        b_data_d = data_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_full_q <= 1'b0;
      b_full_q <= 1'b0;
    end else begin
      a_full_q <= a_full_d;
      b_full_q <= b_full_d;
    end
  end

  always_ff @(posedge clk_i) begin
    a_data_q <= a_data_d;
    b_data_q <= b_data_d;
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (Width > 0) else $fatal(1, "tern_spill: Width must be positive");
  end
  in_holds: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && !ready_o |=> valid_i && $stable(data_i))
    else $error("tern_spill: the input dropped or changed an item before it was taken");
  out_holds: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_o && !ready_i |=> valid_o && $stable(data_o));
  skid_only_behind_output: assert property (@(posedge clk_i) disable iff (!rst_ni)
      b_full_q |-> a_full_q);
  // Functional coverage: the skid entry in use, and an item leaving from it.
  skid_used: cover property (@(posedge clk_i) disable iff (!rst_ni) b_full_q);
  skid_drains: cover property (@(posedge clk_i) disable iff (!rst_ni) b_full_q && take_out);
`endif

endmodule
