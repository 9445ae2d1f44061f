// tern_fpga_top: the iCE40 UP5K smoke design (iCEBreaker pinout, fpga/tern_fpga.pcf).
// A small ROM of BF16 operand pairs streams once after reset through one tern_mac_lane, with
// `last` every ElemsPerDot elements (tern_cfg_pkg::PeRows of the fpga config) and on the final
// ROM entry. Every fp32 dot product is folded into a 32-bit checksum; the LEDs show the
// checksum XOR-folded to five bits once the stream is done, so the result can be read off the
// board and compared with the golden model. Press the user button to run again.
//
// Timing: tern_mac_lane does a whole fp32 MAC in one cycle, which runs at about 4 MHz on the
// UP5K. The design therefore runs on the 12 MHz clock but lets the stream move only on every
// MacCycles-th cycle (a strobe gates both the ROM fetch and the lane's in_valid), so the MAC's
// registers change and capture at most once per MacCycles cycles: the long paths are
// MacCycles-cycle paths. scripts/fpga.sh checks them with a 12 / MacCycles MHz target.
module tern_fpga_top (
  input  logic       clk_i,        // 12 MHz board oscillator
  input  logic       rst_ni,       // user button, active low
  output logic [4:0] led_o,        // checksum, XOR-folded (valid when led_green_no is low)
  output logic       led_red_no,   // a dtype error was flagged (never, with BF16 operands)
  output logic       led_green_no  // the whole ROM has been processed
);

  // Elements per dot product: the PE array height of the config (configs/fpga.yaml).
  localparam int unsigned ElemsPerDot = tern_cfg_pkg::PeRows;
  localparam int unsigned CntW        = (ElemsPerDot > 1) ? $clog2(ElemsPerDot) : 1;
  localparam int unsigned RomDepth    = 16;
  localparam int unsigned IdxW        = $clog2(RomDepth + 1);  // counts up to RomDepth
  localparam int unsigned MacCycles   = 4;                      // clock cycles per MAC step
  localparam int unsigned DivW        = (MacCycles > 1) ? $clog2(MacCycles) : 1;

  // ---------------------------------------------------------------------------------------
  // Reset: the button resets asynchronously; release is synchronised to the clock. iCE40
  // flip-flops configure to 0, so the design also starts in reset after configuration.
  // ---------------------------------------------------------------------------------------
  logic [1:0] rst_sync_q;
  logic       rst_n;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rst_sync_q <= 2'b00;
    end else begin
      rst_sync_q <= {rst_sync_q[0], 1'b1};
    end
  end

  assign rst_n = rst_sync_q[1];

  // ---------------------------------------------------------------------------------------
  // Step strobe: high on one cycle in MacCycles.
  // ---------------------------------------------------------------------------------------
  logic [DivW-1:0] div_q, div_d;
  logic            step;

  assign step  = (div_q == DivW'(MacCycles - 1));
  assign div_d = step ? DivW'(0) : div_q + DivW'(1);

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      div_q <= '0;
    end else begin
      div_q <= div_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Operand ROM: {a, b} BF16 pairs. The values cover ordinary products, signed zeros, a
  // subnormal, a tie that rounds to even and a product that swamps the running sum.
  // ---------------------------------------------------------------------------------------
  logic [IdxW-1:0] fetch_idx_q, fetch_idx_d;
  logic [31:0]     rom_data;

  always_comb begin
    unique case (fetch_idx_q)
      5'd0:    rom_data = {16'h3F80, 16'h4000};  //  1.0        *  2.0
      5'd1:    rom_data = {16'h3F00, 16'hBFC0};  //  0.5        * -1.5
      5'd2:    rom_data = {16'h4049, 16'h3DCD};  //  3.140625   *  0.10009765625
      5'd3:    rom_data = {16'hC030, 16'h4120};  // -2.75       *  10.0
      5'd4:    rom_data = {16'h42C8, 16'h42C8};  //  100.0      *  100.0
      5'd5:    rom_data = {16'h0000, 16'h7F7F};  //  +0         *  max finite
      5'd6:    rom_data = {16'h8000, 16'h3F80};  //  -0         *  1.0
      5'd7:    rom_data = {16'h3A83, 16'hC040};  //  ~1.0e-3    * -3.0
      5'd8:    rom_data = {16'h0001, 16'h4B00};  //  2^-133     *  2^23 (subnormal input)
      5'd9:    rom_data = {16'h40E0, 16'h3E80};  //  7.0        *  0.25
      5'd10:   rom_data = {16'hBDCD, 16'h4049};  // -0.10009765625 * 3.140625
      5'd11:   rom_data = {16'h3F81, 16'h3F81};  //  1.0078125  *  1.0078125
      5'd12:   rom_data = {16'h4B80, 16'h3F80};  //  2^24       *  1.0
      5'd13:   rom_data = {16'h3F80, 16'h3F80};  //  1.0        *  1.0 (sum 2^24 + 1: a tie, to even)
      5'd14:   rom_data = {16'h3F80, 16'h4000};  //  1.0        *  2.0
      5'd15:   rom_data = {16'hC780, 16'h4780};  // -65536.0    *  65536.0 (swamps the sum)
      default: rom_data = 32'd0;
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // Element stream: a one-entry stage in front of the lane, refilled from the ROM. It moves
  // only on step cycles, so elem_q is stable for MacCycles cycles before the lane takes it.
  // ---------------------------------------------------------------------------------------
  logic [31:0]     elem_q, elem_d;
  logic            elem_valid_q, elem_valid_d, elem_last_q, elem_last_d;
  logic [CntW-1:0] elem_cnt_q, elem_cnt_d;
  logic            fetch, fetch_last, accept, fed_all, lane_in_valid;

  logic            lane_in_ready, lane_out_valid, lane_dtype_err;
  logic [31:0]     lane_out;

  assign lane_in_valid = elem_valid_q && step;
  assign accept        = lane_in_valid && lane_in_ready;
  assign fed_all       = (fetch_idx_q == IdxW'(RomDepth));
  assign fetch         = step && !fed_all && (!elem_valid_q || accept);
  assign fetch_last    = (elem_cnt_q == CntW'(ElemsPerDot - 1)) ||
                         (fetch_idx_q == IdxW'(RomDepth - 1));

  always_comb begin
    fetch_idx_d  = fetch_idx_q;
    elem_d       = elem_q;
    elem_valid_d = elem_valid_q && !accept;
    elem_last_d  = elem_last_q;
    elem_cnt_d   = elem_cnt_q;
    if (fetch) begin
      fetch_idx_d  = fetch_idx_q + IdxW'(1);
      elem_d       = rom_data;
      elem_valid_d = 1'b1;
      elem_last_d  = fetch_last;
      elem_cnt_d   = fetch_last ? CntW'(0) : elem_cnt_q + CntW'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      fetch_idx_q  <= '0;
      elem_q       <= 32'd0;
      elem_valid_q <= 1'b0;
      elem_last_q  <= 1'b0;
      elem_cnt_q   <= '0;
    end else begin
      fetch_idx_q  <= fetch_idx_d;
      elem_q       <= elem_d;
      elem_valid_q <= elem_valid_d;
      elem_last_q  <= elem_last_d;
      elem_cnt_q   <= elem_cnt_d;
    end
  end

  // Operand dtypes are constants, so synthesis keeps only the BF16 decode paths.
  tern_mac_lane u_lane (
    .clk_i       (clk_i),
    .rst_ni      (rst_n),
    .in_valid_i  (lane_in_valid),
    .in_ready_o  (lane_in_ready),
    .in_last_i   (elem_last_q),
    .a_dtype_i   (tern_pkg::DtBf16),
    .a_i         ({16'd0, elem_q[31:16]}),
    .b_dtype_i   (tern_pkg::DtBf16),
    .b_i         ({16'd0, elem_q[15:0]}),
    .out_valid_o (lane_out_valid),
    .out_ready_i (1'b1),
    .out_o       (lane_out),
    .dtype_err_o (lane_dtype_err)
  );

  // ---------------------------------------------------------------------------------------
  // Result checksum: rotate left by one, XOR in each dot product.
  // ---------------------------------------------------------------------------------------
  logic [31:0] chk_q, chk_d;
  logic        done_q, done_d;
  logic [4:0]  chk_fold;

  always_comb begin
    chk_d  = chk_q;
    done_d = fed_all && !elem_valid_q && !lane_out_valid;
    if (lane_out_valid) begin
      chk_d = {chk_q[30:0], chk_q[31]} ^ lane_out;
    end
  end

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      chk_q  <= 32'd0;
      done_q <= 1'b0;
    end else begin
      chk_q  <= chk_d;
      done_q <= done_d;
    end
  end

  always_comb begin
    chk_fold = 5'd0;
    for (int unsigned i = 0; i < 32; i++) begin
      chk_fold[i % 5] = chk_fold[i % 5] ^ chk_q[i];
    end
  end

  assign led_o        = done_q ? chk_fold : 5'd0;
  assign led_red_no   = !lane_dtype_err;
  assign led_green_no = !done_q;

endmodule
