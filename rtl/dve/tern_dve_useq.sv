// tern_dve_useq: one micro-program of the Vector Engine (docs/vector-engine.md "Pipeline"):
// started by start_i, it issues its micro-ops one at a time (ALU A, or the lanes' divider),
// waits for each result (AluLat advances of the pipeline, or the divider's done), captures it,
// and after the last (uop_i's last bit) commits. tern_dve runs two: the element's program and
// bn_stats' second. The program's micro-op at pc_o comes back on uop_i.
module tern_dve_useq (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,       // the pipeline advances
  input  logic        start_i,
  input  logic        hold_i,     // another program issues this cycle: wait
  /* verilator lint_off UNUSEDSIGNAL */  // its last bit and unit; the lanes read the rest
  input  logic [12:0] uop_i,      // tern_dve_pkg::uop_at / vop_at at pc_o
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic        div_done_i, // the divider's result is there
  output logic [3:0]  pc_o,
  output logic        busy_o,
  output logic        issue_o,
  output logic        capture_o,
  output logic        commit_o
);

  typedef enum logic [1:0] {UIdle, UIssue, UWait, UCommit} state_e;

  state_e     st_q, st_d;
  logic [3:0] pc_q, pc_d, cnt_q, cnt_d;

  assign busy_o    = (st_q != UIdle);
  assign issue_o   = (st_q == UIssue) && en_i && !hold_i;
  assign commit_o  = (st_q == UCommit);
  assign capture_o = (st_q == UWait) &&
                     ((uop_i[11:10] == tern_dve_pkg::UopDiv) ? div_done_i : (cnt_q == 4'd0));
  assign pc_o      = pc_q;

  always_comb begin
    st_d  = st_q;
    pc_d  = pc_q;
    cnt_d = cnt_q;
    unique case (st_q)
      UIdle: begin
        if (start_i) begin
          st_d = UIssue;
          pc_d = 4'd0;
        end
      end
      UIssue: begin
        if (issue_o) begin
          st_d  = UWait;
          cnt_d = 4'(tern_dve_pkg::AluLat - 1);
        end
      end
      UWait: begin
        if (capture_o) begin
          st_d = uop_i[12] ? UCommit : UIssue;
          pc_d = pc_q + 4'd1;
        end else if (en_i && cnt_q != 4'd0) begin
          cnt_d = cnt_q - 4'd1;
        end
      end
      default: st_d = UIdle;  // UCommit
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q  <= UIdle;
      pc_q  <= '0;
      cnt_q <= '0;
    end else begin
      st_q  <= st_d;
      pc_q  <= pc_d;
      cnt_q <= cnt_d;
    end
  end

`ifndef SYNTHESIS
  // A program starts only once the last has committed (a start while busy would be lost).
  start_idle: assert property (@(posedge clk_i) disable iff (!rst_ni) start_i |-> !busy_o)
    else $error("tern_dve_useq: a micro-program starts while one runs (pc %0d)", pc_q);
`endif

endmodule
