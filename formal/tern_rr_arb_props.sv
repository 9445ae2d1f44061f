// tern_rr_arb_props: tern_rr_arb (rtl/prim/tern_rr_arb.sv) with its properties, proven by
// `make formal` (scripts/formal.sh: bounded model check, then k-induction) at N = 4 and N = 3
// (a pointer that wraps before its width does), 4-bit payloads. Every input is free, reset
// included after the first cycle.
//   grant      gnt_o is one-hot or zero, only to a requester, and non-zero exactly when valid_o;
//              valid_o is ready_i and any request (a ready port never idles); req_o is the
//              winner's payload; conflict_o is the requests not granted;
//   order      the grant goes to the first requester at or after the one after the last winner
//              (requester 0 after reset), counting cyclically;
//   fairness   a request held is granted by its N-th cycle with ready_i high: fewer than N
//              such cycles pass while it waits;
//   cover      each requester is granted, and one waits the full N - 1 ready cycles.
// The arbiter has no lock or hold input: a grant lasts one cycle.
// Plain synthesizable SV with immediate assertions, so a simulation can use the same wrapper.
// The checks sit outside synthesis like the RTL's own assertions. The invariants that make
// the properties inductive read the pointer through peek_ptr: a simulation takes the
// hierarchical `assign peek_*` line below; Yosys 0.23 has no hierarchical references, so
// scripts/formal.sh makes the same connection itself after flattening.
module tern_rr_arb_props #(
  parameter int unsigned N = 4,
  parameter int unsigned W = 4,
  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1
) (
  input logic           clk_i,
  input logic           rst_ni,
  input logic [N-1:0]   valid_i,
  input logic [N*W-1:0] req_i,
  input logic           ready_i
);

  logic [N-1:0] gnt, conflict;
  logic         valid;
  logic [W-1:0] req;

  tern_rr_arb #(
    .N(N),
    .W(W)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .valid_i,
    .req_i,
    .ready_i,
    .gnt_o      (gnt),
    .valid_o    (valid),
    .req_o      (req),
    .conflict_o (conflict)
  );

`ifndef SYNTHESIS
  logic [IW-1:0] peek_ptr;
`ifndef FORMAL
  assign peek_ptr = u_dut.ptr_q;
`endif

  // --- Reference: who is first in line, and who was passed over ------------------------------
  logic [IW-1:0] first_q, first_d;  // one after the last winner
  logic [IW-1:0] winner;
  logic          skipped;           // a requester in line before the winner was passed over
  logic [W-1:0]  winner_req;

  always_comb begin
    logic          in_front;
    logic [IW-1:0] idx;
    winner   = '0;
    skipped  = 1'b0;
    in_front = 1'b1;
    for (int unsigned k = 0; k < N; k++) begin
      idx = IW'((32'(first_q) + k) % N);
      if (gnt[idx]) begin
        winner = idx;
        in_front = 1'b0;
      end else if (in_front && valid_i[idx]) begin
        skipped = 1'b1;
      end
    end
    winner_req = req_i[W*winner +: W];
    first_d    = valid ? IW'((32'(winner) + 1) % N) : first_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) first_q <= '0;
    else         first_q <= first_d;
  end

`ifdef FORMAL
  initial assume (!rst_ni);
`endif

  // Per requester: the ready cycles its held request has waited.
  logic [N-1:0] fair_ok, gap_ok;
  for (genvar r = 0; r < N; r++) begin : gen_req
    logic [7:0] waited_q, waited_d;

    always_comb begin
      if (!valid_i[r] || gnt[r]) waited_d = '0;
      else if (ready_i)          waited_d = waited_q + 8'd1;
      else                       waited_d = waited_q;
      fair_ok[r] = 32'(waited_q) < N;
      gap_ok[r]  = 32'(waited_q) + (r + N - 32'(peek_ptr)) % N < N;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) waited_q <= '0;
      else         waited_q <= waited_d;
    end
  end

  // For the covers: the requesters granted since reset.
  logic [N-1:0] granted_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) granted_q <= '0;
    else         granted_q <= granted_q | gnt;
  end

  // --- Properties ----------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      grant_onehot: assert ((gnt & (gnt - 1'b1)) == '0);
      grant_to_requester: assert ((gnt & ~valid_i) == '0);
      grant_iff_valid: assert ((gnt != '0) == valid);
      grant_when_ready: assert (valid == (ready_i && valid_i != '0));
      grant_payload: assert (!valid || req == winner_req);
      grant_conflict: assert (conflict == (valid_i & ~gnt));
      order_first_in_line: assert (!valid || !skipped);
      fair_within_n: assert (&fair_ok);
      // Invariants of the implementation: the pointer is the one after the last winner; a
      // request that waited w ready cycles is at most N - 1 - w steps after the pointer (each
      // grant to another moves the pointer at least one step closer to it).
      inv_pointer: assert (peek_ptr == first_q && 32'(peek_ptr) < N);
      inv_wait_gap: assert (&gap_ok);
      cover_all_granted: cover (&granted_q);
      cover_longest_wait: cover (gnt[N-1] && 32'(gen_req[N-1].waited_q) == N - 1);
    end
  end
`endif

endmodule
