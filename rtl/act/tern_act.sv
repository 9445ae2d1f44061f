// tern_act: the Scalar Engine (docs/scalar-engine.md). One lane per partition; each accepted
// input beat carries one element per lane and yields one result per lane the next cycle:
//   y = func(upconvert(in) * scale + bias), out = downconvert(y) (RNE or SR),
// with an optional add/max reduction of y along the free axis into one fp32 accumulator per
// lane (acc_o). One command at a time; a command with an error is dropped (err_valid_o) and
// consumes no input. Golden: tern::act::ScalarEngine.
//
// The function datapath (tern_act_lane) is one combinational step here: functionally exact,
// not timing closed; a taped-out engine would pipeline it, adding latency, not throughput.
module tern_act #(
  parameter int unsigned Lanes = tern_cfg_pkg::Partitions
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // command
  input  logic                cmd_valid_i,
  output logic                cmd_ready_o,
  input  logic [4:0]          cmd_func_i,
  input  logic [3:0]          cmd_in_dtype_i,
  input  logic [3:0]          cmd_out_dtype_i,
  input  logic                cmd_round_i,       // tern_pkg::RoundRne / RoundSr
  input  logic [15:0]         cmd_n_i,           // elements per lane
  input  logic                cmd_scale_vec_i,   // 1: scale per lane from cmd_scales_i
  input  logic [31:0]         cmd_scale_i,
  input  logic [Lanes*32-1:0] cmd_scales_i,
  input  logic                cmd_bias_vec_i,    // 1: bias per lane from cmd_biases_i
  input  logic [31:0]         cmd_bias_i,
  input  logic [Lanes*32-1:0] cmd_biases_i,
  input  logic                cmd_reduce_op_i,   // tern_act_pkg::RedOp*
  input  logic [2:0]          cmd_reduce_cmd_i,  // tern_act_pkg::Red*
  input  logic [Lanes*32-1:0] cmd_acc_load_i,
  // operand and result streams
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [Lanes*32-1:0] in_data_i,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [Lanes*32-1:0] out_data_o,
  // accumulators, stochastic-rounding seed, status
  output logic [Lanes*32-1:0] acc_o,
  input  logic                sr_seed_valid_i,
  input  logic [31:0]         sr_seed_i,
  output logic                busy_o,
  output logic                err_valid_o,
  output logic [3:0]          err_code_o,
  output logic [3:0]          cmd_check_o   // the error the offered command would raise
);

  // --- Command acceptance and checks (model: ScalarEngine::check, same order) ---------------
  logic [3:0] cmd_err;
  always_comb begin
    if (32'(cmd_func_i) >= tern_act_pkg::NumFuncs) begin
      cmd_err = tern_act_pkg::ActErrBadFunc;
    end else if (!tern_pkg::is_float_dtype(cmd_in_dtype_i) || !tern_pkg::is_float_dtype(cmd_out_dtype_i)) begin
      cmd_err = tern_act_pkg::ActErrBadDtype;
    end else if (cmd_n_i == 16'd0) begin
      cmd_err = tern_act_pkg::ActErrBadSize;
    end else if (cmd_reduce_cmd_i > tern_act_pkg::RedLoadReduce) begin
      cmd_err = tern_act_pkg::ActErrBadReduce;
    end else begin
      cmd_err = tern_act_pkg::ActErrNone;
    end
  end

  logic                cmd_fire, start;
  logic                active_q, active_d;
  logic [15:0]         left_q, left_d;
  logic [4:0]          func_q;
  logic [3:0]          in_dt_q, out_dt_q;
  logic                round_q, reduce_q, red_op_q;
  logic [Lanes*32-1:0] scale_q, bias_q;
  logic                err_valid_q;
  logic [3:0]          err_code_q;

  assign cmd_ready_o = !active_q;
  assign cmd_fire    = cmd_valid_i && cmd_ready_o;
  assign cmd_check_o = cmd_err;
  assign start       = cmd_fire && (cmd_err == tern_act_pkg::ActErrNone);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_valid_q <= 1'b0;
      err_code_q  <= tern_act_pkg::ActErrNone;
    end else begin
      err_valid_q <= cmd_fire && (cmd_err != tern_act_pkg::ActErrNone);
      if (cmd_fire && (cmd_err != tern_act_pkg::ActErrNone)) err_code_q <= cmd_err;
    end
  end
  assign err_valid_o = err_valid_q;
  assign err_code_o  = err_code_q;

  // The command's operands, held while it streams.
  always_ff @(posedge clk_i) begin
    if (start) begin
      func_q   <= cmd_func_i;
      in_dt_q  <= cmd_in_dtype_i;
      out_dt_q <= cmd_out_dtype_i;
      round_q  <= cmd_round_i;
      red_op_q <= cmd_reduce_op_i;
      reduce_q <= (cmd_reduce_cmd_i == tern_act_pkg::RedReduce) || (cmd_reduce_cmd_i == tern_act_pkg::RedResetReduce) ||
                  (cmd_reduce_cmd_i == tern_act_pkg::RedLoadReduce);
      for (int l = 0; l < Lanes; l++) begin
        scale_q[32*l +: 32] <= cmd_scale_vec_i ? cmd_scales_i[32*l +: 32] : cmd_scale_i;
        bias_q[32*l +: 32]  <= cmd_bias_vec_i ? cmd_biases_i[32*l +: 32] : cmd_bias_i;
      end
    end
  end

  // --- Streaming: one beat per cycle while the result register is free ---------------------
  logic                out_valid_q, out_valid_d, beat;
  logic [Lanes*32-1:0] out_q, out_d, acc_q, acc_d, random;

  assign in_ready_o = active_q && (!out_valid_q || out_ready_i);
  assign beat       = in_valid_i && in_ready_o;

  always_comb begin
    active_d    = active_q;
    left_d      = left_q;
    out_valid_d = out_valid_q && !out_ready_i;
    if (start) begin
      active_d = 1'b1;
      left_d   = cmd_n_i;
    end else if (beat) begin
      left_d      = left_q - 16'd1;
      active_d    = (left_q != 16'd1);
      out_valid_d = 1'b1;
    end
  end

  // The lanes: y = func(x * scale + bias), reduced and converted (tern_act_lane).
  logic [Lanes*32-1:0] lane_out, lane_acc;
  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    tern_act_lane u_lane (
      .in_i       (in_data_i[32*l +: 32]),
      .in_dtype_i (in_dt_q),
      .scale_i    (scale_q[32*l +: 32]),
      .bias_i     (bias_q[32*l +: 32]),
      .func_i     (func_q),
      .out_dtype_i(out_dt_q),
      .round_i    (round_q),
      .random_i   (random[32*l +: 32]),
      .red_op_i   (red_op_q),
      .acc_i      (acc_q[32*l +: 32]),
      .out_o      (lane_out[32*l +: 32]),
      .acc_o      (lane_acc[32*l +: 32])
    );
  end

  always_comb begin
    out_d = out_q;
    acc_d = acc_q;
    if (start) begin
      unique case (cmd_reduce_cmd_i)
        tern_act_pkg::RedReset, tern_act_pkg::RedResetReduce: begin
          for (int l = 0; l < Lanes; l++) begin
            acc_d[32*l +: 32] = (cmd_reduce_op_i == tern_act_pkg::RedOpAdd) ? 32'h0000_0000 : 32'hFF80_0000;
          end
        end
        tern_act_pkg::RedLoadReduce: acc_d = cmd_acc_load_i;
        default: ;
      endcase
    end else if (beat) begin
      out_d = lane_out;
      if (reduce_q) acc_d = lane_acc;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q    <= 1'b0;
      left_q      <= 16'd0;
      out_valid_q <= 1'b0;
      acc_q       <= '0;
    end else begin
      active_q    <= active_d;
      left_q      <= left_d;
      out_valid_q <= out_valid_d;
      acc_q       <= acc_d;
    end
  end

  always_ff @(posedge clk_i) begin
    out_q <= out_d;
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_q;
  assign acc_o       = acc_q;
  assign busy_o      = active_q || out_valid_q;

  // One stochastic-rounding generator per lane; a draw per element when rounding with SR.
  for (genvar l = 0; l < Lanes; l++) begin : gen_sr
    tern_sr_rng u_sr_rng (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .lane_i     (16'(l)),
      .seed_load_i(sr_seed_valid_i),
      .seed_i     (sr_seed_i),
      .draw_i     (beat && (round_q == tern_pkg::RoundSr)),
      .random_o   (random[32*l +: 32])
    );
  end

endmodule
