// tern_link_port: one NeuronLink port (docs/link.md): the transmit side (tern_link_tx) and the
// receive side (tern_link_rx) of one link end, the receive side telling the transmit side what
// to acknowledge, which credits to return and when to NAK, and passing on the peer's
// acknowledgements and credits. Counters are free-running 32-bit values for software (a CSR
// block maps them).
module tern_link_port #(
  parameter int unsigned FlitBits      = tern_link_pkg::FlitBits,
  parameter int unsigned NumVcs        = tern_link_pkg::NumVcs,
  parameter int unsigned RxVcFlits     = 128,  // receive buffer per VC (both ends alike), power of two
  parameter int unsigned ReplayFlits   = 128,  // power of two
  parameter int unsigned ReplayTimeout = 512,
  parameter int unsigned LinkTimeout   = 64,
  parameter int unsigned CtrlEvery     = 64,
  parameter int unsigned NakRearm      = 96,
  parameter bit          CheckCrc      = 1'b1  // 0 only to show the tests catch a missing check
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Packets to send: header flit first, then its payload flits.
  input  logic                       tx_valid_i,
  input  logic [FlitBits-1:0]        tx_flit_i,
  output logic                       tx_ready_o,
  output logic [NumVcs-1:0]          tx_vc_space_o,
  // Packets received, per VC.
  output logic [NumVcs-1:0]          rx_valid_o,
  output logic [NumVcs-1:0]          rx_head_o,
  output logic [NumVcs*FlitBits-1:0] rx_flit_o,
  input  logic [NumVcs-1:0]          rx_ready_i,
  // The channel.
  output logic                       phy_tx_valid_o,
  output logic                       phy_tx_head_o,
  output logic [FlitBits-1:0]        phy_tx_flit_o,
  input  logic                       phy_tx_ready_i,
  input  logic                       phy_rx_valid_i,
  input  logic                       phy_rx_head_i,
  input  logic [FlitBits-1:0]        phy_rx_flit_i,
  // Status and counters.
  output logic                       link_up_o,
  output logic [31:0]                cnt_crc_errors_o,
  output logic [31:0]                cnt_framing_errors_o,
  output logic [31:0]                cnt_duplicates_o,
  output logic [31:0]                cnt_link_downs_o,
  output logic [31:0]                cnt_rx_packets_o,
  output logic [31:0]                cnt_rx_payload_flits_o,
  output logic [31:0]                cnt_retries_o,
  output logic [31:0]                cnt_timeouts_o,
  output logic [31:0]                cnt_naks_sent_o,
  output logic [31:0]                cnt_naks_rcvd_o,
  output logic [31:0]                cnt_tx_packets_o,
  output logic [31:0]                cnt_replay_hwm_o,
  output logic [31:0]                cnt_tx_slots_o,
  output logic [31:0]                cnt_dropped_o  // packets dropped because the peer was reset
);

  localparam int unsigned SeqW = tern_link_pkg::SeqBits;
  localparam int unsigned CrW  = tern_link_pkg::CreditBits;

  logic                  rx2tx_active, rx2tx_seen, rx2tx_nak_req, rx2tx_ack_valid, rx2tx_ack_nak;
  logic                  rx2tx_fresh, rx2tx_fresh_ack, rx2tx_resync, rx2tx_adopt;
  logic [NumVcs*CrW-1:0] rx2tx_held, rx2tx_ack_held;
  logic [SeqW-1:0]       rx2tx_exp, rx2tx_ack_exp;
  logic [NumVcs*CrW-1:0] rx2tx_freed, rx2tx_ack_freed;

  tern_link_tx #(
    .FlitBits(FlitBits), .NumVcs(NumVcs), .RxVcFlits(RxVcFlits), .ReplayFlits(ReplayFlits),
    .ReplayTimeout(ReplayTimeout), .CtrlEvery(CtrlEvery)
  ) u_tx (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(tx_valid_i), .in_flit_i(tx_flit_i), .in_ready_o(tx_ready_o), .vc_space_o(tx_vc_space_o),
    .phy_valid_o(phy_tx_valid_o), .phy_head_o(phy_tx_head_o), .phy_flit_o(phy_tx_flit_o),
    .phy_ready_i(phy_tx_ready_i),
    .active_i(rx2tx_active), .seen_i(rx2tx_seen), .fresh_i(rx2tx_fresh), .fresh_ack_i(rx2tx_fresh_ack),
    .held_i(rx2tx_held), .resync_i(rx2tx_resync), .adopt_i(rx2tx_adopt), .ack_held_i(rx2tx_ack_held), .rx_exp_i(rx2tx_exp), .rx_freed_i(rx2tx_freed),
    .nak_req_i(rx2tx_nak_req), .ack_valid_i(rx2tx_ack_valid), .ack_exp_i(rx2tx_ack_exp),
    .ack_nak_i(rx2tx_ack_nak), .ack_freed_i(rx2tx_ack_freed),
    .cnt_retries_o(cnt_retries_o), .cnt_timeouts_o(cnt_timeouts_o),
    .cnt_naks_sent_o(cnt_naks_sent_o), .cnt_naks_rcvd_o(cnt_naks_rcvd_o),
    .cnt_packets_o(cnt_tx_packets_o), .cnt_replay_hwm_o(cnt_replay_hwm_o), .cnt_slots_o(cnt_tx_slots_o),
    .cnt_dropped_o(cnt_dropped_o)
  );

  tern_link_rx #(
    .FlitBits(FlitBits), .NumVcs(NumVcs), .RxVcFlits(RxVcFlits), .LinkTimeout(LinkTimeout),
    .NakRearm(NakRearm), .CheckCrc(CheckCrc)
  ) u_rx (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .phy_valid_i(phy_rx_valid_i), .phy_head_i(phy_rx_head_i), .phy_flit_i(phy_rx_flit_i),
    .out_valid_o(rx_valid_o), .out_head_o(rx_head_o), .out_flit_o(rx_flit_o), .out_ready_i(rx_ready_i),
    .active_o(rx2tx_active), .seen_o(rx2tx_seen), .fresh_o(rx2tx_fresh), .fresh_ack_o(rx2tx_fresh_ack),
    .held_o(rx2tx_held), .resync_o(rx2tx_resync), .adopt_o(rx2tx_adopt), .ack_held_o(rx2tx_ack_held), .rx_exp_o(rx2tx_exp), .rx_freed_o(rx2tx_freed),
    .nak_req_o(rx2tx_nak_req), .ack_valid_o(rx2tx_ack_valid), .ack_exp_o(rx2tx_ack_exp),
    .ack_nak_o(rx2tx_ack_nak), .ack_freed_o(rx2tx_ack_freed),
    .cnt_crc_errors_o(cnt_crc_errors_o), .cnt_framing_errors_o(cnt_framing_errors_o),
    .cnt_duplicates_o(cnt_duplicates_o), .cnt_link_downs_o(cnt_link_downs_o),
    .cnt_packets_o(cnt_rx_packets_o), .cnt_payload_flits_o(cnt_rx_payload_flits_o)
  );

  assign link_up_o = rx2tx_active;

endmodule
