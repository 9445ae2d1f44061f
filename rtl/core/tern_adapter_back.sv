// tern_adapter_back: the back half of an engine adapter that keeps two instructions in flight
// (docs/core-rtl.md "ACT: two instructions in flight"; tern_act_adapter, tern_vec_adapter).
// The front pushes an instruction's destinations into a two-entry context queue once its
// engine has taken the command; the back writes the engine's result beats, in order, to the
// next elements of the head's first destination (n beats), then, when the head has one, one
// beat a lane to its second destination, and signals done. The second beat is either the
// engine's next result beat (SecondFromOut: tensor_scalar_reduce's reduction) or, once the
// engine is idle, second_data_i (ACT's accumulators, converted by the adapter). The span of
// what the back is writing (its walker's) is the front's read-after-write check.
module tern_adapter_back #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter bit          SecondFromOut = 1'b0,
  parameter int unsigned SAW = 16,  // SBUF byte-offset bits
  parameter int unsigned PAW = 16,  // PSUM byte-offset bits
  localparam int unsigned ApBits = tern_isa_pkg::ApBits
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // the front: an instruction whose command the engine has taken
  input  logic               push_i,
  input  logic [ApBits-1:0]  first_ap_i,
  input  logic [31:0]        first_base_i,
  input  logic [ApBits-1:0]  second_ap_i,
  input  logic [31:0]        second_base_i,
  input  logic               second_i,       // it has a second destination
  input  logic [7:0]         lanes_i,
  input  logic [63:0]        n_i,            // result beats to the first destination
  output logic               full_o,
  output logic               empty_o,
  output logic [1:0]         count_o,
  output logic               head_second_o,  // the head has a second destination
  output logic [3:0]         head_second_dtype_o,
  // what the back is writing: valid once it has started on the head
  output logic               span_valid_o,
  output logic               span_psum_o,
  output logic [7:0]         span_pstart_o,
  output logic [7:0]         span_parts_o,
  output logic [31:0]        span_lo_o,
  output logic [31:0]        span_hi_o,
  // the engine's results
  input  logic               out_valid_i,
  output logic               out_ready_o,
  input  logic [P*32-1:0]    out_data_i,
  input  logic               engine_busy_i,  // (not SecondFromOut) second_data_i is final when low
  input  logic [P*32-1:0]    second_data_i,
  // SBUF and PSUM writes: a write is taken when gnt is high with valid
  output logic               sbuf_wr_valid_o,
  input  logic               sbuf_wr_gnt_i,
  output logic [SAW-1:0]     sbuf_wr_addr_o,
  output logic [2:0]         sbuf_wr_bytes_o,
  output logic [P-1:0]       sbuf_wr_mask_o,
  output logic [P*32-1:0]    sbuf_wr_data_o,
  output logic               psum_wr_valid_o,
  input  logic               psum_wr_gnt_i,
  output logic [PAW-1:0]     psum_wr_addr_o,
  output logic [2:0]         psum_wr_bytes_o,
  output logic [P-1:0]       psum_wr_mask_o,
  output logic [P*32-1:0]    psum_wr_data_o,
  output logic               done_o          // the head's last write was taken
);

  typedef enum logic [2:0] {BkIdle, BkOut, BkDrain, BkSecondStart, BkSecond} back_e;

  typedef struct packed {
    logic [ApBits-1:0] ap0;
    logic [31:0]       base0;
    logic [ApBits-1:0] ap1;
    logic [31:0]       base1;
    logic [7:0]        lanes;
    logic [63:0]       n;
    logic              second;
  } ctx_t;
  localparam int unsigned CtxBits = 2 * ApBits + 2 * 32 + 8 + 64 + 1;

  back_e       bk_q, bk_d;
  logic [63:0] out_count_q, out_count_d;

  // ---------------------------------------------------------------------------------------
  // The context queue, oldest at the head.
  // ---------------------------------------------------------------------------------------
  ctx_t head;
  logic pop;
  tern_fifo #(.Width (CtxBits), .Depth (2)) u_ctx (
    .clk_i, .rst_ni, .flush_i (1'b0),
    .push_i, .data_i ({first_ap_i, first_base_i, second_ap_i, second_base_i, lanes_i, n_i, second_i}),
    .full_o, .pop_i (pop), .data_o (head), .empty_o, .count_o);
  assign head_second_o       = head.second;
  assign head_second_dtype_o = head.ap1[tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth];

  // ---------------------------------------------------------------------------------------
  // The walker: the head's first destination, then its second.
  // ---------------------------------------------------------------------------------------
  logic        start, at_second, b_valid, b_psum, wr_fire;
  logic [31:0] b_off;
  logic [7:0]  b_pstart, b_parts;
  logic [2:0]  b_eb;
  logic [63:0] el_unused;
  logic        checked_unused, err_unused, dense_unused, last_unused;
  assign at_second = (bk_q == BkSecondStart) || (bk_q == BkSecond);
  tern_operand_walk #(.P(P)) u_walk (
    .clk_i, .rst_ni,
    .start_i (start), .ap_i (at_second ? head.ap1 : head.ap0),
    .base_i (at_second ? head.base1 : head.base0), .lanes_i (head.lanes), .scalar_i (1'b0),
    .psum_o (b_psum), .checked_o (checked_unused), .err_o (err_unused), .elements_o (el_unused),
    .span_lo_o, .span_hi_o, .start_partition_o (b_pstart), .partitions_o (b_parts),
    .elem_bytes_o (b_eb), .dense_o (dense_unused), .off_valid_o (b_valid),
    .off_ready_i (wr_fire), .off_o (b_off), .off_last_o (last_unused));
  assign span_valid_o  = (bk_q != BkIdle);
  assign span_psum_o   = b_psum;
  assign span_pstart_o = b_pstart;
  assign span_parts_o  = b_parts;

  // ---------------------------------------------------------------------------------------
  // The writes.
  // ---------------------------------------------------------------------------------------
  logic            from_out, wr_want;
  logic [P*32-1:0] wr_row;
  logic [P-1:0]    wr_mask;
  assign from_out = (bk_q == BkOut) || (bk_q == BkSecond && SecondFromOut);
  tern_lane_scatter #(.P(P)) u_scatter (
    .lanes_i (from_out ? out_data_i : second_data_i), .start_i (b_pstart), .count_i (b_parts),
    .row_o (wr_row), .mask_o (wr_mask));

  assign wr_want = ((from_out && out_valid_i) || (bk_q == BkSecond && !SecondFromOut)) && b_valid;
  assign sbuf_wr_valid_o = wr_want && !b_psum;
  assign psum_wr_valid_o = wr_want && b_psum;
  assign sbuf_wr_addr_o  = b_off[SAW-1:0];
  assign psum_wr_addr_o  = b_off[PAW-1:0];
  assign sbuf_wr_bytes_o = b_eb;
  assign psum_wr_bytes_o = b_eb;
  assign sbuf_wr_mask_o  = wr_mask;
  assign psum_wr_mask_o  = wr_mask;
  assign sbuf_wr_data_o  = wr_row;
  assign psum_wr_data_o  = wr_row;
  assign wr_fire     = (sbuf_wr_valid_o && sbuf_wr_gnt_i) || (psum_wr_valid_o && psum_wr_gnt_i);
  assign out_ready_o = wr_fire && from_out;
  logic unused;
  assign unused = (^b_off[31:(SAW > PAW ? SAW : PAW)]) ^ checked_unused ^ err_unused ^
                  dense_unused ^ last_unused ^ (^el_unused);

  // ---------------------------------------------------------------------------------------
  // The sequence: the first destination's n beats, then the second's.
  // ---------------------------------------------------------------------------------------
  always_comb begin
    bk_d        = bk_q;
    out_count_d = out_count_q;
    start       = 1'b0;
    done_o      = 1'b0;
    if (wr_fire && bk_q == BkOut) out_count_d = out_count_q + 64'd1;
    unique case (bk_q)
      BkIdle: begin
        if (!empty_o) begin
          start       = 1'b1;
          out_count_d = '0;
          bk_d        = BkOut;
        end
      end
      BkOut: begin
        if (out_count_q == head.n) begin
          if (!head.second) begin
            done_o = 1'b1;
            bk_d   = BkIdle;
          end else begin
            bk_d = SecondFromOut ? BkSecondStart : BkDrain;
          end
        end
      end
      BkDrain: begin
        // second_data_i is final once the engine is empty (nothing follows this one).
        if (!engine_busy_i) bk_d = BkSecondStart;
      end
      BkSecondStart: begin
        start = 1'b1;
        bk_d  = BkSecond;
      end
      BkSecond: begin
        if (wr_fire) begin
          done_o = 1'b1;
          bk_d   = BkIdle;
        end
      end
      default: bk_d = BkIdle;
    endcase
  end
  assign pop = done_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bk_q        <= BkIdle;
      out_count_q <= '0;
    end else begin
      bk_q        <= bk_d;
      out_count_q <= out_count_d;
    end
  end

`ifndef SYNTHESIS
  // The queue never overflows; no result beat comes without an instruction to write it.
  ctx_room: assert property (@(posedge clk_i) disable iff (!rst_ni) push_i |-> !full_o);
  out_owned: assert property (@(posedge clk_i) disable iff (!rst_ni) out_valid_i |-> !empty_o);
`endif

endmodule
