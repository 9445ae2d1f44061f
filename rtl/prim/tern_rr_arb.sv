// tern_rr_arb: round-robin arbitration of one port among N requesters. A request is granted in
// the cycle it is offered when it is the first valid one at or after the rotating pointer and
// the port is ready; the pointer then moves past the winner, so every requester is served
// within N grants. A request not granted waits: a conflict costs its requester a cycle
// (counted in conflict_o), never data. The select is combinational, the pointer one flop.
module tern_rr_arb #(
  parameter int unsigned N = 4,
  parameter int unsigned W = 32,   // request payload bits
  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [N-1:0]  valid_i,
  input  logic [N*W-1:0] req_i,
  input  logic          ready_i,    // the port can take a request this cycle
  output logic [N-1:0]  gnt_o,
  output logic          valid_o,
  output logic [W-1:0]  req_o,
  output logic [N-1:0]  conflict_o  // requesting but not granted
);

  logic [IW-1:0] ptr_q, ptr_d, sel;
  logic          found;

  always_comb begin
    found = 1'b0;
    sel   = ptr_q;
    for (int unsigned k = 0; k < N; k++) begin
      logic [IW-1:0] i;
      i = IW'((32'(ptr_q) + k) % N);
      if (!found && valid_i[i]) begin
        found = 1'b1;
        sel   = i;
      end
    end
  end

  assign valid_o = found && ready_i;
  // The payload at sel whether or not it is valid (tern_mux: not a shifter in synthesis).
  tern_mux #(.N (N), .W (W)) u_req (.in_i (req_i), .sel_i (sel), .out_o (req_o));
  always_comb begin
    gnt_o = '0;
    if (valid_o) gnt_o[sel] = 1'b1;
  end
  assign conflict_o = valid_i & ~gnt_o;
  assign ptr_d = valid_o ? IW'((32'(sel) + 1) % N) : ptr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= ptr_d;
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (N > 0 && W > 0) else $fatal(1, "tern_rr_arb: N (%0d) and W (%0d) must be positive", N, W);
  end
  grant_onehot: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(gnt_o));
  grant_to_requester: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (gnt_o & ~valid_i) == '0);
  grant_when_ready: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_o == (ready_i && valid_i != '0));
  pointer_in_range: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(ptr_q) < N);
  // Functional coverage: contention, and a requester that waits while the port is busy.
  contention: cover property (@(posedge clk_i) disable iff (!rst_ni) valid_o && |conflict_o);
  port_busy: cover property (@(posedge clk_i) disable iff (!rst_ni) |valid_i && !ready_i);
`endif

endmodule
