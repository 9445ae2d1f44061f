// tern_pkg: the project-wide SystemVerilog definitions that do not depend on a config
// (config sizes come from the generated tern_cfg_pkg). The dtype codes mirror
// model/numerics/dtype.h; tests/test_rtl_pkg.cc checks that both agree.
package tern_pkg;

  // Shared definitions: each block uses only some of these constants, so a block linted as its
  // own top would report the others as unused. The waiver covers these localparams only.
  /* verilator lint_off UNUSEDPARAM */

  // ---------------------------------------------------------------------------------------
  // Data types (ARCHITECTURE.md 3.8, docs/numerics.md)
  // ---------------------------------------------------------------------------------------
  localparam logic [3:0] DtFp32    = 4'd0;
  localparam logic [3:0] DtTf32    = 4'd1;
  localparam logic [3:0] DtBf16    = 4'd2;
  localparam logic [3:0] DtFp16    = 4'd3;
  localparam logic [3:0] DtFp8E4M3 = 4'd4;
  localparam logic [3:0] DtFp8E5M2 = 4'd5;
  localparam logic [3:0] DtInt8    = 4'd6;
  localparam logic [3:0] DtUint8   = 4'd7;
  localparam logic [3:0] DtInt32   = 4'd8;

  localparam logic [31:0] Fp32CanonicalNaN = 32'h7FC0_0000;

  // Rounding modes, as in the ISA.
  localparam logic RoundRne = 1'b0;
  localparam logic RoundSr  = 1'b1;

  /* verilator lint_on UNUSEDPARAM */

  // Bit layout of a float dtype. Integer codes return the fp32 layout; callers reject them.
  function automatic int unsigned fmt_exp_bits(logic [3:0] dt);
    unique case (dt)
      DtFp16, DtFp8E5M2: fmt_exp_bits = 5;
      DtFp8E4M3:         fmt_exp_bits = 4;
      default:           fmt_exp_bits = 8;
    endcase
  endfunction

  function automatic int unsigned fmt_man_bits(logic [3:0] dt);
    unique case (dt)
      DtTf32, DtFp16: fmt_man_bits = 10;
      DtBf16:         fmt_man_bits = 7;
      DtFp8E4M3:      fmt_man_bits = 3;
      DtFp8E5M2:      fmt_man_bits = 2;
      default:        fmt_man_bits = 23;
    endcase
  endfunction

  // Zero bits below the fraction (TF32 is carried in the fp32 layout).
  function automatic int unsigned fmt_tail_bits(logic [3:0] dt);
    fmt_tail_bits = (dt == DtTf32) ? 13 : 0;
  endfunction

  // e4m3fn has no infinities: only S.1111.111 is NaN.
  function automatic logic fmt_has_inf(logic [3:0] dt);
    fmt_has_inf = (dt != DtFp8E4M3);
  endfunction

  function automatic int unsigned fmt_width(logic [3:0] dt);
    fmt_width = 1 + fmt_exp_bits(dt) + fmt_man_bits(dt) + fmt_tail_bits(dt);
  endfunction

  function automatic int signed fmt_bias(logic [3:0] dt);
    fmt_bias = (32'sd1 <<< (fmt_exp_bits(dt) - 1)) - 32'sd1;
  endfunction

  function automatic logic is_float_dtype(logic [3:0] dt);
    is_float_dtype = (dt <= DtFp8E5M2);
  endfunction

  // SBUF row width in bytes: a DMA engine writes or reads this many bytes of one partition per
  // cycle (docs/dma.md "Row mode"). One AXI beat, but never wider than the element port's data
  // (4 bytes per partition), which carries the row.
  function automatic int unsigned sbuf_row_bytes(int unsigned axi_bytes, int unsigned partitions);
    sbuf_row_bytes = (axi_bytes < 4 * partitions) ? axi_bytes : 4 * partitions;
  endfunction

  // The chunk of each partition an SBUF element read also returns (16 bytes, or the row when
  // narrower): the Tensor Engine's adapter keeps it, so a dense stream of 2-byte elements reads
  // SBUF once per 8 beats (docs/core-rtl.md "Read-ahead").
  function automatic int unsigned sbuf_chunk_bytes(int unsigned row_bytes);
    sbuf_chunk_bytes = (row_bytes < 16) ? row_bytes : 16;
  endfunction

  // Tensor Engine operand types: the full-rate ones, plus fp32 as three passes. fp32 and tf32
  // pair only with fp32 or tf32.
  function automatic logic is_pe_pair(logic [3:0] stat_dt, logic [3:0] mov_dt);
    logic stat_wide, mov_wide;
    stat_wide  = (stat_dt == DtFp32) || (stat_dt == DtTf32);
    mov_wide   = (mov_dt == DtFp32) || (mov_dt == DtTf32);
    is_pe_pair = (is_mac_dtype(stat_dt) || stat_dt == DtFp32) &&
                 (is_mac_dtype(mov_dt) || mov_dt == DtFp32) && (stat_wide == mov_wide);
  endfunction

  // The Tensor Engine multiplies these types at full rate.
  function automatic logic is_mac_dtype(logic [3:0] dt);
    is_mac_dtype = (dt == DtTf32) || (dt == DtBf16) || (dt == DtFp16) ||
                   (dt == DtFp8E4M3) || (dt == DtFp8E5M2);
  endfunction

endpackage
