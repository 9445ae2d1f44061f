// tern_isa_pkg: the encoding of tern instructions and DMA descriptors (docs/isa.md).
// Generated from model/isa/isa.cc by `tern isa sv`: do not edit.
//
// Fields: <Layout><Field>Lsb and <Layout><Field>Width. Hdr and the operand-word layouts
// (Alu, Mem, Br, Loop, Notify, Dma, Pe, Act, Dve) give absolute bits of the instruction.
// Ap and Sc give bits relative to their slot (access-pattern slot i at ApSlot<i>Lsb,
// scalar slot i at ScalarSlot<i>Lsb); Desc gives bits relative to its side of the
// descriptor (DescSrcLsb, DescDstLsb).
package tern_isa_pkg;

  // Shared definitions: a block uses only some of them, so a block linted as its own top
  // would report the others as unused. The waiver covers these localparams only.
  /* verilator lint_off UNUSEDPARAM */

  // Sizes and slot positions (bits)
  localparam int unsigned InstrBits      = 1024;  // instruction: two 512-bit fetch beats
  localparam int unsigned InstrBytesLog2 = 7;     // instruction i at stream base + i << this
  localparam int unsigned DescBits       = 512;   // DMA descriptor: one beat
  localparam int unsigned NumRegs        = 64;    // registers per sequencer; r0 reads zero
  localparam int unsigned NumSems        = 64;    // semaphores
  localparam int unsigned NumSeqs        = 5;     // sequencers
  localparam int unsigned ApDims         = 4;     // free dimensions of an access pattern
  localparam int unsigned ApSlots        = 4;     // access-pattern slots per instruction
  localparam int unsigned ApBits         = 192;
  localparam int unsigned ApSlot0Lsb     = 128;
  localparam int unsigned ApSlot1Lsb     = 320;
  localparam int unsigned ApSlot2Lsb     = 512;
  localparam int unsigned ApSlot3Lsb     = 704;
  localparam int unsigned ScalarSlots    = 2;     // scalar slots per instruction
  localparam int unsigned ScalarBits     = 64;
  localparam int unsigned ScalarSlot0Lsb = 896;
  localparam int unsigned ScalarSlot1Lsb = 960;
  localparam int unsigned DescSideBits   = 256;   // descriptor side: src, dst
  localparam int unsigned DescSrcLsb     = 0;
  localparam int unsigned DescDstLsb     = 256;

  // Sequencers (bit i of a sequencer mask: sequencer i)
  localparam logic [2:0] SeqPe   = 3'd0;
  localparam logic [2:0] SeqAct  = 3'd1;
  localparam logic [2:0] SeqDve  = 3'd2;
  localparam logic [2:0] SeqPool = 3'd3;
  localparam logic [2:0] SeqSp   = 3'd4;

  // Opcodes
  localparam logic [7:0] OpNop                = 8'h00;  // no operation (a carrier for waits and signals)
  localparam logic [7:0] OpHalt               = 8'h01;  // stop this sequencer
  localparam logic [7:0] OpNotify             = 8'h02;  // raise the interrupt with a code
  localparam logic [7:0] OpLd                 = 8'h03;  // rd = HBM word at rs1 + imm
  localparam logic [7:0] OpSt                 = 8'h04;  // HBM word at rs1 + imm = rs2
  localparam logic [7:0] OpLoop               = 8'h05;  // rd -= 1; branch to target while rd != 0
  localparam logic [7:0] OpDma                = 8'h06;  // queue a DMA descriptor; update on completion
  localparam logic [7:0] OpAdd                = 8'h10;  // rd = rs1 + b
  localparam logic [7:0] OpSub                = 8'h11;  // rd = rs1 - b
  localparam logic [7:0] OpMul                = 8'h12;  // rd = low 32 bits of rs1 * b
  localparam logic [7:0] OpAnd                = 8'h13;  // rd = rs1 & b
  localparam logic [7:0] OpOr                 = 8'h14;  // rd = rs1 | b
  localparam logic [7:0] OpXor                = 8'h15;  // rd = rs1 ^ b
  localparam logic [7:0] OpShl                = 8'h16;  // rd = rs1 << (b & 31)
  localparam logic [7:0] OpShr                = 8'h17;  // rd = rs1 >> (b & 31), logical
  localparam logic [7:0] OpSra                = 8'h18;  // rd = rs1 >> (b & 31), arithmetic
  localparam logic [7:0] OpSlt                = 8'h19;  // rd = signed rs1 < b
  localparam logic [7:0] OpSltu               = 8'h1A;  // rd = unsigned rs1 < b
  localparam logic [7:0] OpMin                = 8'h1B;  // rd = signed min(rs1, b)
  localparam logic [7:0] OpMax                = 8'h1C;  // rd = signed max(rs1, b)
  localparam logic [7:0] OpBeq                = 8'h20;  // branch if rs1 == b
  localparam logic [7:0] OpBne                = 8'h21;  // branch if rs1 != b
  localparam logic [7:0] OpBlt                = 8'h22;  // branch if signed rs1 < b
  localparam logic [7:0] OpBge                = 8'h23;  // branch if signed rs1 >= b
  localparam logic [7:0] OpBltu               = 8'h24;  // branch if unsigned rs1 < b
  localparam logic [7:0] OpBgeu               = 8'h25;  // branch if unsigned rs1 >= b
  localparam logic [7:0] OpLdstat             = 8'h30;  // LoadStationary: ap1 (K x M)
  localparam logic [7:0] OpMatmul             = 8'h31;  // MultiplyMoving: ap0 (PSUM M x N) = stat^T @ ap1 (K x N)
  localparam logic [7:0] OpPeTranspose        = 8'h32;  // ap0 (PSUM M x K) = stat^T
  localparam logic [7:0] OpActivate           = 8'h40;  // ap0 = func(ap1 * s0 + s1), reduce
  localparam logic [7:0] OpTensorTensor       = 8'h50;  // ap0 = alu0(ap1, ap2)
  localparam logic [7:0] OpTensorScalar       = 8'h51;  // ap0 = alu1(alu0(ap1, s0), s1)
  localparam logic [7:0] OpScalarTensorTensor = 8'h52;  // ap0 = alu1(alu0(ap1, s0), ap2)
  localparam logic [7:0] OpTensorReduce       = 8'h53;  // ap0 = fold alu0 over ap1
  localparam logic [7:0] OpTensorScalarReduce = 8'h54;  // ap0 = alu0(ap1, s0), then the alu1 fold
  localparam logic [7:0] OpTensorTensorScan   = 8'h55;  // ap0 = scan alu1(alu0(acc, ap1), ap2)
  localparam logic [7:0] OpTensorCopy         = 8'h56;  // ap0 = ap1, converted
  localparam logic [7:0] OpMemset             = 8'h57;  // ap0 = s0
  localparam logic [7:0] OpSelect             = 8'h58;  // ap0 = ap1 != 0 ? ap2 : s0
  localparam logic [7:0] OpIota               = 8'h59;  // ap0 = s0 + p * s1 + imm2 * i
  localparam logic [7:0] OpBnStats            = 8'h5A;  // ap0 = (count, mean, M2) of ap1
  localparam logic [7:0] OpBnAggr             = 8'h5B;  // ap0 = (mean, var) of ap1's triples
  localparam logic [7:0] OpMax8               = 8'h5C;  // ap0 = 8 largest of ap1
  localparam logic [7:0] OpTranspose          = 8'h5D;  // ap0 = 32x32 block transpose of ap1

  // Hdr fields (absolute instruction bits)
  localparam int unsigned HdrOpcodeLsb      = 0;   // opcode
  localparam int unsigned HdrOpcodeWidth    = 8;
  localparam int unsigned HdrWaitEnLsb      = 8;   // wait before issue
  localparam int unsigned HdrWaitEnWidth    = 1;
  localparam int unsigned HdrWaitSemLsb     = 9;   // semaphore waited on
  localparam int unsigned HdrWaitSemWidth   = 6;
  localparam int unsigned HdrWaitRegLsb     = 15;  // register added to wait_value (r0: none)
  localparam int unsigned HdrWaitRegWidth   = 6;
  localparam int unsigned HdrUpdModeLsb     = 21;  // 0 none, 1 add, 2 set (on completion)
  localparam int unsigned HdrUpdModeWidth   = 2;
  localparam int unsigned HdrUpdSemLsb      = 23;  // semaphore updated
  localparam int unsigned HdrUpdSemWidth    = 6;
  localparam int unsigned HdrUpdValueLsb    = 29;  // value added or set
  localparam int unsigned HdrUpdValueWidth  = 8;
  localparam int unsigned HdrWaitValueLsb   = 40;  // signed: issue when int32(sem) >= wait_value + reg (signed)
  localparam int unsigned HdrWaitValueWidth = 24;

  // Alu fields (absolute instruction bits)
  localparam int unsigned AluRdLsb       = 64;  // destination register
  localparam int unsigned AluRdWidth     = 6;
  localparam int unsigned AluRs1Lsb      = 70;  // first source register
  localparam int unsigned AluRs1Width    = 6;
  localparam int unsigned AluRs2Lsb      = 76;  // second source register
  localparam int unsigned AluRs2Width    = 6;
  localparam int unsigned AluUseImmLsb   = 82;  // second operand is imm
  localparam int unsigned AluUseImmWidth = 1;
  localparam int unsigned AluImmLsb      = 96;  // immediate
  localparam int unsigned AluImmWidth    = 32;

  // Mem fields (absolute instruction bits)
  localparam int unsigned MemRdLsb    = 64;  // ld: destination register
  localparam int unsigned MemRdWidth  = 6;
  localparam int unsigned MemRs1Lsb   = 70;  // address register
  localparam int unsigned MemRs1Width = 6;
  localparam int unsigned MemRs2Lsb   = 76;  // st: register stored
  localparam int unsigned MemRs2Width = 6;
  localparam int unsigned MemImmLsb   = 96;  // HBM byte address added to rs1 (4-byte aligned)
  localparam int unsigned MemImmWidth = 32;

  // Br fields (absolute instruction bits)
  localparam int unsigned BrRs1Lsb      = 70;   // first compared register
  localparam int unsigned BrRs1Width    = 6;
  localparam int unsigned BrRs2Lsb      = 76;   // second compared register
  localparam int unsigned BrRs2Width    = 6;
  localparam int unsigned BrUseImmLsb   = 82;   // compare with imm
  localparam int unsigned BrUseImmWidth = 1;
  localparam int unsigned BrImmLsb      = 96;   // immediate
  localparam int unsigned BrImmWidth    = 32;
  localparam int unsigned BrTargetLsb   = 128;  // instruction index taken
  localparam int unsigned BrTargetWidth = 32;

  // Loop fields (absolute instruction bits)
  localparam int unsigned LoopRdLsb       = 64;   // counter: rd -= 1, branch while rd != 0
  localparam int unsigned LoopRdWidth     = 6;
  localparam int unsigned LoopTargetLsb   = 128;  // instruction index of the loop body
  localparam int unsigned LoopTargetWidth = 32;

  // Notify fields (absolute instruction bits)
  localparam int unsigned NotifyImmLsb   = 96;  // interrupt code
  localparam int unsigned NotifyImmWidth = 32;

  // Dma fields (absolute instruction bits)
  localparam int unsigned DmaRdLsb      = 64;  // register added to the descriptor index
  localparam int unsigned DmaRdWidth    = 6;
  localparam int unsigned DmaRs1Lsb     = 70;  // register added to the source address/offset
  localparam int unsigned DmaRs1Width   = 6;
  localparam int unsigned DmaRs2Lsb     = 76;  // register added to the destination address/offset
  localparam int unsigned DmaRs2Width   = 6;
  localparam int unsigned DmaQueueLsb   = 84;  // DMA queue: engine * queues + queue
  localparam int unsigned DmaQueueWidth = 8;
  localparam int unsigned DmaImmLsb     = 96;  // descriptor index
  localparam int unsigned DmaImmWidth   = 32;

  // Pe fields (absolute instruction bits)
  localparam int unsigned PeAccumulateLsb   = 64;  // matmul: add into PSUM
  localparam int unsigned PeAccumulateWidth = 1;
  localparam int unsigned PeAccRegLsb       = 70;  // matmul: add into PSUM when this register is nonzero (r0: never)
  localparam int unsigned PeAccRegWidth     = 6;

  // Act fields (absolute instruction bits)
  localparam int unsigned ActFuncLsb         = 64;  // activation function
  localparam int unsigned ActFuncWidth       = 5;
  localparam int unsigned ActStochasticLsb   = 69;  // output rounding: 0 RNE, 1 SR
  localparam int unsigned ActStochasticWidth = 1;
  localparam int unsigned ActReduceOpLsb     = 70;  // 0 add, 1 max
  localparam int unsigned ActReduceOpWidth   = 1;
  localparam int unsigned ActReduceCmdLsb    = 72;  // idle, reset, reduce, reset_reduce, load_reduce
  localparam int unsigned ActReduceCmdWidth  = 3;

  // Dve fields (absolute instruction bits)
  localparam int unsigned DveAlu0Lsb         = 64;  // first element op
  localparam int unsigned DveAlu0Width       = 5;
  localparam int unsigned DveAlu1Lsb         = 69;  // second element op
  localparam int unsigned DveAlu1Width       = 5;
  localparam int unsigned DveStochasticLsb   = 74;  // output rounding: 0 RNE, 1 SR
  localparam int unsigned DveStochasticWidth = 1;
  localparam int unsigned DveSaturateLsb     = 75;  // float overflow saturates
  localparam int unsigned DveSaturateWidth   = 1;
  localparam int unsigned DveReverse0Lsb     = 76;  // op0 takes (scalar, x)
  localparam int unsigned DveReverse0Width   = 1;
  localparam int unsigned DveReverse1Lsb     = 77;  // op1 takes (scalar, x)
  localparam int unsigned DveReverse1Width   = 1;
  localparam int unsigned DveNegateLsb       = 78;  // reductions: negate the result
  localparam int unsigned DveNegateWidth     = 1;
  localparam int unsigned DveImm2Lsb         = 96;  // third immediate
  localparam int unsigned DveImm2Width       = 32;

  // Ap fields (slot-relative bits)
  localparam int unsigned ApMemLsb          = 0;    // 0 SBUF, 1 PSUM
  localparam int unsigned ApMemWidth        = 1;
  localparam int unsigned ApDtypeLsb        = 1;    // element dtype code
  localparam int unsigned ApDtypeWidth      = 4;
  localparam int unsigned ApStartLsb        = 5;    // start partition
  localparam int unsigned ApStartWidth      = 8;
  localparam int unsigned ApPartitionsLsb   = 13;   // partition count; 0: operand absent
  localparam int unsigned ApPartitionsWidth = 8;
  localparam int unsigned ApBaseRegLsb      = 21;   // register added to offset (r0: none)
  localparam int unsigned ApBaseRegWidth    = 6;
  localparam int unsigned ApOffsetLsb       = 32;   // byte offset inside each partition
  localparam int unsigned ApOffsetWidth     = 24;
  localparam int unsigned ApD0StepLsb       = 64;   // signed: free dim step in elements, d0 outermost
  localparam int unsigned ApD0StepWidth     = 16;
  localparam int unsigned ApD0NumLsb        = 80;   // free dim size
  localparam int unsigned ApD0NumWidth      = 16;
  localparam int unsigned ApD1StepLsb       = 96;   // signed: free dim step
  localparam int unsigned ApD1StepWidth     = 16;
  localparam int unsigned ApD1NumLsb        = 112;  // free dim size
  localparam int unsigned ApD1NumWidth      = 16;
  localparam int unsigned ApD2StepLsb       = 128;  // signed: free dim step
  localparam int unsigned ApD2StepWidth     = 16;
  localparam int unsigned ApD2NumLsb        = 144;  // free dim size
  localparam int unsigned ApD2NumWidth      = 16;
  localparam int unsigned ApD3StepLsb       = 160;  // signed: free dim step
  localparam int unsigned ApD3StepWidth     = 16;
  localparam int unsigned ApD3NumLsb        = 176;  // free dim size, d3 innermost
  localparam int unsigned ApD3NumWidth      = 16;

  // Sc fields (slot-relative bits)
  localparam int unsigned ScImmLsb            = 0;   // immediate bits, or byte offset when per_partition
  localparam int unsigned ScImmWidth          = 32;
  localparam int unsigned ScPerPartitionLsb   = 32;  // one value per partition
  localparam int unsigned ScPerPartitionWidth = 1;
  localparam int unsigned ScMemLsb            = 33;  // 0 SBUF, 1 PSUM
  localparam int unsigned ScMemWidth          = 1;
  localparam int unsigned ScDtypeLsb          = 34;  // dtype of the per-partition values
  localparam int unsigned ScDtypeWidth        = 4;
  localparam int unsigned ScStartLsb          = 38;  // start partition
  localparam int unsigned ScStartWidth        = 8;
  localparam int unsigned ScBaseRegLsb        = 46;  // register added to the offset
  localparam int unsigned ScBaseRegWidth      = 6;

  // Desc fields (slot-relative bits)
  localparam int unsigned DescSpaceLsb     = 0;    // 0 HBM, 1 SBUF, 2 PSUM
  localparam int unsigned DescSpaceWidth   = 2;
  localparam int unsigned DescDtypeLsb     = 2;    // element dtype code
  localparam int unsigned DescDtypeWidth   = 4;
  localparam int unsigned DescStartLsb     = 8;    // start partition (on-chip)
  localparam int unsigned DescStartWidth   = 8;
  localparam int unsigned DescAddressLsb   = 16;   // HBM byte address, or byte offset in each partition
  localparam int unsigned DescAddressWidth = 48;
  localparam int unsigned DescD0StepLsb    = 64;   // signed: bytes (on-chip: partitions)
  localparam int unsigned DescD0StepWidth  = 32;
  localparam int unsigned DescD0NumLsb     = 96;   // elements
  localparam int unsigned DescD0NumWidth   = 16;
  localparam int unsigned DescD1StepLsb    = 112;  // signed: bytes
  localparam int unsigned DescD1StepWidth  = 32;
  localparam int unsigned DescD1NumLsb     = 144;  // elements
  localparam int unsigned DescD1NumWidth   = 16;
  localparam int unsigned DescD2StepLsb    = 160;  // signed: bytes
  localparam int unsigned DescD2StepWidth  = 32;
  localparam int unsigned DescD2NumLsb     = 192;  // elements
  localparam int unsigned DescD2NumWidth   = 16;
  localparam int unsigned DescD3StepLsb    = 208;  // signed: bytes
  localparam int unsigned DescD3StepWidth  = 32;
  localparam int unsigned DescD3NumLsb     = 240;  // elements
  localparam int unsigned DescD3NumWidth   = 16;

  // Defined codes
  localparam int unsigned NumDtypes     = 9;   // dtype codes 0 .. NumDtypes - 1
  localparam int unsigned NumActFuncs   = 18;  // activation function codes
  localparam int unsigned NumReduceCmds = 5;   // ACT reduce command codes
  localparam int unsigned NumDveAlus    = 17;  // vector ALU codes
  localparam int unsigned NumUpdModes   = 3;   // semaphore update modes

  /* verilator lint_on UNUSEDPARAM */

  // The sequencers that may execute `op` (bit i: sequencer i); 0: an illegal opcode.
  function automatic logic [4:0] op_seq_mask(logic [7:0] op);
    unique case (op)
      OpNop, OpHalt, OpNotify, OpLd, OpSt, OpLoop, OpDma, OpAdd, OpSub, OpMul, OpAnd, OpOr, OpXor,
      OpShl, OpShr, OpSra, OpSlt, OpSltu, OpMin, OpMax, OpBeq, OpBne, OpBlt, OpBge, OpBltu,
      OpBgeu: op_seq_mask = 5'b11111;
      OpLdstat, OpMatmul, OpPeTranspose: op_seq_mask = 5'b00001;
      OpActivate: op_seq_mask = 5'b00010;
      OpTensorTensor, OpTensorScalar, OpScalarTensorTensor, OpTensorReduce, OpTensorScalarReduce,
      OpTensorTensorScan, OpTensorCopy, OpMemset, OpSelect, OpIota, OpBnStats, OpBnAggr, OpMax8,
      OpTranspose: op_seq_mask = 5'b01100;
      default: op_seq_mask = 5'b00000;
    endcase
  endfunction

  /* verilator lint_off UNUSEDSIGNAL */
  // The bits an instruction uses, given its opcode and flags (wait_en, upd_mode, use_imm,
  // per_partition): every other bit must be zero (docs/isa.md "Formats"). Generated from
  // the golden encoder, which sets exactly these bits.
  function automatic logic [InstrBits-1:0] instr_used_bits(logic [InstrBits-1:0] instr);
    instr_used_bits = '0;
    instr_used_bits[8:0] = '1;
    instr_used_bits[22:21] = '1;
    if (instr[8]) begin
      instr_used_bits[20:9] = '1;
      instr_used_bits[63:40] = '1;
    end
    if (instr[22:21] != '0) begin
      instr_used_bits[36:23] = '1;
    end
    unique case (instr[7:0])
      OpNop, OpHalt: begin
      end
      OpNotify: begin
        instr_used_bits[127:96] = '1;
      end
      OpLd: begin
        instr_used_bits[75:64] = '1;
        instr_used_bits[127:96] = '1;
      end
      OpSt: begin
        instr_used_bits[81:70] = '1;
        instr_used_bits[127:96] = '1;
      end
      OpLoop: begin
        instr_used_bits[69:64] = '1;
        instr_used_bits[159:128] = '1;
      end
      OpDma: begin
        instr_used_bits[81:64] = '1;
        instr_used_bits[91:84] = '1;
        instr_used_bits[127:96] = '1;
      end
      OpAdd, OpSub, OpMul, OpAnd, OpOr, OpXor, OpShl, OpShr, OpSra, OpSlt, OpSltu, OpMin,
      OpMax: begin
        instr_used_bits[75:64] = '1;
        if (instr[82]) begin
          instr_used_bits[82:82] = '1;
          instr_used_bits[127:96] = '1;
        end
        if (!instr[82]) begin
          instr_used_bits[81:76] = '1;
        end
      end
      OpBeq, OpBne, OpBlt, OpBge, OpBltu, OpBgeu: begin
        instr_used_bits[75:70] = '1;
        instr_used_bits[159:128] = '1;
        if (instr[82]) begin
          instr_used_bits[82:82] = '1;
          instr_used_bits[127:96] = '1;
        end
        if (!instr[82]) begin
          instr_used_bits[81:76] = '1;
        end
      end
      OpLdstat: begin
        instr_used_bits[346:320] = '1;
        instr_used_bits[375:352] = '1;
        instr_used_bits[511:384] = '1;
      end
      OpMatmul: begin
        instr_used_bits[64:64] = '1;
        instr_used_bits[75:70] = '1;
        instr_used_bits[154:128] = '1;
        instr_used_bits[183:160] = '1;
        instr_used_bits[346:192] = '1;
        instr_used_bits[375:352] = '1;
        instr_used_bits[511:384] = '1;
      end
      OpPeTranspose: begin
        instr_used_bits[154:128] = '1;
        instr_used_bits[183:160] = '1;
        instr_used_bits[319:192] = '1;
      end
      OpActivate: begin
        instr_used_bits[70:64] = '1;
        instr_used_bits[74:72] = '1;
        instr_used_bits[154:128] = '1;
        instr_used_bits[183:160] = '1;
        instr_used_bits[346:192] = '1;
        instr_used_bits[375:352] = '1;
        instr_used_bits[538:384] = '1;
        instr_used_bits[567:544] = '1;
        instr_used_bits[730:576] = '1;
        instr_used_bits[759:736] = '1;
        instr_used_bits[927:768] = '1;
        instr_used_bits[991:960] = '1;
        if (instr[928]) begin
          instr_used_bits[947:928] = '1;
        end
        if (instr[992]) begin
          instr_used_bits[1011:992] = '1;
        end
      end
      OpTensorTensor, OpTensorScalar, OpScalarTensorTensor, OpTensorReduce,
      OpTensorScalarReduce, OpTensorTensorScan, OpTensorCopy, OpMemset, OpSelect, OpIota,
      OpBnStats, OpBnAggr, OpMax8, OpTranspose: begin
        instr_used_bits[78:64] = '1;
        instr_used_bits[154:96] = '1;
        instr_used_bits[183:160] = '1;
        instr_used_bits[346:192] = '1;
        instr_used_bits[375:352] = '1;
        instr_used_bits[538:384] = '1;
        instr_used_bits[567:544] = '1;
        instr_used_bits[703:576] = '1;
        instr_used_bits[927:896] = '1;
        instr_used_bits[991:960] = '1;
        if (instr[928]) begin
          instr_used_bits[947:928] = '1;
        end
        if (instr[992]) begin
          instr_used_bits[1011:992] = '1;
        end
      end
      default: ;  // an undefined opcode: illegal whatever its other bits
    endcase
  endfunction

  // An instruction holds a code the machine does not define: a dtype of an operand its
  // format reads, an activation function, reduce command or vector ALU op, an update mode.
  function automatic logic instr_codes_undefined(logic [InstrBits-1:0] instr);
    instr_codes_undefined = instr[22:21] >= 2'(NumUpdModes);
    unique case (instr[7:0])
      OpLdstat: begin
        if (instr[324:321] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
      end
      OpMatmul: begin
        if (instr[132:129] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[324:321] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
      end
      OpPeTranspose: begin
        if (instr[132:129] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
      end
      OpActivate: begin
        if (instr[68:64] >= 5'(NumActFuncs)) instr_codes_undefined = 1'b1;
        if (instr[74:72] >= 3'(NumReduceCmds)) instr_codes_undefined = 1'b1;
        if (instr[132:129] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[324:321] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[516:513] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[708:705] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[928] && (instr[933:930] >= 4'(NumDtypes))) instr_codes_undefined = 1'b1;
        if (instr[992] && (instr[997:994] >= 4'(NumDtypes))) instr_codes_undefined = 1'b1;
      end
      OpTensorTensor, OpTensorScalar, OpScalarTensorTensor, OpTensorReduce,
      OpTensorScalarReduce, OpTensorTensorScan, OpTensorCopy, OpMemset, OpSelect, OpIota,
      OpBnStats, OpBnAggr, OpMax8, OpTranspose: begin
        if (instr[68:64] >= 5'(NumDveAlus)) instr_codes_undefined = 1'b1;
        if (instr[73:69] >= 5'(NumDveAlus)) instr_codes_undefined = 1'b1;
        if (instr[132:129] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[324:321] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[516:513] >= 4'(NumDtypes)) instr_codes_undefined = 1'b1;
        if (instr[928] && (instr[933:930] >= 4'(NumDtypes))) instr_codes_undefined = 1'b1;
        if (instr[992] && (instr[997:994] >= 4'(NumDtypes))) instr_codes_undefined = 1'b1;
      end
      default: ;
    endcase
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

endpackage
