// tern_dma_walk: walks one side of a checked DMA descriptor in pattern order (d0 outermost)
// and emits one item per handshake. On an HBM side the innermost dims that are contiguous
// (d3's step is the element size, and each dim further out steps exactly over the dims inside
// it, or has size 1) form one run of up to 2^17 - 1 elements: the backend turns each run into
// bursts. Otherwise every item is one element. An on-chip side's d0 steps partitions, d1..d3
// bytes, one element per item, or (runs_i, the midend's row mode) runs of d1..d3 as on HBM.
// Addresses are 32 bits: the midend checked every element against the memory first.
module tern_dma_walk (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,       // load the pattern (one cycle; the walk starts next)
  input  logic        onchip_i,
  input  logic        runs_i,        // on-chip: contiguous d1..d3 form runs too
  input  logic [2:0]  elem_bytes_i,
  input  logic [31:0] addr_i,        // HBM byte address or byte offset in the partition
  input  logic [7:0]  part_i,        // start partition (on-chip)
  input  logic [127:0] steps_i,      // dim d's signed byte step at 32*d (on-chip d0: partitions)
  input  logic [63:0] nums_i,        // dim d's size at 16*d, none 0
  output logic        valid_o,
  input  logic        ready_i,
  output logic [7:0]  part_o,
  output logic [31:0] addr_o,
  output logic [16:0] elems_o,       // elements in this run
  output logic        busy_o
);

  logic          run_q, run_d;
  logic [2:0]    lvl_q, lvl_d;       // dims lvl..3 form one run (4: single elements)
  logic [16:0]   relems_q, relems_d; // elements per run
  logic [127:0]  steps_q, steps_d;
  logic [63:0]   nums_q, nums_d;
  logic [63:0]   cnt_q, cnt_d;       // dim d's index at 16*d
  logic [127:0]  pos_q, pos_d;       // address at the start of dim d's current iteration
  logic [7:0]    part_q, part_d;
  logic          onchip_q, onchip_d;

  // The innermost dim outside the run that can still advance.
  logic       adv_found;
  logic [1:0] adv_dim;
  always_comb begin
    adv_found = 1'b0;
    adv_dim   = 2'd0;
    for (int unsigned d = 0; d < 4; d++) begin
      if (3'(d) < lvl_q && cnt_q[16*d +: 16] != nums_q[16*d +: 16] - 16'd1) begin
        adv_found = 1'b1;
        adv_dim   = 2'(d);
      end
    end
  end

  // The run level of a new pattern: extend the run outwards while the next dim continues it.
  logic [2:0]  lvl_new;
  logic [16:0] relems_new;
  always_comb begin
    logic [63:0] bytes, elems;  // of the run so far
    logic        go;
    lvl_new    = 3'd4;
    relems_new = 17'd1;
    bytes      = 64'(elem_bytes_i);
    elems      = 64'd1;
    go         = !onchip_i || runs_i;
    for (int d = 3; d >= 0; d--) begin
      if (go && !(onchip_i && d == 0) && (nums_i[16*d +: 16] == 16'd1 ||
                 {{32{steps_i[32*d+31]}}, steps_i[32*d +: 32]} == bytes) &&
          elems * 64'(nums_i[16*d +: 16]) < 64'h2_0000) begin
        elems      = elems * 64'(nums_i[16*d +: 16]);
        bytes      = bytes * 64'(nums_i[16*d +: 16]);
        lvl_new    = 3'(d);
        relems_new = elems[16:0];
      end else begin
        go = 1'b0;
      end
    end
  end

  always_comb begin
    run_d    = run_q;
    lvl_d    = lvl_q;
    relems_d = relems_q;
    steps_d  = steps_q;
    nums_d   = nums_q;
    cnt_d    = cnt_q;
    pos_d    = pos_q;
    part_d   = part_q;
    onchip_d = onchip_q;
    if (start_i) begin
      run_d    = 1'b1;
      onchip_d = onchip_i;
      lvl_d    = lvl_new;
      relems_d = relems_new;
      steps_d  = steps_i;
      nums_d   = nums_i;
      cnt_d    = '0;
      pos_d    = {4{addr_i}};
      part_d   = part_i;
    end else if (run_q && ready_i) begin
      if (!adv_found) begin
        run_d = 1'b0;
      end else begin
        for (int unsigned d = 0; d < 4; d++) begin
          if (2'(d) == adv_dim) begin
            cnt_d[16*d +: 16] = cnt_q[16*d +: 16] + 16'd1;
            if (onchip_q && d == 0) part_d = part_q + steps_q[7:0];
            else pos_d[32*d +: 32] = pos_q[32*d +: 32] + steps_q[32*d +: 32];
          end else if (2'(d) > adv_dim) begin
            cnt_d[16*d +: 16] = '0;
          end
        end
        // Inner dims restart at the advanced dim's new position.
        for (int unsigned d = 1; d < 4; d++) begin
          if (2'(d) > adv_dim) pos_d[32*d +: 32] = pos_d[32*(d-1) +: 32];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q    <= 1'b0;
      lvl_q    <= 3'd4;
      relems_q <= 17'd1;
      steps_q  <= '0;
      nums_q   <= '0;
      cnt_q    <= '0;
      pos_q    <= '0;
      part_q   <= '0;
      onchip_q <= 1'b0;
    end else begin
      run_q    <= run_d;
      lvl_q    <= lvl_d;
      relems_q <= relems_d;
      steps_q  <= steps_d;
      nums_q   <= nums_d;
      cnt_q    <= cnt_d;
      pos_q    <= pos_d;
      part_q   <= part_d;
      onchip_q <= onchip_d;
    end
  end

  assign valid_o = run_q;
  assign part_o  = part_q;
  assign addr_o  = pos_q[96 +: 32];
  assign elems_o = relems_q;
  assign busy_o  = run_q;

endmodule
