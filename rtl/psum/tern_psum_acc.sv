// tern_psum_acc: the Tensor Engine's read-add-write into PSUM, pipelined (docs/tensor-engine.md
// "PSUM accumulate"). Lane p takes the engine's request in cycle t (te_we_i[p]: a word to
// write; te_acc_i[p]: add it to the word there instead of overwriting); the memory reads the
// word at that address synchronously and returns it in cycle t + 1 (old_i, the memory's read
// register: block RAM on an FPGA), the request's word waits in a register beside it, the two
// are added in tern_fp32_add_pipe's ten steps (the fp32 RNE add of docs/numerics.md) and the
// write is presented on wb_*_o in cycle t + tern_pe_pkg::PsumAccLatency. An overwrite passes
// its word through unchanged. The memory holds the word it had until then, so a request that
// reads an address written less than PsumAccLatency + 1 cycles before sees the old word: the
// engine never issues one (tern_pe_engine's hazard check). Used by both PSUMs (tern_psum and
// tern_lane_mem), so the accumulate path is written once.
module tern_psum_acc #(
  parameter int unsigned P  = 8,   // lanes: the partitions the engine writes
  parameter int unsigned AW = 12   // word address bits
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // the engine's request (cycle t), and the memory's word at its address (cycle t + 1)
  input  logic [P-1:0]    te_we_i,
  input  logic [P-1:0]    te_acc_i,
  input  logic [P*AW-1:0] te_addr_i,
  input  logic [P*32-1:0] te_data_i,
  input  logic [P*32-1:0] old_i,
  // the write, PsumAccLatency cycles after the request
  output logic [P-1:0]    wb_we_o,
  output logic [P*AW-1:0] wb_addr_o,
  output logic [P*32-1:0] wb_data_o
);

  localparam int unsigned Latency = tern_pe_pkg::PsumAccLatency;
  localparam int unsigned AddLat  = Latency - 1;  // after the memory's read register
  // The request beside the adder: {data, addr, acc, we} per lane, padded to whole bytes.
  localparam int unsigned LaneW   = 32 + AW + 2;
  localparam int unsigned SideW   = ((P * LaneW + 7) / 8) * 8;

  logic [SideW-1:0] side_in, side_out;
  logic             side_primed;
  assign side_in = SideW'({te_data_i, te_addr_i, te_acc_i, te_we_i});
  tern_delay_line #(.Width(SideW), .Delay(Latency)) u_side (
    .clk_i,
    .rst_ni,
    .data_i  (side_in),
    .data_o  (side_out),
    .primed_o(side_primed)
  );

  logic [P*32-1:0] sum;
  for (genvar p = 0; p < P; p++) begin : gen_lane
    // The request's word beside the memory's read register, held while the lane does not add.
    logic [31:0] data_q, data_d;
    logic        add_q, add_d;
    logic        unused_valid;
    assign add_d  = te_we_i[p] && te_acc_i[p];
    assign data_d = add_d ? te_data_i[32*p +: 32] : data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) add_q <= 1'b0;
      else         add_q <= add_d;
    end
    always_ff @(posedge clk_i) begin
      data_q <= data_d;
    end
    tern_fp32_add_pipe #(.Latency(AddLat)) u_add (
      .clk_i,
      .rst_ni,
      .en_i   (1'b1),
      .valid_i(add_q),
      .a_i    (old_i[32*p +: 32]),
      .b_i    (data_q),
      .valid_o(unused_valid),
      .sum_o  (sum[32*p +: 32])
    );
  end

  // The write: the sum when the request added, its own word when it overwrote.
  logic [P-1:0]    side_we, side_acc;
  logic [P*AW-1:0] side_addr;
  logic [P*32-1:0] side_data;
  assign {side_data, side_addr, side_acc, side_we} = side_out[P*LaneW-1:0];
  assign wb_we_o   = side_primed ? side_we : '0;
  assign wb_addr_o = side_addr;
  always_comb begin
    for (int p = 0; p < P; p++) begin
      wb_data_o[32*p +: 32] = side_acc[p] ? sum[32*p +: 32] : side_data[32*p +: 32];
    end
  end

  if (SideW > P * LaneW) begin : gen_pad
    logic unused_pad;
    assign unused_pad = ^side_out[SideW-1:P*LaneW];
  end

`ifndef SYNTHESIS
  // The engine's side of the contract: no request adds to a word that a write still in this
  // pipeline will change (requests of the last Latency cycles, lane by lane).
  logic [Latency*P*(AW+1)-1:0] flight_q, flight_d;
  logic [P-1:0]                raw_hazard;
  always_comb begin
    for (int p = 0; p < P; p++) begin
      raw_hazard[p] = 1'b0;
      for (int j = 0; j < Latency; j++) begin
        if (te_we_i[p] && te_acc_i[p] && flight_q[(j*P + p)*(AW+1)] &&
            flight_q[(j*P + p)*(AW+1) + 1 +: AW] == te_addr_i[AW*p +: AW]) raw_hazard[p] = 1'b1;
      end
      flight_d[p*(AW+1) +: AW+1] = {te_addr_i[AW*p +: AW], te_we_i[p]};
    end
    flight_d[P*(AW+1) +: (Latency-1)*P*(AW+1)] = flight_q[0 +: (Latency-1)*P*(AW+1)];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    /* verilator lint_off WIDTHCONCAT */  // 18 kbit on trn2
    if (!rst_ni) flight_q <= '0;
    /* verilator lint_on WIDTHCONCAT */
    else         flight_q <= flight_d;
  end
  no_raw_hazard: assert property (@(posedge clk_i) disable iff (!rst_ni) raw_hazard == '0)
    else $error("tern_psum_acc: lanes %b add to a word whose write is still in the pipeline", raw_hazard);

  initial begin : params
    assert (Latency >= 2 && Latency <= 11)
      else $fatal(1, "tern_psum_acc: PsumAccLatency %0d must lie in 2..11 (a read register and the adder's 0..10)",
                  Latency);
  end
`endif

endmodule
