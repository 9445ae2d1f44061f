// tern_link_tx: the transmit side of a NeuronLink port (docs/link.md "Transmit side").
//
// Packets come in as flit streams (header first, the port fills in type, seq and crc) and are
// written whole into the replay buffer, the CRC computed on the way in; a packet is accepted
// only when its VC has credits for all its flits and the replay buffer has room. The sender
// takes complete packets from the replay buffer in sequence order and puts them on the channel;
// between packets it sends control flits (idle: acknowledgement and credits of the local
// receiver; nak; train while the link is not active). Go-back-N: an acknowledgement frees the
// packets before it, a NAK, the replay timer or the end of link training makes the sender
// resend from the oldest unacknowledged packet.
module tern_link_tx #(
  parameter int unsigned FlitBits      = tern_link_pkg::FlitBits,
  parameter int unsigned NumVcs        = tern_link_pkg::NumVcs,
  parameter int unsigned RxVcFlits     = 128,  // the peer's receive buffer per VC (initial credits)
  parameter int unsigned ReplayFlits   = 128,  // power of two
  parameter int unsigned ReplayTimeout = 512,
  parameter int unsigned CtrlEvery     = 64,
  localparam int unsigned SeqW = tern_link_pkg::SeqBits,
  localparam int unsigned CrW  = tern_link_pkg::CreditBits
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // Packets in.
  input  logic                     in_valid_i,
  input  logic [FlitBits-1:0]      in_flit_i,
  output logic                     in_ready_o,
  output logic [NumVcs-1:0]        vc_space_o,   // a maximum-size packet on this VC would be taken
  // Channel out.
  output logic                     phy_valid_o,
  output logic                     phy_head_o,
  output logic [FlitBits-1:0]      phy_flit_o,
  input  logic                     phy_ready_i,
  // From the local receive side.
  input  logic                     active_i,     // link trained
  input  logic                     seen_i,       // training: the peer's training flits arrive
  input  logic                     fresh_i,      // reset and not active since: take no packets
  input  logic                     fresh_ack_i,  // the peer's reset noted
  input  logic [NumVcs*CrW-1:0]    held_i,       // local receiver's flits held per VC
  input  logic                     resync_i,     // the peer was reset: drop the unacknowledged
  input  logic                     adopt_i,      // we were reset: take the peer's numbering
  input  logic [NumVcs*CrW-1:0]    ack_held_i,
  input  logic [SeqW-1:0]          rx_exp_i,     // local receiver's next expected sequence number
  input  logic [NumVcs*CrW-1:0]    rx_freed_i,   // local receiver's freed-flit counters
  input  logic                     nak_req_i,    // send a NAK
  input  logic                     ack_valid_i,  // a good idle/nak flit from the peer arrived
  input  logic [SeqW-1:0]          ack_exp_i,
  input  logic                     ack_nak_i,
  input  logic [NumVcs*CrW-1:0]    ack_freed_i,
  // Counters.
  output logic [31:0]              cnt_retries_o,
  output logic [31:0]              cnt_timeouts_o,
  output logic [31:0]              cnt_naks_sent_o,
  output logic [31:0]              cnt_naks_rcvd_o,
  output logic [31:0]              cnt_packets_o,
  output logic [31:0]              cnt_replay_hwm_o,
  output logic [31:0]              cnt_slots_o,
  output logic [31:0]              cnt_dropped_o   // packets dropped because the peer was reset
);

  localparam int unsigned RbBits = $clog2(ReplayFlits);
  localparam int unsigned PtBits = $clog2(tern_link_pkg::MaxOutstanding);
  localparam int unsigned LenW   = tern_link_pkg::HdrLenWidth;
  localparam int unsigned VcW    = tern_link_pkg::HdrVcWidth;
  localparam int unsigned TimerW = $clog2(ReplayTimeout + 1) + 1;
  localparam int unsigned CtrlW  = $clog2(CtrlEvery + 1) + 1;

  // Replay buffer and its packet table (indexed by seq modulo MaxOutstanding). Pointers carry
  // one wrap bit so that full and empty differ.
  logic [FlitBits-1:0] rb_q [ReplayFlits];
  logic [RbBits:0]     pt_start_q [tern_link_pkg::MaxOutstanding];
  logic [LenW-1:0]     pt_len_q [tern_link_pkg::MaxOutstanding];
  logic [31:0]         pt_crc_q [tern_link_pkg::MaxOutstanding];
  logic [RbBits:0]     rb_wr_q, rb_wr_d, rb_head_q, rb_head_d;
  logic [SeqW-1:0]     base_q, base_d, next_q, next_d, send_q, send_d, sent_hi_q, sent_hi_d;
  logic [LenW-1:0]     send_left_q, send_left_d;
  logic [RbBits:0]     send_ptr_q, send_ptr_d;
  logic                in_pkt_q, in_pkt_d;
  logic [VcW-1:0]      in_vc_q, in_vc_d;
  logic [LenW-1:0]     in_len_q, in_len_d;
  logic [31:0]         dropped_q, dropped_d;
  logic [LenW-1:0]     in_left_q, in_left_d;
  logic [31:0]         in_crc_q, in_crc_d;
  logic [NumVcs*CrW-1:0] used_q, used_d;
  logic [NumVcs*CrW-1:0] peer_freed_q, peer_freed_d;
  logic                rewind_q, rewind_d, nak_pend_q, nak_pend_d, active_q;
  logic [TimerW-1:0]   timer_q, timer_d;
  logic [CtrlW-1:0]    since_ctrl_q, since_ctrl_d;
  logic [SeqW-1:0]     last_exp_q, last_exp_d;
  logic [NumVcs*CrW-1:0] last_freed_q, last_freed_d;
  logic [31:0] retries_q, retries_d, timeouts_q, timeouts_d, naks_sent_q, naks_sent_d;
  logic [31:0] naks_rcvd_q, naks_rcvd_d, packets_q, packets_d, hwm_q, hwm_d, slots_q, slots_d;

  // Replay buffer and packet-table writes.
  logic                rb_we, pt_we, pt_crc_we;
  logic [RbBits-1:0]   rb_waddr;
  logic [FlitBits-1:0] rb_wdata;
  logic [PtBits-1:0]   pt_idx;
  logic [31:0]         crc_in, crc_out;
  logic [FlitBits-1:0] crc_data, ctl_flit;
  logic [31:0]         ctl_crc;

  // --- Ingest ----------------------------------------------------------------------------------
  logic [LenW-1:0]   hdr_len;
  logic [VcW-1:0]    hdr_vc;
  logic [NumVcs*CrW-1:0] avail;
  logic [RbBits:0]   rb_used;
  logic              hdr_ok;
  logic [FlitBits-1:0] hdr_store;

  assign hdr_len = in_flit_i[tern_link_pkg::HdrLenLsb +: LenW];
  assign hdr_vc  = in_flit_i[tern_link_pkg::HdrVcLsb +: VcW];
  assign rb_used = rb_wr_q - rb_head_q;

  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      avail[v*CrW +: CrW] = peer_freed_q[v*CrW +: CrW] + CrW'(RxVcFlits) - used_q[v*CrW +: CrW];
      vc_space_o[v] = avail[v*CrW +: CrW] >= CrW'(tern_link_pkg::MaxPayloadFlits + 1)
          && (RbBits + 1)'(ReplayFlits) - rb_used >= (RbBits + 1)'(tern_link_pkg::MaxPayloadFlits + 1)
          && (next_q - base_q) < SeqW'(tern_link_pkg::MaxOutstanding - 1) && !in_pkt_q
          && !fresh_i && !resync_i && !adopt_i;
    end
  end

  assign hdr_ok = !in_pkt_q && hdr_len <= LenW'(tern_link_pkg::MaxPayloadFlits)
      && avail[hdr_vc*CrW +: CrW] >= CrW'(hdr_len) + CrW'(1)
      && (RbBits + 1)'(ReplayFlits) - rb_used >= (RbBits + 1)'(hdr_len) + (RbBits + 1)'(1)
      && (next_q - base_q) < SeqW'(tern_link_pkg::MaxOutstanding - 1) && !fresh_i && !resync_i && !adopt_i;
  assign in_ready_o = in_pkt_q || hdr_ok;

  always_comb begin
    hdr_store = in_flit_i;
    hdr_store[tern_link_pkg::HdrTypeLsb +: tern_link_pkg::HdrTypeWidth] = tern_link_pkg::FlitHeader;
    hdr_store[tern_link_pkg::HdrCrcLsb +: 32] = '0;
    hdr_store[tern_link_pkg::HdrSeqLsb +: SeqW] = next_q;
  end

  assign crc_in   = in_pkt_q ? in_crc_q : 32'hFFFF_FFFF;
  assign crc_data = in_pkt_q ? in_flit_i : hdr_store;
  tern_link_crc #(.FlitBits(FlitBits)) u_in_crc (.crc_i(crc_in), .data_i(crc_data), .crc_o(crc_out));

  // --- Control flits ---------------------------------------------------------------------------
  logic [3:0] ctl_type;
  logic       news;
  assign ctl_type = !active_q ? tern_link_pkg::FlitTrain
                  : nak_pend_q ? tern_link_pkg::FlitNak : tern_link_pkg::FlitIdle;
  always_comb begin
    ctl_flit = '0;
    ctl_flit[tern_link_pkg::CtlTypeLsb +: tern_link_pkg::CtlTypeWidth] = ctl_type;
    ctl_flit[tern_link_pkg::CtlRxExpLsb +: SeqW] = rx_exp_i;
    ctl_flit[tern_link_pkg::CtlSeenLsb] = seen_i;
    ctl_flit[tern_link_pkg::CtlFreed0Lsb +: NumVcs*CrW] = rx_freed_i;
    if (!active_q) begin
      ctl_flit[tern_link_pkg::CtlFreshLsb] = fresh_i;
      ctl_flit[tern_link_pkg::CtlFreshAckLsb] = fresh_ack_i;
      ctl_flit[tern_link_pkg::CtlTxBaseLsb +: SeqW] = resync_i ? next_q : base_q;  // base after a drop
      ctl_flit[tern_link_pkg::CtlHeld0Lsb +: NumVcs*CrW] = held_i;
    end
  end
  tern_link_crc #(.FlitBits(FlitBits)) u_ctl_crc (.crc_i(32'hFFFF_FFFF), .data_i(ctl_flit), .crc_o(ctl_crc));
  assign news = rx_exp_i != last_exp_q || rx_freed_i != last_freed_q;

  // --- Next state ------------------------------------------------------------------------------
  logic [SeqW-1:0]   ack_k, ack_lim, s;
  logic [PtBits-1:0] s_idx;
  logic [RbBits:0]   hdr_start;
  logic              unused_hdr_start;
  assign unused_hdr_start = hdr_start[RbBits];  // the wrap bit: the address is the rest
  logic              mid, outstanding, ack_progress;

  logic [SeqW-1:0] window;  // packets accepted and not acknowledged
  assign window = next_q - base_q;
  assign mid = send_left_q != '0;
  assign outstanding = sent_hi_q != base_q || mid;

  always_comb begin
    rb_wr_d = rb_wr_q;          rb_head_d = rb_head_q;
    base_d = base_q;            next_d = next_q;
    send_d = send_q;            sent_hi_d = sent_hi_q;
    send_left_d = send_left_q;  send_ptr_d = send_ptr_q;
    in_pkt_d = in_pkt_q;        in_left_d = in_left_q;      in_crc_d = in_crc_q;
    in_vc_d = in_vc_q;          in_len_d = in_len_q;        dropped_d = dropped_q;
    used_d = used_q;            peer_freed_d = peer_freed_q;
    rewind_d = rewind_q;        nak_pend_d = nak_pend_q || nak_req_i;
    timer_d = timer_q;          since_ctrl_d = since_ctrl_q;
    last_exp_d = last_exp_q;    last_freed_d = last_freed_q;
    retries_d = retries_q;      timeouts_d = timeouts_q;    naks_sent_d = naks_sent_q;
    naks_rcvd_d = naks_rcvd_q;  packets_d = packets_q;      slots_d = slots_q;
    hwm_d = (32'(rb_used) > hwm_q) ? 32'(rb_used) : hwm_q;
    rb_we = 1'b0;  rb_waddr = rb_wr_q[RbBits-1:0];  rb_wdata = in_flit_i;
    pt_we = 1'b0;  pt_crc_we = 1'b0;  pt_idx = next_q[PtBits-1:0];
    phy_valid_o = 1'b0;  phy_head_o = 1'b0;  phy_flit_o = ctl_flit;
    ack_k = ack_exp_i - base_q;
    ack_lim = (mid ? send_q : sent_hi_q) - base_q;
    s = send_q;  s_idx = '0;  hdr_start = '0;  ack_progress = 1'b0;

    // Ingest: a header when there is room for the whole packet, then its payload.
    if (in_valid_i && in_ready_o) begin
      rb_we = 1'b1;
      rb_wr_d = rb_wr_q + 1'b1;
      in_crc_d = crc_out;
      if (!in_pkt_q) begin
        rb_wdata = hdr_store;
        pt_we = 1'b1;
        used_d[hdr_vc*CrW +: CrW] = used_q[hdr_vc*CrW +: CrW] + CrW'(hdr_len) + CrW'(1);
        in_vc_d = hdr_vc;
        in_len_d = hdr_len;
        if (hdr_len == '0) begin
          pt_crc_we = 1'b1;
          next_d = next_q + 1'b1;
        end else begin
          in_pkt_d = 1'b1;
          in_left_d = hdr_len;
        end
      end else begin
        in_left_d = in_left_q - 1'b1;
        if (in_left_q == LenW'(1)) begin
          in_pkt_d = 1'b0;
          pt_crc_we = 1'b1;
          next_d = next_q + 1'b1;
        end
      end
    end

    // Acknowledgements (cumulative): free the packets before ack_exp_i, never one still being
    // sent or never sent; anything else is stale and ignored (a later one says it again).
    if (ack_valid_i && active_q) begin
      peer_freed_d = ack_freed_i;
      if (ack_k != '0 && ack_k <= ack_lim) begin
        base_d = ack_exp_i;
        rb_head_d = (ack_exp_i == next_q && !in_pkt_q) ? rb_wr_q : pt_start_q[ack_exp_i[PtBits-1:0]];
        if (!mid && (send_q - base_q) < ack_k) send_d = ack_exp_i;
        ack_progress = 1'b1;
      end
      if (ack_nak_i) begin
        naks_rcvd_d = naks_rcvd_q + 1'b1;
        if (outstanding && !rewind_q) begin
          rewind_d = 1'b1;
          retries_d = retries_q + 1'b1;
        end
      end
    end

    if (!active_q) begin
      // Training: only training flits; go back to the oldest packet once the link is up.
      send_left_d = '0;
      rewind_d = 1'b1;
      timer_d = '0;
      nak_pend_d = 1'b0;
      if (phy_ready_i) phy_valid_o = 1'b1;
      phy_head_o = 1'b1;
      phy_flit_o[tern_link_pkg::CtlCrcLsb +: 32] = ~ctl_crc;
      if (active_i && outstanding) retries_d = retries_q + 1'b1;
    end else if (phy_ready_i) begin
      slots_d = slots_q + 1'b1;
      since_ctrl_d = (since_ctrl_q == CtrlW'(CtrlEvery)) ? since_ctrl_q : since_ctrl_q + 1'b1;
      // The replay timer runs while sent packets wait for their acknowledgement.
      if (outstanding && !ack_progress) begin
        timer_d = timer_q + 1'b1;
        if (timer_q >= TimerW'(ReplayTimeout) && !rewind_q) begin
          rewind_d = 1'b1;
          retries_d = retries_q + 1'b1;
          timeouts_d = timeouts_q + 1'b1;
          timer_d = '0;
        end
      end else begin
        timer_d = '0;
      end
      phy_valid_o = 1'b1;
      if (mid) begin
        phy_flit_o = rb_q[send_ptr_q[RbBits-1:0]];
        send_ptr_d = send_ptr_q + 1'b1;
        send_left_d = send_left_q - 1'b1;
        if (send_left_q == LenW'(1)) begin
          send_d = send_q + 1'b1;
          if ((send_q + 1'b1) - base_q > sent_hi_q - base_q) sent_hi_d = send_q + 1'b1;
        end
      end else begin
        phy_head_o = 1'b1;
        s = rewind_d ? base_d : send_d;  // a replay asked for up to this cycle starts here
        s_idx = s[PtBits-1:0];
        rewind_d = 1'b0;
        send_d = s;
        if (nak_pend_q || s == next_q || (news && since_ctrl_q >= CtrlW'(CtrlEvery))) begin
          phy_flit_o[tern_link_pkg::CtlCrcLsb +: 32] = ~ctl_crc;
          if (nak_pend_q) naks_sent_d = naks_sent_q + 1'b1;
          nak_pend_d = nak_req_i;
          since_ctrl_d = '0;
          last_exp_d = rx_exp_i;
          last_freed_d = rx_freed_i;
        end else begin
          hdr_start = pt_start_q[s_idx];
          phy_flit_o = rb_q[hdr_start[RbBits-1:0]];
          phy_flit_o[tern_link_pkg::HdrCrcLsb +: 32] = pt_crc_q[s_idx];
          if (s == sent_hi_q) packets_d = packets_q + 1'b1;
          if (pt_len_q[s_idx] == '0) begin
            send_d = s + 1'b1;
            if (s == sent_hi_q) sent_hi_d = s + 1'b1;
          end else begin
            send_left_d = pt_len_q[s_idx];
            send_ptr_d = pt_start_q[s_idx] + 1'b1;
          end
        end
      end
    end
    // The peer was reset: what it did not acknowledge is dropped (a packet still coming in stays:
    // it is the next one), the credits restart from its empty buffers. Last, so it overrides
    // the sending above (a packet being sent is cut short: the link is going to training).
    if (resync_i) begin
      send_left_d = '0;
      dropped_d = dropped_q + 32'(window);
      base_d = next_q;
      send_d = next_q;
      sent_hi_d = next_q;
      rb_head_d = in_pkt_q ? pt_start_q[next_q[PtBits-1:0]] : rb_wr_q;
      used_d = '0;
      if (in_pkt_q) used_d[in_vc_q*CrW +: CrW] = CrW'(in_len_q) + CrW'(1);
      peer_freed_d = '0;
    end
    // We were reset: number and count as the peer expects (nothing has been taken yet).
    if (adopt_i) begin
      base_d = ack_exp_i;
      next_d = ack_exp_i;
      send_d = ack_exp_i;
      sent_hi_d = ack_exp_i;
      peer_freed_d = ack_freed_i;
      for (int unsigned v = 0; v < NumVcs; v++)
        used_d[v*CrW +: CrW] = ack_freed_i[v*CrW +: CrW] + ack_held_i[v*CrW +: CrW];
    end

  end

  // --- Registers -------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rb_we) rb_q[rb_waddr] <= rb_wdata;
    if (pt_we) begin
      pt_start_q[pt_idx] <= rb_wr_q;
      pt_len_q[pt_idx] <= hdr_len;
    end
    if (pt_crc_we) pt_crc_q[pt_idx] <= ~crc_out;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rb_wr_q <= '0;       rb_head_q <= '0;
      base_q <= '0;        next_q <= '0;       send_q <= '0;     sent_hi_q <= '0;
      send_left_q <= '0;   send_ptr_q <= '0;
      in_pkt_q <= 1'b0;    in_left_q <= '0;    in_crc_q <= '0;
      in_vc_q <= '0;       in_len_q <= '0;     dropped_q <= '0;
      used_q <= '0;
      peer_freed_q <= '0;
      rewind_q <= 1'b0;    nak_pend_q <= 1'b0; active_q <= 1'b0;
      timer_q <= '0;       since_ctrl_q <= '0;
      last_exp_q <= '0;    last_freed_q <= '0;
      retries_q <= '0;     timeouts_q <= '0;   naks_sent_q <= '0;
      naks_rcvd_q <= '0;   packets_q <= '0;    hwm_q <= '0;      slots_q <= '0;
    end else begin
      rb_wr_q <= rb_wr_d;         rb_head_q <= rb_head_d;
      base_q <= base_d;           next_q <= next_d;     send_q <= send_d;   sent_hi_q <= sent_hi_d;
      send_left_q <= send_left_d; send_ptr_q <= send_ptr_d;
      in_pkt_q <= in_pkt_d;       in_left_q <= in_left_d; in_crc_q <= in_crc_d;
      in_vc_q <= in_vc_d;         in_len_q <= in_len_d;   dropped_q <= dropped_d;
      used_q <= used_d;
      peer_freed_q <= peer_freed_d;
      rewind_q <= rewind_d;       nak_pend_q <= nak_pend_d; active_q <= active_i;
      timer_q <= timer_d;         since_ctrl_q <= since_ctrl_d;
      last_exp_q <= last_exp_d;   last_freed_q <= last_freed_d;
      retries_q <= retries_d;     timeouts_q <= timeouts_d; naks_sent_q <= naks_sent_d;
      naks_rcvd_q <= naks_rcvd_d; packets_q <= packets_d;   hwm_q <= hwm_d;   slots_q <= slots_d;
    end
  end

`ifndef SYNTHESIS
  // Flow control and the retry window, as invariants: the peer never frees more flits on a VC
  // than were sent on it, the replay buffer never overflows, the window stays inside the packet
  // table and the sender never runs ahead of the packets it has.
  for (genvar v = 0; v < NumVcs; v++) begin : gen_credit_check
    credits_bounded: assert property (@(posedge clk_i) disable iff (!rst_ni)
      avail[v*CrW +: CrW] <= CrW'(RxVcFlits));
  end
  replay_bounded: assert property (@(posedge clk_i) disable iff (!rst_ni)
    rb_used <= (RbBits + 1)'(ReplayFlits));
  window_bounded: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (next_q - base_q) < SeqW'(tern_link_pkg::MaxOutstanding));
  send_in_window: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (send_q - base_q) <= (next_q - base_q) && (sent_hi_q - base_q) <= (next_q - base_q));
`endif

  assign cnt_retries_o    = retries_q;
  assign cnt_timeouts_o   = timeouts_q;
  assign cnt_naks_sent_o  = naks_sent_q;
  assign cnt_naks_rcvd_o  = naks_rcvd_q;
  assign cnt_packets_o    = packets_q;
  assign cnt_replay_hwm_o = hwm_q;
  assign cnt_slots_o      = slots_q;
  assign cnt_dropped_o    = dropped_q;

endmodule
