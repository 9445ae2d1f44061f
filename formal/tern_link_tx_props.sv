// tern_link_tx_props: the credit flow control of tern_link_tx (rtl/link/tern_link_tx.sv,
// docs/link.md), proven by `make formal` (scripts/formal.sh: bounded model check, then k-induction) at its
// default sizes (256-bit flits, 4 VCs, 128 flits of peer buffer per VC, 128-flit replay buffer).
// Every input is free, reset included after the first cycle, within the peer's contract below.
//   credits    per VC, the flits in flight (taken, not yet freed by the peer: used - freed,
//              16-bit cumulative counters) stay between 0 and RxVcFlits: the credits never go
//              negative and never exceed the peer's buffer (the RTL's credits_bounded);
//   space      vc_space_o[v] is truthful: a header of at most MaxPayloadFlits on VC v is taken;
//   cover      a packet is taken, and an acknowledgement gives credits back.
// The peer (assumed): an acknowledgement's freed counter moves forward, never past the flits
// taken on that VC; when this end adopts a reset peer's numbering, the peer holds at most its
// buffer. Only the credit logic is in the proof's cone: Yosys drops the replay buffer, CRC and
// sender as unobserved.
// Plain synthesizable SV with immediate assertions, so a simulation can use the same wrapper;
// the checks sit outside synthesis like the RTL's own assertions. The counters are read through
// peek_*: a simulation takes the hierarchical `assign peek_*` lines below; Yosys 0.23 has no
// hierarchical references, so scripts/formal.sh makes the same connections itself.
module tern_link_tx_props #(
  parameter int unsigned  RxVcFlits = 128,
  localparam int unsigned FlitBits  = tern_link_pkg::FlitBits,
  localparam int unsigned NumVcs    = tern_link_pkg::NumVcs,
  localparam int unsigned SeqW      = tern_link_pkg::SeqBits,
  localparam int unsigned CrW       = tern_link_pkg::CreditBits
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  in_valid_i,
  input logic [FlitBits-1:0]   in_flit_i,
  input logic                  phy_ready_i,
  input logic                  active_i,
  input logic                  seen_i,
  input logic                  fresh_i,
  input logic                  fresh_ack_i,
  input logic [NumVcs*CrW-1:0] held_i,
  input logic                  resync_i,
  input logic                  adopt_i,
  input logic [NumVcs*CrW-1:0] ack_held_i,
  input logic [SeqW-1:0]       rx_exp_i,
  input logic [NumVcs*CrW-1:0] rx_freed_i,
  input logic                  nak_req_i,
  input logic                  ack_valid_i,
  input logic [SeqW-1:0]       ack_exp_i,
  input logic                  ack_nak_i,
  input logic [NumVcs*CrW-1:0] ack_freed_i
);

  logic                in_ready, phy_valid, phy_head;
  logic [NumVcs-1:0]   vc_space;
  logic [FlitBits-1:0] phy_flit;
  logic [31:0]         cnt_retries, cnt_timeouts, cnt_naks_sent, cnt_naks_rcvd;
  logic [31:0]         cnt_packets, cnt_replay_hwm, cnt_slots, cnt_dropped;

  tern_link_tx #(
    .RxVcFlits(RxVcFlits)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_flit_i,
    .in_ready_o       (in_ready),
    .vc_space_o       (vc_space),
    .phy_valid_o      (phy_valid),
    .phy_head_o       (phy_head),
    .phy_flit_o       (phy_flit),
    .phy_ready_i,
    .active_i,
    .seen_i,
    .fresh_i,
    .fresh_ack_i,
    .held_i,
    .resync_i,
    .adopt_i,
    .ack_held_i,
    .rx_exp_i,
    .rx_freed_i,
    .nak_req_i,
    .ack_valid_i,
    .ack_exp_i,
    .ack_nak_i,
    .ack_freed_i,
    .cnt_retries_o    (cnt_retries),
    .cnt_timeouts_o   (cnt_timeouts),
    .cnt_naks_sent_o  (cnt_naks_sent),
    .cnt_naks_rcvd_o  (cnt_naks_rcvd),
    .cnt_packets_o    (cnt_packets),
    .cnt_replay_hwm_o (cnt_replay_hwm),
    .cnt_slots_o      (cnt_slots),
    .cnt_dropped_o    (cnt_dropped)
  );

`ifndef SYNTHESIS
  logic unused_outputs;
  assign unused_outputs = ^{phy_valid, phy_head, phy_flit, cnt_retries, cnt_timeouts,
                            cnt_naks_sent, cnt_naks_rcvd, cnt_packets, cnt_replay_hwm, cnt_slots,
                            cnt_dropped};

  // --- The transmitter's credit counters ------------------------------------------------------
  logic [NumVcs*CrW-1:0] peek_used, peek_freed;
  logic                  peek_active;
`ifndef FORMAL
  assign peek_used   = u_dut.used_q;
  assign peek_freed  = u_dut.peer_freed_q;
  assign peek_active = u_dut.active_q;
`endif

  logic [NumVcs-1:0]     in_bounds, frees_ok, adopt_ok;
  logic [NumVcs*CrW-1:0] in_flight;
  logic [tern_link_pkg::HdrLenWidth-1:0] hdr_len;
  logic [tern_link_pkg::HdrVcWidth-1:0]  hdr_vc;

  assign hdr_len = in_flit_i[tern_link_pkg::HdrLenLsb +: tern_link_pkg::HdrLenWidth];
  assign hdr_vc  = in_flit_i[tern_link_pkg::HdrVcLsb +: tern_link_pkg::HdrVcWidth];

  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      in_flight[v*CrW +: CrW] = peek_used[v*CrW +: CrW] - peek_freed[v*CrW +: CrW];
      in_bounds[v] = in_flight[v*CrW +: CrW] <= CrW'(RxVcFlits);
      // The peer's contract: freed moves forward by at most the flits in flight.
      frees_ok[v]  = !(ack_valid_i && peek_active)
                     || CrW'(ack_freed_i[v*CrW +: CrW] - peek_freed[v*CrW +: CrW])
                        <= in_flight[v*CrW +: CrW];
      adopt_ok[v]  = !adopt_i || ack_held_i[v*CrW +: CrW] <= CrW'(RxVcFlits);
    end
  end

  // For the covers: flits taken, and flits given back.
  logic taken_q, freed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      taken_q <= 1'b0;
      freed_q <= 1'b0;
    end else begin
      taken_q <= in_valid_i && in_ready;
      freed_q <= ack_valid_i && peek_active && ack_freed_i != peek_freed && !resync_i && !adopt_i;
    end
  end

`ifdef FORMAL
  initial assume (!rst_ni);
`endif

  // --- Properties ----------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      peer_frees_what_it_got: assume (&frees_ok);
      peer_holds_its_buffer: assume (&adopt_ok);
      credits_bounded: assert (&in_bounds);
      space_truthful: assert (!(in_valid_i && vc_space[hdr_vc]
                                && 32'(hdr_len) <= tern_link_pkg::MaxPayloadFlits) || in_ready);
      cover_taken: cover (taken_q);
      cover_credits_back: cover (freed_q);
    end
  end
`endif

endmodule
