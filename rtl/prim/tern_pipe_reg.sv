// tern_pipe_reg: one boundary of a pipelined datapath that is built of Steps combinational steps
// and holds Latency registers (0 <= Latency <= Steps). Boundary Index (1 .. Steps, after step
// Index; Steps is the output) is a register when the even spread of Latency registers over the
// Steps boundaries puts one there (floor(Index * Latency / Steps) steps up at Index), and a
// wire otherwise; so a unit's latency is a parameter and its steps are written once. All
// registers of a unit advance together on en_i (a stall holds them); valid_i travels beside the
// data and is the only bit with a reset.
module tern_pipe_reg #(
  parameter int unsigned Width   = 32,
  parameter int unsigned Steps   = 1,
  parameter int unsigned Latency = 1,
  parameter int unsigned Index   = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic             valid_i,
  input  logic [Width-1:0] data_i,
  output logic             valid_o,
  output logic [Width-1:0] data_o
);

  localparam bit Reg = ((Index * Latency) / Steps) != (((Index - 1) * Latency) / Steps);

  if (Reg) begin : gen_reg
    logic             valid_q, valid_d;
    logic [Width-1:0] data_q, data_d;
    assign valid_d = en_i ? valid_i : valid_q;
    assign data_d  = en_i ? data_i : data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) valid_q <= 1'b0;
      else         valid_q <= valid_d;
    end
    always_ff @(posedge clk_i) begin
      data_q <= data_d;
    end
    assign valid_o = valid_q;
    assign data_o  = data_q;
  end else begin : gen_wire
    assign valid_o = valid_i;
    assign data_o  = data_i;
    logic unused_clk;
    assign unused_clk = ^{clk_i, rst_ni, en_i};
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (Steps > 0 && Latency <= Steps && Index >= 1 && Index <= Steps && Width > 0)
      else $fatal(1, "tern_pipe_reg: Latency %0d and Index %0d must lie in 0..Steps (%0d), Index >= 1",
                  Latency, Index, Steps);
  end
`endif

endmodule
