// tern_dma_walk: walks one side of a checked DMA descriptor in pattern order (d0 outermost)
// and emits one item per handshake. An HBM side whose innermost step equals the element size
// emits its d3 rows as runs of d3.num contiguous elements (the backend turns each into bursts);
// otherwise every item is one element. An on-chip side's d0 steps partitions, d1..d3 bytes.
// Addresses are 32 bits: the midend checked every element against the memory first.
module tern_dma_walk (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,       // load the pattern (one cycle; the walk starts next)
  input  logic        onchip_i,
  input  logic [2:0]  elem_bytes_i,
  input  logic [31:0] addr_i,        // HBM byte address or byte offset in the partition
  input  logic [7:0]  part_i,        // start partition (on-chip)
  input  logic [127:0] steps_i,      // dim d's signed byte step at 32*d (on-chip d0: partitions)
  input  logic [63:0] nums_i,        // dim d's size at 16*d, none 0
  output logic        valid_o,
  input  logic        ready_i,
  output logic [7:0]  part_o,
  output logic [31:0] addr_o,
  output logic [16:0] elems_o,       // elements in this run (1 unless contiguous)
  output logic        busy_o
);

  logic          run_q, run_d;
  logic          contig_q, contig_d;
  logic [127:0]  steps_q, steps_d;
  logic [63:0]   nums_q, nums_d;
  logic [63:0]   cnt_q, cnt_d;       // dim d's index at 16*d
  logic [127:0]  pos_q, pos_d;       // address at the start of dim d's current iteration
  logic [7:0]    part_q, part_d;
  logic          onchip_q, onchip_d;

  // The innermost dim that can still advance (contiguous runs cover d3 whole).
  logic       adv_found;
  logic [1:0] adv_dim;
  always_comb begin
    adv_found = 1'b0;
    adv_dim   = 2'd0;
    for (int unsigned d = 0; d < 4; d++) begin
      if (!(contig_q && d == 3) && cnt_q[16*d +: 16] != nums_q[16*d +: 16] - 16'd1) begin
        adv_found = 1'b1;
        adv_dim   = 2'(d);
      end
    end
  end

  always_comb begin
    run_d    = run_q;
    contig_d = contig_q;
    steps_d  = steps_q;
    nums_d   = nums_q;
    cnt_d    = cnt_q;
    pos_d    = pos_q;
    part_d   = part_q;
    onchip_d = onchip_q;
    if (start_i) begin
      run_d    = 1'b1;
      onchip_d = onchip_i;
      contig_d = !onchip_i && steps_i[96 +: 32] == 32'(elem_bytes_i);
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
      contig_q <= 1'b0;
      steps_q  <= '0;
      nums_q   <= '0;
      cnt_q    <= '0;
      pos_q    <= '0;
      part_q   <= '0;
      onchip_q <= 1'b0;
    end else begin
      run_q    <= run_d;
      contig_q <= contig_d;
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
  assign elems_o = contig_q ? {1'b0, nums_q[48 +: 16]} : 17'd1;
  assign busy_o  = run_q;

endmodule
