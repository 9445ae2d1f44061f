// tern_link_node: one chip's NeuronLink side (docs/link.md "Router"): the router and one link
// port per torus direction (port 1 + 2d: +d, 2 + 2d: -d), a local injection stream (packets with
// their header first; the header's vc selects the message class, the router sets the dateline
// bit) and a local ejection stream. Coordinates are inputs, the torus size parameters, so one
// model serves every chip of a network.
module tern_link_node #(
  parameter int unsigned FlitBits      = tern_link_pkg::FlitBits,
  parameter int unsigned NumDims       = 2,
  parameter int unsigned DimX          = 4,
  parameter int unsigned DimY          = 4,
  parameter int unsigned DimZ          = 1,
  parameter int unsigned RxVcFlits     = 128,
  parameter int unsigned ReplayFlits   = 128,
  parameter int unsigned ReplayTimeout = 512,
  parameter int unsigned LinkTimeout   = 64,
  localparam int unsigned NumVcs   = tern_link_pkg::NumVcs,
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumPorts = 1 + NumLinks,
  localparam int unsigned CW       = tern_link_pkg::CoordBits
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [3*CW-1:0]              coord_i,
  // Local injection.
  input  logic                         inj_valid_i,
  input  logic [FlitBits-1:0]          inj_flit_i,
  output logic                         inj_ready_o,
  // Local ejection.
  output logic                         ej_valid_o,
  output logic [FlitBits-1:0]          ej_flit_o,
  input  logic                         ej_ready_i,
  // The links' channels.
  output logic [NumLinks-1:0]          phy_tx_valid_o,
  output logic [NumLinks-1:0]          phy_tx_head_o,
  output logic [NumLinks*FlitBits-1:0] phy_tx_flit_o,
  input  logic [NumLinks-1:0]          phy_tx_ready_i,
  input  logic [NumLinks-1:0]          phy_rx_valid_i,
  input  logic [NumLinks-1:0]          phy_rx_head_i,
  input  logic [NumLinks*FlitBits-1:0] phy_rx_flit_i,
  // Status: links up, and the sums over the links of their CRC errors and retries.
  output logic [NumLinks-1:0]          link_up_o,
  output logic [31:0]                  crc_errors_o,
  output logic [31:0]                  retries_o
);

  localparam int unsigned NumReq = NumPorts * NumVcs;
  localparam int unsigned VcW    = $clog2(NumVcs);

  logic [NumReq-1:0]            r_in_valid, r_in_head, r_in_ready, r_vc_space;
  logic [NumReq*FlitBits-1:0]   r_in_flit;
  logic [NumPorts-1:0]          r_out_valid, r_out_ready;
  logic [NumPorts*FlitBits-1:0] r_out_flit;
  logic [NumLinks*32-1:0]       link_crc, link_retries;

  // Local injection: the packet's flits go to the router on the VC its header names.
  logic           inj_in_pkt_q, inj_in_pkt_d;
  logic [VcW-1:0] inj_vc_q, inj_vc_d, inj_vc;
  logic [tern_link_pkg::HdrLenWidth-1:0] inj_left_q, inj_left_d;
  logic [NumVcs-1:0] inj_ready_vc;
  assign inj_ready_vc = r_in_ready[NumVcs-1:0];
  assign inj_vc = inj_in_pkt_q ? inj_vc_q : inj_flit_i[tern_link_pkg::HdrVcLsb +: VcW];
  logic [NumVcs-1:0]          loc_valid, loc_head;
  logic [NumVcs*FlitBits-1:0] loc_flit;
  assign r_in_valid[NumVcs-1:0] = loc_valid;
  assign r_in_head[NumVcs-1:0] = loc_head;
  assign r_in_flit[NumVcs*FlitBits-1:0] = loc_flit;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      loc_valid[v] = inj_valid_i && inj_vc == VcW'(v);
      loc_head[v] = !inj_in_pkt_q;
      loc_flit[v*FlitBits +: FlitBits] = inj_flit_i;
    end
    inj_ready_o = inj_ready_vc[inj_vc];
    inj_in_pkt_d = inj_in_pkt_q;
    inj_vc_d = inj_vc_q;
    inj_left_d = inj_left_q;
    if (inj_valid_i && inj_ready_o) begin
      if (!inj_in_pkt_q) begin
        inj_vc_d = inj_vc;
        inj_left_d = inj_flit_i[tern_link_pkg::HdrLenLsb +: tern_link_pkg::HdrLenWidth];
        inj_in_pkt_d = inj_left_d != '0;
      end else begin
        inj_left_d = inj_left_q - 1'b1;
        inj_in_pkt_d = inj_left_q != 1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inj_in_pkt_q <= 1'b0;  inj_vc_q <= '0;  inj_left_q <= '0;
    end else begin
      inj_in_pkt_q <= inj_in_pkt_d;  inj_vc_q <= inj_vc_d;  inj_left_q <= inj_left_d;
    end
  end
  assign r_vc_space[NumVcs-1:0] = '1;  // the local sink takes any packet

  // Local ejection.
  assign ej_valid_o = r_out_valid[0];
  assign ej_flit_o = r_out_flit[FlitBits-1:0];
  assign r_out_ready[0] = ej_ready_i;

  tern_link_router #(
    .FlitBits(FlitBits), .NumVcs(NumVcs), .NumDims(NumDims), .DimX(DimX), .DimY(DimY), .DimZ(DimZ)
  ) u_router (
    .clk_i(clk_i), .rst_ni(rst_ni), .coord_i(coord_i),
    .in_valid_i(r_in_valid), .in_head_i(r_in_head), .in_flit_i(r_in_flit), .in_ready_o(r_in_ready),
    .out_valid_o(r_out_valid), .out_flit_o(r_out_flit), .out_ready_i(r_out_ready),
    .out_vc_space_i(r_vc_space)
  );

  for (genvar l = 0; l < NumLinks; l++) begin : gen_link
    localparam int unsigned P = l + 1;
    logic [12*32-1:0] unused_cnt;  // the other counters: a CSR block will map them
    logic unused_cnt_x;
    assign unused_cnt_x = ^unused_cnt;
    tern_link_port #(
      .FlitBits(FlitBits), .NumVcs(NumVcs), .RxVcFlits(RxVcFlits), .ReplayFlits(ReplayFlits),
      .ReplayTimeout(ReplayTimeout), .LinkTimeout(LinkTimeout)
    ) u_port (
      .clk_i(clk_i), .rst_ni(rst_ni),
      .tx_valid_i(r_out_valid[P]), .tx_flit_i(r_out_flit[P*FlitBits +: FlitBits]),
      .tx_ready_o(r_out_ready[P]), .tx_vc_space_o(r_vc_space[P*NumVcs +: NumVcs]),
      .rx_valid_o(r_in_valid[P*NumVcs +: NumVcs]), .rx_head_o(r_in_head[P*NumVcs +: NumVcs]),
      .rx_flit_o(r_in_flit[P*NumVcs*FlitBits +: NumVcs*FlitBits]), .rx_ready_i(r_in_ready[P*NumVcs +: NumVcs]),
      .phy_tx_valid_o(phy_tx_valid_o[l]), .phy_tx_head_o(phy_tx_head_o[l]),
      .phy_tx_flit_o(phy_tx_flit_o[l*FlitBits +: FlitBits]), .phy_tx_ready_i(phy_tx_ready_i[l]),
      .phy_rx_valid_i(phy_rx_valid_i[l]), .phy_rx_head_i(phy_rx_head_i[l]),
      .phy_rx_flit_i(phy_rx_flit_i[l*FlitBits +: FlitBits]),
      .link_up_o(link_up_o[l]),
      .cnt_crc_errors_o(link_crc[l*32 +: 32]), .cnt_framing_errors_o(unused_cnt[0*32 +: 32]),
      .cnt_duplicates_o(unused_cnt[1*32 +: 32]), .cnt_link_downs_o(unused_cnt[2*32 +: 32]),
      .cnt_rx_packets_o(unused_cnt[3*32 +: 32]), .cnt_rx_payload_flits_o(unused_cnt[4*32 +: 32]),
      .cnt_retries_o(link_retries[l*32 +: 32]), .cnt_timeouts_o(unused_cnt[5*32 +: 32]),
      .cnt_naks_sent_o(unused_cnt[6*32 +: 32]), .cnt_naks_rcvd_o(unused_cnt[7*32 +: 32]),
      .cnt_tx_packets_o(unused_cnt[8*32 +: 32]), .cnt_replay_hwm_o(unused_cnt[9*32 +: 32]), .cnt_tx_slots_o(unused_cnt[10*32 +: 32]),
      .cnt_dropped_o(unused_cnt[11*32 +: 32])
    );
  end

  always_comb begin
    crc_errors_o = '0;
    retries_o = '0;
    for (int unsigned l = 0; l < NumLinks; l++) begin
      crc_errors_o = crc_errors_o + link_crc[l*32 +: 32];
      retries_o = retries_o + link_retries[l*32 +: 32];
    end
  end

endmodule
