// tern_pipe_delay: data_o is data_i of Delay advances ago, where an advance is a cycle with en_i
// high (a stall holds every stage, as in the pipelined units it runs beside). Delay 0 is a
// wire; up to ShiftMax a shift register; longer a ring of Delay - 1 words (a memory: LUT RAM or
// block RAM on an FPGA, a register file on an ASIC; one write and one read an advance, whatever
// the length) followed by an output register, so the read's address decode is a stage of its
// own. The data has no reset (a user carries its valid bits apart); the ring's pointer does.
module tern_pipe_delay #(
  parameter int unsigned Width    = 32,
  parameter int unsigned Delay    = 1,
  parameter int unsigned ShiftMax = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic [Width-1:0] data_i,
  output logic [Width-1:0] data_o
);

  if (Delay == 0) begin : gen_wire
    assign data_o = data_i;
    logic unused;
    assign unused = clk_i ^ rst_ni ^ en_i;
  end else if (Delay <= ShiftMax) begin : gen_shift
    logic [Delay*Width-1:0] line_q, line_d;
    if (Delay == 1) begin : gen_one
      assign line_d = en_i ? data_i : line_q;
    end else begin : gen_many
      assign line_d = en_i ? {line_q[(Delay-1)*Width-1:0], data_i} : line_q;
    end
    always_ff @(posedge clk_i) begin
      line_q <= line_d;
    end
    assign data_o = line_q[(Delay-1)*Width +: Width];
    logic unused;
    assign unused = rst_ni;
  end else begin : gen_ring
    localparam int unsigned Words = Delay - 1;
    localparam int unsigned AW    = $clog2(Words);
    logic [Width-1:0] mem_q [Words];
    logic [Width-1:0] out_q;
    logic [AW-1:0]    ptr_q, ptr_d;
    assign ptr_d = !en_i ? ptr_q : (32'(ptr_q) == Words - 1) ? '0 : ptr_q + AW'(1);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ptr_q <= '0;
      else         ptr_q <= ptr_d;
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        mem_q[ptr_q] <= data_i;
        out_q        <= mem_q[ptr_q];
      end
    end
    assign data_o = out_q;
  end

endmodule
