// tern_act: the Scalar Engine (docs/scalar-engine.md). One lane per partition; each accepted
// input beat carries one element per lane:
//   y = func(upconvert(in) * scale + bias), out = downconvert(y) (RNE or SR),
// with an optional add/max reduction of y along the free axis into one fp32 accumulator per
// lane (acc_o). Golden: tern::act::ScalarEngine.
//
// The lanes (tern_act_lane) are one pipeline shared by every function, each function leaving
// by its exit, tern_act_pkg::Exit* advances after its beat entered, through a registered bus,
// the output conversion (DownLat) and the result register. This block holds the commands, the
// beats' context beside the pipeline (a line of MaxExit + 1 words: valid, function, output
// dtype, rounding, reduction), and the order: a beat enters only when it leaves after the one
// before it (a function with a shorter pipeline waits). A command is accepted once the last
// beat of the one before has entered, so commands stream; one that resets, loads or reduces
// into the accumulators waits until nothing is in flight. An add reduction streams too: its
// results go to ReduceSlots partial sums in turn, each lane's one adder taking a result an
// advance, and after its last result the slots combine pairwise, a round at a time (model:
// act::add_reduce). The output's back-pressure stalls the whole pipeline. A command with an
// error is dropped (err_valid_o) and consumes no input.
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

  localparam int unsigned NumExits = tern_act_pkg::NumExits;
  localparam int unsigned Depth    = tern_act_pkg::MaxExit + 1;  // the line: depths 0 .. MaxExit
  localparam int unsigned DownLat  = tern_act_pkg::DownLat;
  localparam int unsigned RedLat   = tern_act_pkg::RedAddLat;
  localparam int unsigned Slots    = tern_act_pkg::ReduceSlots;
  localparam int unsigned SW       = $clog2(Slots);

  logic                cmd_fire, start, pipe_empty;
  logic                active_q, active_d;
  logic [15:0]         left_q, left_d;
  logic [4:0]          func_q_cmd;
  logic [3:0]          in_dt_q, out_dt_q;
  logic                round_q, red_add_q, red_max_q;
  logic [9:0]          lat_q;     // the command's exit: advances from a beat's entry to its result
  logic [Lanes*32-1:0] scale_q, bias_q;
  logic                err_valid_q;
  logic [3:0]          err_code_q;

  // A command may overtake nothing: it is taken once its predecessor's beats have all entered,
  // and one that touches the accumulators once nothing is in flight.
  assign cmd_ready_o = !active_q && ((cmd_reduce_cmd_i == tern_act_pkg::RedIdle) || pipe_empty);
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

  // The command's operands, held while its beats enter.
  logic reduces;
  assign reduces = (cmd_reduce_cmd_i == tern_act_pkg::RedReduce) ||
                   (cmd_reduce_cmd_i == tern_act_pkg::RedResetReduce) ||
                   (cmd_reduce_cmd_i == tern_act_pkg::RedLoadReduce);
  always_ff @(posedge clk_i) begin
    if (start) begin
      func_q_cmd <= cmd_func_i;
      in_dt_q   <= cmd_in_dtype_i;
      out_dt_q  <= cmd_out_dtype_i;
      round_q   <= cmd_round_i;
      red_add_q <= reduces && (cmd_reduce_op_i == tern_act_pkg::RedOpAdd);
      red_max_q <= reduces && (cmd_reduce_op_i == tern_act_pkg::RedOpMax);
      lat_q     <= tern_act_pkg::Exits[10*tern_act_pkg::exit_index(cmd_func_i) +: 10];
      for (int l = 0; l < Lanes; l++) begin
        scale_q[32*l +: 32] <= cmd_scale_vec_i ? cmd_scales_i[32*l +: 32] : cmd_scale_i;
        bias_q[32*l +: 32]  <= cmd_bias_vec_i ? cmd_biases_i[32*l +: 32] : cmd_bias_i;
      end
    end
  end

  // --- Beats: in order, at most one a cycle -------------------------------------------------
  // rem: advances until the last beat to enter reaches its exit; a beat of exit lat entering
  // now leaves after it when lat > rem. It counts down to 0, its reset value.
  logic       en, beat, order_ok, out_valid;
  logic [9:0] rem_q, rem_d;
  assign en         = !out_valid || out_ready_i;
  assign order_ok   = lat_q > rem_q;
  assign in_ready_o = active_q && en && order_ok;
  assign beat       = in_valid_i && in_ready_o;

  always_comb begin
    active_d = active_q;
    left_d   = left_q;
    rem_d    = rem_q;
    if (start) begin
      active_d = 1'b1;
      left_d   = cmd_n_i;
    end else if (beat) begin
      left_d   = left_q - 16'd1;
      active_d = (left_q != 16'd1);
    end
    if (beat) begin
      rem_d = lat_q - 10'd1;
    end else if (en && rem_q != 10'd0) begin
      rem_d = rem_q - 10'd1;
    end
  end

  // The context lines: depth 0 is the beat entering now, depth d the one that entered d
  // advances ago. func_line (5 bits a depth) feeds the lanes' selects; meta_line (MetaW bits:
  // {acc_max, acc_add, round, out_dtype, valid}) the exits and the bus.
  localparam int unsigned MetaW = 8;
  logic [Depth*5-1:0]         func_line;
  logic [(Depth-1)*5-1:0]     func_q, func_d;
  logic [Depth*MetaW-1:0]     meta_line;
  logic [(Depth-1)*MetaW-1:0] meta_q, meta_d;
  logic [MetaW-1:0]           meta_in;
  assign meta_in   = {red_max_q, red_add_q, round_q, out_dt_q, beat};
  assign func_d    = en ? {func_q[(Depth-2)*5-1:0], func_q_cmd} : func_q;
  assign meta_d    = en ? {meta_q[(Depth-2)*MetaW-1:0], meta_in} : meta_q;
  assign func_line = {func_q, func_q_cmd};
  assign meta_line = {meta_q, meta_in};

  // The exits: exit e holds a leaving beat when the beat at its depth is valid and leaves
  // there; its context goes to the bus with its result (registered).
  logic [NumExits-1:0] exit_hit;
  logic [MetaW-1:0]    bus_d, bus_q;
  always_comb begin
    bus_d = '0;
    for (int e = 0; e < NumExits; e++) begin
      logic [MetaW-1:0] m;
      logic [4:0]       f;
      m = meta_line[MetaW*32'(tern_act_pkg::Exits[10*e +: 10]) +: MetaW];
      f = func_line[5*32'(tern_act_pkg::Exits[10*e +: 10]) +: 5];
      exit_hit[e] = m[0] && (tern_act_pkg::exit_index(f) == 4'(e));
      if (exit_hit[e]) bus_d = bus_d | m;
    end
  end

  logic             bus_valid, bus_round, bus_add, bus_max;
  logic [3:0]       bus_dtype;
  logic [DownLat-1:0] outv_q, outv_d;
  assign {bus_max, bus_add, bus_round, bus_dtype, bus_valid} = bus_q;
  assign outv_d    = en ? {outv_q[DownLat-2:0], bus_valid} : outv_q;
  assign out_valid = outv_q[DownLat-1];

  // --- The add reduction: a bus beat's result into slot red_cnt mod Slots (as it is while
  // that slot is empty: the first Slots results but slot 0's, the accumulator), then, once the
  // command's last sum is written, the combine: each round takes pairs (2k, 2k + 1) into slot
  // k, one an advance, a last unpaired slot moved, until one slot is left (cmb_m slots now;
  // 1: nothing to combine). A round starts once the round before has written its sums.
  // An add-reducing command starts with nothing in flight, so its counts are its own; a command
  // after it may start while its results are still on their way to the bus.
  logic [15:0]   red_cnt_q, red_cnt_d;  // the command's results at the bus so far
  logic [15:0]   red_n_q;               // its elements a lane
  logic [SW-1:0] red_slot;
  logic          red_start, red_beat, red_first, red_last;
  assign red_start = start && reduces && (cmd_reduce_op_i == tern_act_pkg::RedOpAdd);
  logic [SW:0]   cmb_m_q, cmb_m_d, cmb_pairs;
  logic [SW-2:0] cmb_k_q, cmb_k_d;
  logic          cmb_go, cmb_add, cmb_move, add_issue;
  logic [4:0]    acc_wait_q, acc_wait_d;  // advances until the last add's sum is written
  assign red_beat  = en && bus_valid && bus_add;
  assign red_slot  = red_cnt_q[SW-1:0];
  assign red_first = (red_cnt_q < 16'(Slots)) && (red_slot != '0);
  assign red_last  = red_beat && (red_cnt_q + 16'd1 == red_n_q);
  assign cmb_pairs = (cmb_m_q + 1) >> 1;
  assign cmb_go    = en && (cmb_m_q > 1) && ((cmb_k_q != '0) || (acc_wait_q == 5'd0));
  assign cmb_add   = cmb_go && ({1'b0, cmb_k_q, 1'b1} < cmb_m_q);
  assign cmb_move  = cmb_go && !cmb_add;
  assign add_issue = (red_beat && !red_first) || cmb_add;

  always_comb begin
    red_cnt_d = red_cnt_q;
    cmb_m_d   = cmb_m_q;
    cmb_k_d   = cmb_k_q;
    if (red_start) red_cnt_d = '0;
    else if (red_beat) red_cnt_d = red_cnt_q + 16'd1;
    if (red_last) begin
      cmb_m_d = (red_n_q < 16'(Slots)) ? (SW+1)'(red_n_q) : (SW+1)'(Slots);
      cmb_k_d = '0;
    end else if (cmb_go) begin
      cmb_k_d = cmb_k_q + 1'b1;
      if ((SW+1)'(cmb_k_q) + 1 == cmb_pairs) begin
        cmb_m_d = cmb_pairs;
        cmb_k_d = '0;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (red_start) red_n_q <= cmd_n_i;
  end
  assign acc_wait_d = add_issue ? 5'(RedLat) : (en && acc_wait_q != 5'd0) ? acc_wait_q - 5'd1 : acc_wait_q;

  // Where each sum lands: the issued slot, RedLat advances on (the lanes' adders keep time).
  logic [SW-1:0]     issue_slot, wr_slot;
  logic [RedLat-1:0] wr_valid_q, wr_valid_d;
  assign issue_slot = cmb_add ? {1'b0, cmb_k_q} : red_slot;
  assign wr_valid_d = en ? {wr_valid_q[RedLat-2:0], add_issue} : wr_valid_q;
  tern_pipe_delay #(.Width (SW), .Delay (RedLat)) u_wr_slot (
    .clk_i, .rst_ni, .en_i (en), .data_i (issue_slot), .data_o (wr_slot));

  // In flight: beats entered and not yet out, an add whose sum is not yet written, a combine.
  logic [9:0] inflight_q, inflight_d;
  logic       out_fire;
  assign out_fire   = out_valid && out_ready_i;
  assign inflight_d = inflight_q + 10'(beat) - 10'(out_fire);
  assign pipe_empty = (inflight_q == 10'd0) && (acc_wait_q == 5'd0) && (cmb_m_q <= 1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      left_q     <= 16'd0;
      rem_q      <= 10'd0;
      meta_q     <= '0;
      bus_q      <= '0;
      outv_q     <= '0;
      inflight_q <= 10'd0;
      acc_wait_q <= 5'd0;
      red_cnt_q  <= 16'd0;
      cmb_m_q    <= '0;
      cmb_k_q    <= '0;
      wr_valid_q <= '0;
    end else begin
      active_q   <= active_d;
      left_q     <= left_d;
      rem_q      <= rem_d;
      meta_q     <= meta_d;
      bus_q      <= en ? bus_d : bus_q;
      outv_q     <= outv_d;
      inflight_q <= inflight_d;
      acc_wait_q <= acc_wait_d;
      red_cnt_q  <= red_cnt_d;
      cmb_m_q    <= cmb_m_d;
      cmb_k_q    <= cmb_k_d;
      wr_valid_q <= wr_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    func_q <= func_d;
  end

  assign out_valid_o = out_valid;
  assign busy_o      = active_q || !pipe_empty;

  // --- The lanes and their stochastic-rounding generators ------------------------------------
  logic acc_set;
  assign acc_set = start && (cmd_reduce_cmd_i == tern_act_pkg::RedReset ||
                             cmd_reduce_cmd_i == tern_act_pkg::RedResetReduce ||
                             cmd_reduce_cmd_i == tern_act_pkg::RedLoadReduce);
  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [31:0] random, acc_value;
    assign acc_value = (cmd_reduce_cmd_i == tern_act_pkg::RedLoadReduce) ? cmd_acc_load_i[32*l +: 32] :
                       (cmd_reduce_op_i == tern_act_pkg::RedOpAdd) ? 32'h0000_0000 : 32'hFF80_0000;
    tern_act_lane u_lane (
      .clk_i, .rst_ni, .en_i (en),
      .in_i        (in_data_i[32*l +: 32]),
      .in_dtype_i  (in_dt_q),
      .scale_i     (scale_q[32*l +: 32]),
      .bias_i      (bias_q[32*l +: 32]),
      .func_line_i (func_line),
      .exit_i      (exit_hit),
      .bus_valid_i (bus_valid),
      .out_dtype_i (bus_dtype),
      .round_i     (bus_round),
      .random_i    (random),
      .red_add_i   (red_beat),
      .red_first_i (red_first),
      .red_slot_i  (red_slot),
      .cmb_add_i   (cmb_add),
      .cmb_move_i  (cmb_move),
      .cmb_k_i     (cmb_k_q),
      .wr_valid_i  (wr_valid_q[RedLat-1]),
      .wr_slot_i   (wr_slot),
      .acc_max_i   (bus_valid && bus_max),
      .acc_set_i   (acc_set),
      .acc_value_i (acc_value),
      .out_o       (out_data_o[32*l +: 32]),
      .acc_o       (acc_o[32*l +: 32])
    );
    // One draw per element converted with SR, as it enters the conversion.
    logic unused_seeding;  // the generator asserts no draw meets a seed on its way
    tern_sr_rng u_sr_rng (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .lane_i     (16'(l)),
      .seed_load_i(sr_seed_valid_i),
      .seed_i     (sr_seed_i),
      .draw_i     (en && bus_valid && (bus_round == tern_pkg::RoundSr)),
      .random_o   (random),
      .seeding_o  (unused_seeding)
    );
  end

`ifndef SYNTHESIS
  // At most one exit holds a leaving beat; an add reads no slot whose sum is still on its way
  // (pending: slots with a sum in the adder); nothing leaves that did not enter.
  logic [Slots-1:0] pending_q, pending_d;
  always_comb begin
    pending_d = pending_q;
    if (en && wr_valid_q[RedLat-1]) pending_d[wr_slot] = 1'b0;
    if (add_issue) pending_d[issue_slot] = 1'b1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pending_q <= '0;
    else         pending_q <= pending_d;
  end
  one_exit: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(exit_hit));
  beat_slot_ready: assert property (@(posedge clk_i) disable iff (!rst_ni)
      red_beat |-> !pending_q[red_slot]);
  pair_ready: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cmb_go |-> !pending_q[{cmb_k_q, 1'b0}] && !pending_q[{cmb_k_q, 1'b1}]);
  no_underflow: assert property (@(posedge clk_i) disable iff (!rst_ni) out_fire |-> inflight_q != 10'd0);
`endif

endmodule
