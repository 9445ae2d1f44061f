// tern_seq_axi: the sequencers' side of the core's AXI4 master (docs/core-rtl.md): instruction
// fetch through a small instruction cache per sequencer, and the ld/st words.
//
// Fetch: a sequencer asks for the 128-byte instruction at an address. Each sequencer has Lines
// direct-mapped lines (by instruction index), cleared at start, filled Group instructions at a
// time: a read is one INCR burst of a whole aligned group (Group * InstrBits / DataBits beats,
// never across 4 KiB; DataBits up to InstrBits). A line holding the address answers the next
// cycle, even while reads are in flight; otherwise the group is read (or, when it is already on
// its way, awaited) and the instruction answered as soon as it lands.
// Prefetch: after each request the groups following the requested one, up to Ahead of them, are
// read unless a line holds them or they are on their way, with up to Ahead + 1 reads in flight,
// so a sequencer that waits on a semaphore still has its next instructions arriving while the
// HBM port is busy with DMA bursts. A loop of up to Lines - Ahead * Group instructions runs from
// the lines after its first pass. A misaligned address or an AXI error answers with an error
// (the sequencer faults with kMemory). Lines are not written by stores or DMA: a program must
// not change its own instructions while it runs.
// ld/st: one full-width beat at the bus-aligned address, the word on its byte lanes (WSTRB for
// a store); SLVERR/DECERR answer with an error.
// IDs: fetch of sequencer s uses ID s, its ld/st ID S + s; reads of one ID come back in order,
// so responses route by ID and a sequencer's fetch reads land in the order they were asked.
module tern_seq_axi #(
  parameter int unsigned DataBits = tern_cfg_pkg::AxiDataBits,
  parameter int unsigned IdBits = 4,
  // The instruction cache's sizes, from the config (CoreConfig::fetch_cache, the one
  // definition): Lines per sequencer, a power of two (64, 8 KiB of instructions, on the
  // 128-partition configs, whose DMA keeps the HBM port busiest; 16 down to 8 partitions; one on
  // the FPGA prototype's, whose device has no room for more); Group instructions per fetch burst;
  // Ahead groups prefetched after the requested one.
  localparam int unsigned Lines = tern_cfg_pkg::FetchLines,
  localparam int unsigned LB = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned Group = tern_cfg_pkg::FetchGroup,
  localparam int unsigned GB = (Group > 1) ? $clog2(Group) : 1,
  localparam int unsigned GroupBytes = Group << tern_isa_pkg::InstrBytesLog2,
  localparam int unsigned Ahead = tern_cfg_pkg::FetchAhead,
  localparam int unsigned MaxReads = Ahead + 1,           // fetch reads in flight per sequencer
  localparam int unsigned CB = $clog2(MaxReads + 2),      // counts of reads (and one asked for)
  localparam int unsigned S  = tern_isa_pkg::NumSeqs,
  localparam int unsigned IB = tern_isa_pkg::InstrBits,
  localparam int unsigned Beats = IB / DataBits,          // beats per instruction
  localparam int unsigned BeatBytes = DataBits / 8,
  localparam int unsigned LaneBits = $clog2(BeatBytes)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [S-1:0]          flush_i,            // start: forget the prefetched instructions
  // the cluster's fetch and ld/st ports
  input  logic [S-1:0]          fetch_req_valid_i,
  output logic [S-1:0]          fetch_req_ready_o,
  input  logic [S*32-1:0]       fetch_req_addr_i,
  output logic [S-1:0]          fetch_rsp_valid_o,
  output logic [S*IB-1:0]       fetch_rsp_data_o,
  output logic [S-1:0]          fetch_rsp_err_o,
  input  logic [S-1:0]          mem_req_valid_i,
  output logic [S-1:0]          mem_req_ready_o,
  input  logic [S-1:0]          mem_req_write_i,
  input  logic [S*32-1:0]       mem_req_addr_i,
  input  logic [S*32-1:0]       mem_req_wdata_i,
  output logic [S-1:0]          mem_rsp_valid_o,
  output logic [S*32-1:0]       mem_rsp_rdata_o,
  output logic [S-1:0]          mem_rsp_err_o,
  output logic [S*32-1:0]       fetch_hits_o,       // fetches answered from the lines
  // AXI4 master
  // BEGIN GENERATED: tern axi axi4 master m_axi Id=IdBits Data=DataBits Strb=BeatBytes last
  output logic [IdBits-1:0]     m_axi_awid_o,
  output logic [31:0]           m_axi_awaddr_o,
  output logic [7:0]            m_axi_awlen_o,
  output logic [2:0]            m_axi_awsize_o,
  output logic [1:0]            m_axi_awburst_o,
  output logic                  m_axi_awvalid_o,
  input  logic                  m_axi_awready_i,
  output logic [DataBits-1:0]   m_axi_wdata_o,
  output logic [BeatBytes-1:0]  m_axi_wstrb_o,
  output logic                  m_axi_wlast_o,
  output logic                  m_axi_wvalid_o,
  input  logic                  m_axi_wready_i,
  input  logic [IdBits-1:0]     m_axi_bid_i,
  input  logic [1:0]            m_axi_bresp_i,
  input  logic                  m_axi_bvalid_i,
  output logic                  m_axi_bready_o,
  output logic [IdBits-1:0]     m_axi_arid_o,
  output logic [31:0]           m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  output logic [2:0]            m_axi_arsize_o,
  output logic [1:0]            m_axi_arburst_o,
  output logic                  m_axi_arvalid_o,
  input  logic                  m_axi_arready_i,
  input  logic [IdBits-1:0]     m_axi_rid_i,
  input  logic [DataBits-1:0]   m_axi_rdata_i,
  input  logic [1:0]            m_axi_rresp_i,
  input  logic                  m_axi_rlast_i,
  input  logic                  m_axi_rvalid_i,
  output logic                  m_axi_rready_o
  // END GENERATED: tern axi
);

  // ---------------------------------------------------------------------------------------
  // Per sequencer: the lines and the fetch state.
  //   line: {valid, addr, data, err} of an instruction;
  //   reads in flight: their group addresses, oldest first (its beats are the ones landing);
  //   one read asked for on AR (a demand or a prefetch), and the demanded address, if any.
  // ---------------------------------------------------------------------------------------
  logic [S*32-1:0]   pend_addr_q;
  logic [S-1:0]      ar_want, ar_gnt;
  logic [S-1:0]      mem_ar_want, mem_ar_gnt, mem_busy_q;
  logic [S*32-1:0]   hits_q;

  // The R channel: every beat is taken; route by ID.
  logic [IdBits-1:0] rid;
  assign rid            = m_axi_rid_i;
  assign m_axi_rready_o = 1'b1;
  logic rbad;
  assign rbad = tern_pkg::axi_resp_error(m_axi_rresp_i);

  for (genvar s = 0; s < S; s++) begin : gen_seq
    // This sequencer's registers (local, so each has one driver).
    logic          dem_q, rerr_q, pend_q, pf_on_q;
    logic [CB-1:0] cnt_q, cnt_d;    // reads in flight
    logic [CB-1:0] drop_q;          // reads asked for or in flight before a flush: thrown away
    logic [MaxReads*32-1:0] fq_q, fq_d;  // in-flight group addresses, oldest at 0
    logic [31:0]   dem_addr_q, paddr_q, pf_addr_q, cur_q, hit_count_q;
    logic [IB-1:0] rdata_q;
    logic [7:0]    beat_q;
    logic [Lines-1:0] lvalid_q, lerr_q;
    logic [Lines*32-1:0] laddr_q;   // line l at 32 * l (flat: Yosys keeps them registers)
    logic [Lines*IB-1:0] ldata_q;   // line l at IB * l
    assign pend_addr_q[32*s +: 32] = paddr_q;
    assign hits_q[32*s +: 32]      = hit_count_q;
    logic unused_last_beat;  // the last beat goes straight from the bus into the line
    assign unused_last_beat = ^rdata_q[IB-1 -: DataBits];
    // The instruction whose last beat is on the bus: with a bus as wide as an instruction
    // (1024 bits), that beat alone.
    logic [IB-1:0] inst_data;
    if (Beats == 1) begin : gen_one_beat
      assign inst_data = m_axi_rdata_i;
    end else begin : gen_beats
      assign inst_data = {m_axi_rdata_i, rdata_q[IB - DataBits - 1:0]};
    end

    logic [31:0] req_addr, req_group, head_addr, inst_addr, pf_dist, req_dist;
    logic        misaligned, hit, req_infl, pf_infl, pf_held, pf_go, r_here, r_inst, r_last, keep;
    logic        landing, dem_lands;
    logic [GB-1:0] r_idx;           // the landing instruction's place in its group
    logic [LB-1:0] req_line, pf_line, inst_line;
    assign req_addr   = fetch_req_addr_i[32*s +: 32];
    assign req_group  = req_addr & ~(GroupBytes - 32'd1);
    assign head_addr  = fq_q[31:0];
    assign r_idx      = (Group > 1) ? GB'(beat_q >> $clog2(Beats)) : '0;
    assign inst_addr  = head_addr + (32'(r_idx) << tern_isa_pkg::InstrBytesLog2);
    assign req_line   = (Lines > 1) ? LB'(req_addr >> tern_isa_pkg::InstrBytesLog2) : '0;
    assign pf_line    = (Lines > 1) ? LB'(pf_addr_q >> tern_isa_pkg::InstrBytesLog2) : '0;
    assign inst_line  = (Lines > 1) ? LB'(inst_addr >> tern_isa_pkg::InstrBytesLog2) : '0;
    assign misaligned = (req_addr[6:0] != 7'd0);
    assign hit        = lvalid_q[req_line] && (laddr_q[32*req_line +: 32] == req_addr);
    // In flight and kept: entries [drop_q, cnt_q) (the dropped reads are the oldest).
    always_comb begin
      req_infl = 1'b0;
      pf_infl  = 1'b0;
      for (int unsigned i = 0; i < MaxReads; i++) begin
        if (CB'(i) >= drop_q && CB'(i) < cnt_q) begin
          if (fq_q[32*i +: 32] == req_group) req_infl = 1'b1;
          if (fq_q[32*i +: 32] == pf_addr_q) pf_infl = 1'b1;
        end
      end
    end
    assign pf_held    = (lvalid_q[pf_line] && (laddr_q[32*pf_line +: 32] == pf_addr_q)) || pf_infl;
    // The next prefetch is due while it is at most Ahead groups past the requested one.
    assign pf_dist    = pf_addr_q - cur_q;
    assign pf_go      = pf_on_q && !flush_i[s] && !pend_q && pf_dist != 32'd0 &&
                        pf_dist <= Ahead * GroupBytes;
    // A request keeps the prefetch stream when the stream is within Ahead + 1 groups past it.
    assign req_dist   = pf_addr_q - req_group;
    assign r_here     = m_axi_rvalid_i && (rid == IdBits'(s));
    assign r_inst     = r_here && (32'(beat_q) % Beats == Beats - 1);  // an instruction landed
    assign r_last     = r_here && (32'(beat_q) == Group * Beats - 1);
    assign keep       = (drop_q == '0);

    // A request is taken when no demand is waiting, and it hits or is misaligned (answered the
    // next cycle), or no read is being asked for (a miss asks for its group or awaits it) --
    // but not while its instruction is landing: next cycle it hits (awaited now, it would be
    // waited for after it passed).
    assign landing = r_inst && keep && inst_addr == req_addr;
    // The demanded instruction is on the bus: answered now, and the demand is done.
    assign dem_lands = r_inst && keep && dem_q && inst_addr == dem_addr_q;
    assign fetch_req_ready_o[s] =
        !flush_i[s] && !dem_q && !landing && (hit || misaligned || !pend_q);
    assign ar_want[s] = pend_q && (cnt_q < CB'(MaxReads));

    // The in-flight addresses: the oldest leaves with its last beat, a granted read joins.
    always_comb begin
      fq_d  = fq_q;
      cnt_d = cnt_q;
      if (r_last) begin
        fq_d  = fq_q >> 32;
        cnt_d = cnt_q - CB'(1);
      end
      for (int unsigned i = 0; i < MaxReads; i++) begin
        if (ar_gnt[s] && CB'(i) == cnt_d) fq_d[32*i +: 32] = paddr_q;
      end
      if (ar_gnt[s]) cnt_d = cnt_d + CB'(1);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lvalid_q    <= '0;
        lerr_q      <= '0;
        cnt_q       <= '0;
        fq_q        <= '0;
        dem_q       <= 1'b0;
        dem_addr_q  <= '0;
        pend_q      <= 1'b0;
        pf_on_q     <= 1'b0;
        pf_addr_q   <= '0;
        cur_q       <= '0;
        drop_q      <= '0;
        paddr_q     <= '0;
        rdata_q     <= '0;
        rerr_q      <= 1'b0;
        beat_q      <= '0;
        hit_count_q <= '0;
      end else begin
        cnt_q <= cnt_d;
        fq_q  <= fq_d;
        // Prefetch: ask for the next group of the stream, or pass it when it is held.
        if (pf_go) begin
          pf_addr_q <= pf_addr_q + GroupBytes;
          if (!pf_held) begin
            pend_q  <= 1'b1;
            paddr_q <= pf_addr_q;
          end
        end
        if (flush_i[s]) begin
          // Reads asked for or in flight still go (an AR offered stays offered) and land, and
          // are thrown away.
          lvalid_q    <= '0;
          dem_q       <= 1'b0;
          pf_on_q     <= 1'b0;
          hit_count_q <= '0;
        end else if (fetch_req_valid_i[s] && fetch_req_ready_o[s] && !misaligned) begin
          cur_q   <= req_group;
          pf_on_q <= 1'b1;
          // The stream restarts after this group unless it is just ahead of it.
          if (req_dist == 32'd0 || req_dist > (Ahead + 1) * GroupBytes)
            pf_addr_q <= req_group + GroupBytes;
          if (hit) begin
            hit_count_q <= hit_count_q + 32'd1;
          end else begin
            dem_q      <= 1'b1;
            dem_addr_q <= req_addr;
            if (!req_infl) begin
              pend_q  <= 1'b1;
              paddr_q <= req_group;
            end
          end
        end
        if (ar_gnt[s]) pend_q <= 1'b0;
        if (r_here) begin
          rdata_q[DataBits*(32'(beat_q) % Beats) +: DataBits] <= m_axi_rdata_i;
          rerr_q <= (rerr_q && !r_inst) || (rbad && !r_inst);
          beat_q <= r_last ? 8'd0 : beat_q + 8'd1;
        end
        if (r_inst && keep && !flush_i[s]) begin
          lvalid_q[inst_line] <= 1'b1;
          lerr_q[inst_line]   <= rerr_q || rbad;
        end
        if (dem_lands && !flush_i[s]) dem_q <= 1'b0;
        if (flush_i[s])           drop_q <= cnt_d + CB'(pend_q && !ar_gnt[s]);
        else if (r_last && !keep) drop_q <= drop_q - CB'(1);
      end
    end

    // The lines' address and data: no reset (lvalid_q says which hold an instruction).
    always_ff @(posedge clk_i) begin
      if (r_inst && keep) begin
        laddr_q[32*inst_line +: 32] <= inst_addr;
        ldata_q[IB*inst_line +: IB] <= inst_data;
      end
    end

    // Answers: from a line the cycle after a hit, a misaligned address at once (next cycle),
    // a demand when its instruction lands.
    logic        ans_q, ans_err_q;
    logic [IB-1:0] ans_data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ans_q      <= 1'b0;
        ans_err_q  <= 1'b0;
        ans_data_q <= '0;
      end else begin
        ans_q <= 1'b0;
        if (!flush_i[s] && fetch_req_valid_i[s] && fetch_req_ready_o[s] && (hit || misaligned)) begin
          ans_q      <= 1'b1;
          ans_err_q  <= misaligned || lerr_q[req_line];
          ans_data_q <= ldata_q[IB*req_line +: IB];
        end else if (dem_lands && !flush_i[s]) begin
          ans_q      <= 1'b1;
          ans_err_q  <= rerr_q || rbad;
          ans_data_q <= inst_data;
        end
      end
    end
    assign fetch_rsp_valid_o[s]       = ans_q;
    assign fetch_rsp_err_o[s]         = ans_err_q;
    assign fetch_rsp_data_o[IB*s +: IB] = ans_data_q;

    // ld/st: one at a time per sequencer.
    assign mem_req_ready_o[s] = !mem_busy_q[s] && mem_ar_gnt[s];
    assign mem_ar_want[s]     = mem_req_valid_i[s] && !mem_busy_q[s];
  end

  assign fetch_hits_o = hits_q;

  // ---------------------------------------------------------------------------------------
  // AR: fixed order, fetch before ld/st (each sequencer has one of each at most).
  // ---------------------------------------------------------------------------------------
  logic [2*S-1:0] ar_req, ar_sel;
  logic [2*S-1:0] ar_mask;
  always_comb begin
    for (int unsigned s = 0; s < S; s++) begin
      ar_req[s]     = ar_want[s];
      ar_req[S + s] = mem_ar_want[s] && !mem_req_write_i[s];
    end
  end
  // The lowest request, held while it waits for ARREADY (an offered AR must not change).
  logic [2*S-1:0] ar_held_q;
  logic           ar_wait_q;
  assign ar_sel  = ar_wait_q ? ar_held_q : (ar_req & ~(ar_req - 1'b1));
  assign ar_mask = (m_axi_arvalid_o && m_axi_arready_i) ? ar_sel : '0;
  assign ar_gnt  = ar_mask[S-1:0];

  logic [$clog2(2*S)-1:0] ar_idx;
  always_comb begin
    ar_idx = '0;
    for (int unsigned i = 0; i < 2 * S; i++) begin
      if (ar_sel[i]) ar_idx = $clog2(2*S)'(i);
    end
  end

  assign m_axi_arvalid_o = |ar_sel;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_wait_q <= 1'b0;
      ar_held_q <= '0;
    end else begin
      ar_wait_q <= m_axi_arvalid_o && !m_axi_arready_i;
      ar_held_q <= ar_sel;
    end
  end
  assign m_axi_arid_o    = IdBits'(ar_idx);
  assign m_axi_arburst_o = 2'b01;  // INCR
  always_comb begin
    if (32'(ar_idx) < S) begin
      m_axi_araddr_o = pend_addr_q[32*ar_idx +: 32];
      m_axi_arlen_o  = 8'(Group * Beats - 1);
      m_axi_arsize_o = 3'($clog2(BeatBytes));
    end else begin
      m_axi_araddr_o = mem_req_addr_i[32*(32'(ar_idx) - S) +: 32] & ~32'(BeatBytes - 1);
      m_axi_arlen_o  = 8'd0;
      m_axi_arsize_o = 3'($clog2(BeatBytes));
    end
  end

  // ---------------------------------------------------------------------------------------
  // AW and W together for a store (one beat); the lowest sequencer first.
  // ---------------------------------------------------------------------------------------
  logic [S-1:0] aw_req, aw_sel;
  logic         aw_done_q, w_done_q;  // the chosen store's AW or W already went
  logic         st_wait_q;            // a store was offered and not taken: it stays chosen
  always_comb begin
    for (int unsigned s = 0; s < S; s++) aw_req[s] = mem_ar_want[s] && mem_req_write_i[s];
  end
  assign aw_sel = aw_req & ~(aw_req - 1'b1);
  logic [$clog2(S)-1:0] aw_idx;
  always_comb begin
    aw_idx = '0;
    for (int unsigned i = 0; i < S; i++) begin
      if (aw_sel[i]) aw_idx = $clog2(S)'(i);
    end
  end
  // Once the AW or W of a store has gone, the store is locked until its other half goes.
  logic [$clog2(S)-1:0] st_idx, st_idx_q;
  assign st_idx = (aw_done_q || w_done_q || st_wait_q) ? st_idx_q : aw_idx;
  logic [31:0] st_addr;
  assign st_addr = mem_req_addr_i[32*st_idx +: 32];
  assign m_axi_awvalid_o = (|aw_req || w_done_q) && !aw_done_q;
  assign m_axi_awid_o    = IdBits'(S + 32'(st_idx));
  assign m_axi_awaddr_o  = st_addr & ~32'(BeatBytes - 1);
  assign m_axi_awlen_o   = 8'd0;
  assign m_axi_awsize_o  = 3'($clog2(BeatBytes));
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_wvalid_o  = (|aw_req || aw_done_q) && !w_done_q;
  assign m_axi_wdata_o   = DataBits'({(DataBits / 32){mem_req_wdata_i[32*st_idx +: 32]}});
  assign m_axi_wstrb_o   = BeatBytes'(4'hF) << st_addr[LaneBits-1:0];
  assign m_axi_wlast_o   = 1'b1;

  logic aw_fire, w_fire, st_accept;
  assign aw_fire   = m_axi_awvalid_o && m_axi_awready_i;
  assign w_fire    = m_axi_wvalid_o && m_axi_wready_i;
  assign st_accept = (aw_done_q || aw_fire) && (w_done_q || w_fire);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      st_idx_q  <= '0;
      st_wait_q <= 1'b0;
    end else if (st_accept) begin
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      st_wait_q <= 1'b0;
    end else begin
      aw_done_q <= aw_done_q || aw_fire;
      w_done_q  <= w_done_q || w_fire;
      st_idx_q  <= st_idx;
      st_wait_q <= m_axi_awvalid_o || m_axi_wvalid_o;
    end
  end

  // Grants of ld/st requests: a load when its AR goes, a store when its AW and W have gone.
  always_comb begin
    mem_ar_gnt = ar_mask[2*S-1:S];
    if (st_accept) mem_ar_gnt[st_idx] = 1'b1;
  end

  // ld/st responses.
  assign m_axi_bready_o = 1'b1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_busy_q <= '0;
    end else begin
      for (int unsigned s = 0; s < S; s++) begin
        if (mem_req_valid_i[s] && mem_req_ready_o[s]) mem_busy_q[s] <= 1'b1;
        if ((m_axi_rvalid_i && 32'(rid) == S + s) || (m_axi_bvalid_i && 32'(m_axi_bid_i) == S + s))
          mem_busy_q[s] <= 1'b0;
      end
    end
  end
  logic [S*32-1:0] ld_addr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ld_addr_q <= '0;
    else begin
      for (int unsigned s = 0; s < S; s++) begin
        if (mem_req_valid_i[s] && mem_req_ready_o[s]) ld_addr_q[32*s +: 32] <= mem_req_addr_i[32*s +: 32];
      end
    end
  end
  always_comb begin
    for (int unsigned s = 0; s < S; s++) begin
      logic r_mem, b_mem;
      r_mem = m_axi_rvalid_i && (32'(rid) == S + s);
      b_mem = m_axi_bvalid_i && (32'(m_axi_bid_i) == S + s);
      mem_rsp_valid_o[s] = r_mem || b_mem;
      mem_rsp_err_o[s]   = (r_mem && rbad) || (b_mem && tern_pkg::axi_resp_error(m_axi_bresp_i));
      mem_rsp_rdata_o[32*s +: 32] = m_axi_rdata_i[8*ld_addr_q[32*s +: LaneBits] +: 32];
    end
  end

  logic unused;
  assign unused = m_axi_rlast_i;  // beats are counted

`ifndef SYNTHESIS
  initial begin : params
    assert (Lines > 0 && (Lines & (Lines - 1)) == 0 && Group > 0 && (Group & (Group - 1)) == 0 &&
            Lines % Group == 0 && Ahead > 0)
      else $fatal(1, "tern_seq_axi: Lines %0d, Group %0d (powers of two, Group dividing Lines), Ahead %0d (positive)",
                  Lines, Group, Ahead);
  end
`endif

endmodule
