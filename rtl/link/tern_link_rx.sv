// tern_link_rx: the receive side of a NeuronLink port (docs/link.md "Receive side", "Training").
//
// Frames the incoming flits by their head bit, checks every packet's CRC and sequence number
// and commits a packet into its VC's receive buffer only when both are right (the flits are
// written ahead of the check, into the space the sender's credits reserve, and the write pointer
// moves at the end). A lost, corrupted or out-of-order packet asks the transmit side for one NAK
// (until the expected packet arrives); duplicates of delivered packets are dropped. Control
// flits with a good CRC carry the peer's acknowledgement and credits to the transmit side, and
// drive link training. The link goes down when nothing arrives for LinkTimeout cycles.
module tern_link_rx #(
  parameter int unsigned FlitBits    = tern_link_pkg::FlitBits,
  parameter int unsigned NumVcs      = tern_link_pkg::NumVcs,
  parameter int unsigned RxVcFlits   = 128,  // receive buffer per VC, power of two
  parameter int unsigned LinkTimeout = 64,
  parameter int unsigned NakRearm    = 96,   // cycles after a NAK before another may follow
  parameter bit          CheckCrc    = 1'b1, // 0 only to show the tests catch a missing check
  localparam int unsigned SeqW = tern_link_pkg::SeqBits,
  localparam int unsigned CrW  = tern_link_pkg::CreditBits
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // Channel in.
  input  logic                     phy_valid_i,
  input  logic                     phy_head_i,
  input  logic [FlitBits-1:0]      phy_flit_i,
  // Delivered packets, per VC (rx_head_o marks a header flit).
  output logic [NumVcs-1:0]        out_valid_o,
  output logic [NumVcs-1:0]        out_head_o,
  output logic [NumVcs*FlitBits-1:0] out_flit_o,
  input  logic [NumVcs-1:0]        out_ready_i,
  // To the local transmit side.
  output logic                     active_o,
  output logic                     seen_o,
  output logic                     fresh_o,      // reset and not active since
  output logic                     fresh_ack_o,  // the peer's reset noted
  output logic [NumVcs*CrW-1:0]    held_o,       // flits held per VC
  output logic                     resync_o,     // pulse: the peer was reset, drop what it did not acknowledge
  output logic                     adopt_o,      // pulse: take the peer's numbering and credits (ack_*)
  output logic [NumVcs*CrW-1:0]    ack_held_o,
  output logic [SeqW-1:0]          rx_exp_o,
  output logic [NumVcs*CrW-1:0]    rx_freed_o,
  output logic                     nak_req_o,
  output logic                     ack_valid_o,
  output logic [SeqW-1:0]          ack_exp_o,
  output logic                     ack_nak_o,
  output logic [NumVcs*CrW-1:0]    ack_freed_o,
  // Counters.
  output logic [31:0]              cnt_crc_errors_o,
  output logic [31:0]              cnt_framing_errors_o,
  output logic [31:0]              cnt_duplicates_o,
  output logic [31:0]              cnt_link_downs_o,
  output logic [31:0]              cnt_packets_o,
  output logic [31:0]              cnt_payload_flits_o
);

  localparam int unsigned BufBits = $clog2(RxVcFlits);
  localparam int unsigned VcBits  = $clog2(NumVcs);
  localparam int unsigned AddrW   = VcBits + BufBits;
  localparam int unsigned LenW    = tern_link_pkg::HdrLenWidth;
  localparam int unsigned QuietW  = $clog2(LinkTimeout + 1) + 1;
  localparam int unsigned AgeW    = $clog2(NakRearm + 1) + 1;

  // Receive buffers: one region of RxVcFlits entries per VC, each entry {head, flit}.
  logic [FlitBits:0] buf_q [NumVcs * RxVcFlits];
  logic [NumVcs*(BufBits+1)-1:0] wr_q, wr_d, rd_q, rd_d;
  logic [NumVcs*CrW-1:0] freed_q, freed_d;
  logic              buf_we;
  logic [AddrW-1:0]  buf_waddr;

  logic              active_q, active_d, seen_q, seen_d, nak_sent_q, nak_sent_d;
  logic              fresh_q, fresh_d, fresh_ack_q, fresh_ack_d, adopted_q, adopted_d;
  logic              resync_q, resync_d, adopt_q, adopt_d, adopt_now, can_see;
  logic [NumVcs*CrW-1:0] ack_held_q, ack_held_d;
  logic [QuietW-1:0] quiet_q, quiet_d;
  logic [AgeW-1:0]   nak_age_q, nak_age_d;
  logic [SeqW-1:0]   exp_q, exp_d;
  logic              in_pkt_q, in_pkt_d, wr_ok_q, wr_ok_d;
  logic [LenW-1:0]   left_q, left_d, len_q, len_d;
  logic [VcBits-1:0] vc_q, vc_d;
  logic [SeqW-1:0]   seq_q, seq_d;
  logic [31:0]       crc_q, crc_d, hcrc_q, hcrc_d;
  logic [BufBits:0]  tptr_q, tptr_d;
  logic              nak_req_d, ack_valid_d, ack_nak_d;
  logic [SeqW-1:0]   ack_exp_d;
  logic [NumVcs*CrW-1:0] ack_freed_d;
  logic              nak_req_q, ack_valid_q, ack_nak_q;
  logic [SeqW-1:0]   ack_exp_q;
  logic [NumVcs*CrW-1:0] ack_freed_q;
  logic [31:0] crc_err_q, crc_err_d, frm_err_q, frm_err_d, dup_q, dup_d, downs_q, downs_d;
  logic [31:0] pkts_q, pkts_d, pflits_q, pflits_d;

  // --- The flit's fields and its CRC step ------------------------------------------------------
  logic [3:0]          f_type;
  logic [LenW-1:0]     f_len;
  logic [VcBits-1:0]   f_vc;
  logic [SeqW-1:0]     f_seq;
  logic [31:0]         f_crc, crc_in, crc_out;
  logic [FlitBits-1:0] crc_data;
  logic                ctl_type, ctl_good;

  assign f_type = phy_flit_i[tern_link_pkg::HdrTypeLsb +: 4];
  assign f_len  = phy_flit_i[tern_link_pkg::HdrLenLsb +: LenW];
  assign f_vc   = phy_flit_i[tern_link_pkg::HdrVcLsb +: VcBits];
  assign f_seq  = phy_flit_i[tern_link_pkg::HdrSeqLsb +: SeqW];
  assign f_crc  = phy_flit_i[tern_link_pkg::HdrCrcLsb +: 32];

  always_comb begin
    crc_data = phy_flit_i;
    if (phy_head_i) crc_data[tern_link_pkg::HdrCrcLsb +: 32] = '0;
  end
  assign crc_in = phy_head_i ? 32'hFFFF_FFFF : crc_q;
  tern_link_crc #(.FlitBits(FlitBits)) u_crc (.crc_i(crc_in), .data_i(crc_data), .crc_o(crc_out));

  assign ctl_type = f_type == tern_link_pkg::FlitIdle || f_type == tern_link_pkg::FlitNak
                 || f_type == tern_link_pkg::FlitTrain;
  assign ctl_good = ctl_type && (~crc_out == f_crc || !CheckCrc);

  // Free space of each VC's buffer (committed flits not yet read).
  logic [NumVcs*(BufBits+1)-1:0] space;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++)
      space[v*(BufBits+1) +: BufBits+1] = (BufBits + 1)'(RxVcFlits)
          - (wr_q[v*(BufBits+1) +: BufBits+1] - rd_q[v*(BufBits+1) +: BufBits+1]);
  end

  // --- Next state ------------------------------------------------------------------------------
  logic       fin, fin_good, go_train, go_active, train_seen;
  logic [SeqW-1:0] fin_seq_diff;
  logic [LenW-1:0] fin_len;
  assign fin_len = phy_head_i ? f_len : len_q;

  always_comb begin
    active_d = active_q;   seen_d = seen_q;     nak_sent_d = nak_sent_q;
    fresh_d = fresh_q;     fresh_ack_d = fresh_ack_q;  adopted_d = adopted_q;
    resync_d = 1'b0;       adopt_d = 1'b0;      adopt_now = 1'b0;  can_see = 1'b0;
    ack_held_d = phy_flit_i[tern_link_pkg::CtlHeld0Lsb +: NumVcs*CrW];
    nak_age_d = (nak_age_q == AgeW'(NakRearm)) ? nak_age_q : nak_age_q + 1'b1;
    quiet_d = quiet_q;     exp_d = exp_q;
    in_pkt_d = in_pkt_q;   wr_ok_d = wr_ok_q;   left_d = left_q;   len_d = len_q;
    vc_d = vc_q;           seq_d = seq_q;       crc_d = crc_q;     hcrc_d = hcrc_q;
    tptr_d = tptr_q;       wr_d = wr_q;
    crc_err_d = crc_err_q; frm_err_d = frm_err_q; dup_d = dup_q;   downs_d = downs_q;
    pkts_d = pkts_q;       pflits_d = pflits_q;
    nak_req_d = 1'b0;      ack_valid_d = 1'b0;  ack_nak_d = 1'b0;
    ack_exp_d = phy_flit_i[tern_link_pkg::CtlRxExpLsb +: SeqW];
    ack_freed_d = phy_flit_i[tern_link_pkg::CtlFreed0Lsb +: NumVcs*CrW];
    buf_we = 1'b0;
    buf_waddr = {vc_q, tptr_q[BufBits-1:0]};
    fin = 1'b0;  fin_good = 1'b0;  go_train = 1'b0;  go_active = 1'b0;  train_seen = 1'b0;
    fin_seq_diff = '0;

    if (!phy_valid_i) begin
      if (active_q) begin
        quiet_d = quiet_q + 1'b1;
        if (quiet_q >= QuietW'(LinkTimeout)) go_train = 1'b1;
      end
    end else begin
      quiet_d = '0;
      if (!phy_head_i) begin
        // A payload flit: the next of the current packet, or an error.
        if (in_pkt_q) begin
          buf_we = wr_ok_q;
          buf_waddr = {vc_q, tptr_q[BufBits-1:0]};
          tptr_d = tptr_q + 1'b1;
          crc_d = crc_out;
          left_d = left_q - 1'b1;
          if (left_q == LenW'(1)) begin
            in_pkt_d = 1'b0;
            fin = 1'b1;
            fin_good = ~crc_out == hcrc_q || !CheckCrc;
          end
        end else if (active_q) begin
          frm_err_d = frm_err_q + 1'b1;
          nak_req_d = 1'b1;
        end
      end else begin
        if (in_pkt_q) begin  // a header or control flit cut the packet short
          in_pkt_d = 1'b0;
          frm_err_d = frm_err_q + 1'b1;
          nak_req_d = 1'b1;
        end
        if (f_type == tern_link_pkg::FlitHeader) begin
          if (active_q) begin
            if (f_len > LenW'(tern_link_pkg::MaxPayloadFlits)) begin
              frm_err_d = frm_err_d + 1'b1;
              nak_req_d = 1'b1;
            end else begin
              vc_d = f_vc;  seq_d = f_seq;  len_d = f_len;  hcrc_d = f_crc;  crc_d = crc_out;
              // Write only into space the credits reserve (a corrupted vc or len may not fit).
              wr_ok_d = space[f_vc*(BufBits+1) +: BufBits+1] >= (BufBits + 1)'(f_len) + (BufBits + 1)'(1);
              buf_we = wr_ok_d;
              buf_waddr = {f_vc, wr_q[f_vc*(BufBits+1) +: BufBits]};
              tptr_d = wr_q[f_vc*(BufBits+1) +: BufBits+1] + 1'b1;
              if (f_len == '0) begin
                in_pkt_d = 1'b0;
                fin = 1'b1;
                fin_good = ~crc_out == f_crc || !CheckCrc;
              end else begin
                in_pkt_d = 1'b1;
                left_d = f_len;
              end
            end
          end
        end else if (ctl_good) begin
          if (f_type == tern_link_pkg::FlitTrain) begin
            // Reset handshake: a reset peer announces itself (fresh); we note it once (and drop
            // what it never acknowledged, unless we are fresh too); a fresh port takes the
            // peer's numbering and credits from its first training flit that noted the reset.
            // (Only seen = 0 announces a reset: a reset port sets seen once it has adopted our
            // numbering, so its later flits, still in flight when we go active, are no reset.)
            if (phy_flit_i[tern_link_pkg::CtlFreshLsb] && !phy_flit_i[tern_link_pkg::CtlSeenLsb]
                && !fresh_ack_q) begin
              fresh_ack_d = 1'b1;
              resync_d = !fresh_q;
            end
            adopt_now = fresh_q && !adopted_q && phy_flit_i[tern_link_pkg::CtlFreshAckLsb];
            if (adopt_now) begin
              adopted_d = 1'b1;
              adopt_d = 1'b1;
              exp_d = phy_flit_i[tern_link_pkg::CtlTxBaseLsb +: SeqW];
            end
            can_see = !fresh_q || adopted_q || adopt_now;
            if (!active_q) begin
              if (can_see) seen_d = 1'b1;
              if (can_see && phy_flit_i[tern_link_pkg::CtlSeenLsb]) go_active = 1'b1;
            end else if (!phy_flit_i[tern_link_pkg::CtlSeenLsb]) begin
              go_train = 1'b1;  // the peer restarted training
              train_seen = 1'b1;
            end
          end else if (active_q || seen_q) begin
            go_active = !active_q;  // the peer is active, so it has seen our training flits
            ack_valid_d = 1'b1;
            ack_nak_d = f_type == tern_link_pkg::FlitNak;
          end
        end else begin
          crc_err_d = crc_err_q + 1'b1;  // a control flit lost: the next one says the same, newer
        end
      end
    end

    // The end of a packet: commit it when its CRC and sequence number are right.
    if (fin) begin
      fin_seq_diff = (phy_head_i ? f_seq : seq_q) - exp_q;
      if (!fin_good) begin
        crc_err_d = crc_err_d + 1'b1;
        nak_req_d = 1'b1;
      end else if (fin_seq_diff != '0) begin
        if (fin_seq_diff[SeqW-1] == 1'b0) nak_req_d = 1'b1;  // ahead: one before it was lost
        else dup_d = dup_q + 1'b1;                          // behind: a replay's copy
      end else if (!(phy_head_i ? wr_ok_d : wr_ok_q)) begin
        frm_err_d = frm_err_d + 1'b1;  // only a sender that ignores credits gets here
      end else begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          if (VcBits'(v) == (phy_head_i ? f_vc : vc_q))
            wr_d[v*(BufBits+1) +: BufBits+1] = wr_q[v*(BufBits+1) +: BufBits+1]
                + (BufBits + 1)'(fin_len) + (BufBits + 1)'(1);
        end
        exp_d = exp_q + 1'b1;
        nak_sent_d = 1'b0;
        pkts_d = pkts_q + 1'b1;
        pflits_d = pflits_q + 32'(fin_len);
      end
    end

    // One NAK per loss: the next comes only after the expected packet arrived, or, when the
    // replay it asked for went wrong too, NakRearm cycles after the last one.
    if (nak_req_d) begin
      if (active_q && (!nak_sent_q || nak_age_q == AgeW'(NakRearm)) && !go_train) begin
        nak_sent_d = 1'b1;
        nak_age_d = '0;
      end else begin
        nak_req_d = 1'b0;
      end
    end

    if (go_active) begin
      active_d = 1'b1;
      quiet_d = '0;
      fresh_d = 1'b0;
      fresh_ack_d = 1'b0;
      adopted_d = 1'b0;
    end
    if (go_train) begin
      if (active_q) downs_d = downs_q + 1'b1;
      active_d = 1'b0;
      seen_d = train_seen;
      in_pkt_d = 1'b0;
      nak_sent_d = 1'b0;
      quiet_d = '0;
    end
  end

  // --- Delivery: each VC's oldest flit; reading it frees a credit -------------------------------
  for (genvar v = 0; v < NumVcs; v++) begin : gen_out
    logic [FlitBits:0] e;
    assign e = buf_q[{VcBits'(v), rd_q[v*(BufBits+1) +: BufBits]}];
    assign out_valid_o[v] = rd_q[v*(BufBits+1) +: BufBits+1] != wr_q[v*(BufBits+1) +: BufBits+1];
    assign out_head_o[v] = e[FlitBits];
    assign out_flit_o[v*FlitBits +: FlitBits] = e[FlitBits-1:0];
  end

  always_comb begin
    rd_d = rd_q;
    freed_d = freed_q;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (out_valid_o[v] && out_ready_i[v]) begin
        rd_d[v*(BufBits+1) +: BufBits+1] = rd_q[v*(BufBits+1) +: BufBits+1] + 1'b1;
        freed_d[v*CrW +: CrW] = freed_q[v*CrW +: CrW] + 1'b1;
      end
    end
  end

  // --- Registers -------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (buf_we) buf_q[buf_waddr] <= {phy_head_i, phy_flit_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;  seen_q <= 1'b0;   nak_sent_q <= 1'b0;  quiet_q <= '0;   exp_q <= '0;
      fresh_q <= 1'b1;   fresh_ack_q <= 1'b0;  adopted_q <= 1'b0;
      resync_q <= 1'b0;  adopt_q <= 1'b0;  ack_held_q <= '0;
      nak_age_q <= '0;
      in_pkt_q <= 1'b0;  wr_ok_q <= 1'b0;  left_q <= '0;        len_q <= '0;
      vc_q <= '0;        seq_q <= '0;      crc_q <= '0;         hcrc_q <= '0;    tptr_q <= '0;
      wr_q <= '0;        rd_q <= '0;       freed_q <= '0;
      nak_req_q <= 1'b0; ack_valid_q <= 1'b0; ack_nak_q <= 1'b0; ack_exp_q <= '0; ack_freed_q <= '0;
      crc_err_q <= '0;   frm_err_q <= '0;  dup_q <= '0;         downs_q <= '0;
      pkts_q <= '0;      pflits_q <= '0;
    end else begin
      active_q <= active_d;   seen_q <= seen_d;   nak_sent_q <= nak_sent_d;
      fresh_q <= fresh_d;     fresh_ack_q <= fresh_ack_d;  adopted_q <= adopted_d;
      resync_q <= resync_d;   adopt_q <= adopt_d; ack_held_q <= ack_held_d;
      nak_age_q <= nak_age_d;
      quiet_q <= quiet_d;     exp_q <= exp_d;
      in_pkt_q <= in_pkt_d;   wr_ok_q <= wr_ok_d; left_q <= left_d;   len_q <= len_d;
      vc_q <= vc_d;           seq_q <= seq_d;     crc_q <= crc_d;     hcrc_q <= hcrc_d;
      tptr_q <= tptr_d;
      wr_q <= wr_d;           rd_q <= rd_d;       freed_q <= freed_d;
      nak_req_q <= nak_req_d; ack_valid_q <= ack_valid_d; ack_nak_q <= ack_nak_d;
      ack_exp_q <= ack_exp_d; ack_freed_q <= ack_freed_d;
      crc_err_q <= crc_err_d; frm_err_q <= frm_err_d; dup_q <= dup_d; downs_q <= downs_d;
      pkts_q <= pkts_d;       pflits_q <= pflits_d;
    end
  end

`ifndef SYNTHESIS
  // A VC's buffer never holds more than RxVcFlits flits (the credits' promise).
  for (genvar v = 0; v < NumVcs; v++) begin : gen_occupancy_check
    occupancy_bounded: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (wr_q[v*(BufBits+1) +: BufBits+1] - rd_q[v*(BufBits+1) +: BufBits+1]) <= (BufBits + 1)'(RxVcFlits));
  end
`endif

  assign active_o    = active_q;
  assign seen_o      = seen_q;
  assign fresh_o     = fresh_q;
  assign fresh_ack_o = fresh_ack_q;
  assign resync_o    = resync_q;
  assign adopt_o     = adopt_q;
  assign ack_held_o  = ack_held_q;
  logic [NumVcs*(BufBits+1)-1:0] occ;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++)
      occ[v*(BufBits+1) +: BufBits+1] = wr_q[v*(BufBits+1) +: BufBits+1] - rd_q[v*(BufBits+1) +: BufBits+1];
  end
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++)
      held_o[v*CrW +: CrW] = CrW'(occ[v*(BufBits+1) +: BufBits+1]);
  end
  assign rx_exp_o    = exp_q;
  assign rx_freed_o  = freed_q;
  assign nak_req_o   = nak_req_q;
  assign ack_valid_o = ack_valid_q;
  assign ack_exp_o   = ack_exp_q;
  assign ack_nak_o   = ack_nak_q;
  assign ack_freed_o = ack_freed_q;
  assign cnt_crc_errors_o     = crc_err_q;
  assign cnt_framing_errors_o = frm_err_q;
  assign cnt_duplicates_o     = dup_q;
  assign cnt_link_downs_o     = downs_q;
  assign cnt_packets_o        = pkts_q;
  assign cnt_payload_flits_o  = pflits_q;

endmodule
